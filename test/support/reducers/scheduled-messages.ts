/** `scheduled_messages` events: the sender's undelivered scheduled messages, keyed by `scheduled_message_id`, by delivery time. */
import { defineReducer, listOf, type State, unknownOp } from './registry.js';

const byTime = (a: State, b: State): number =>
  Number(a.scheduled_delivery_timestamp) - Number(b.scheduled_delivery_timestamp) || Number(a.scheduled_message_id) - Number(b.scheduled_message_id);

defineReducer('scheduled_messages', (state, event) => {
  const list = listOf(state, 'scheduled_messages');
  if (!list) return;
  const upsert = (item: State): void => {
    const at = list.findIndex((m) => m.scheduled_message_id === item.scheduled_message_id);
    if (at >= 0) list[at] = item;
    else list.push(item);
  };
  if (event.op === 'add') for (const item of event.scheduled_messages as State[]) upsert(item);
  else if (event.op === 'update') upsert(event.scheduled_message as State);
  else if (event.op === 'remove') {
    const at = list.findIndex((m) => m.scheduled_message_id === event.scheduled_message_id);
    if (at >= 0) list.splice(at, 1);
  } else unknownOp(event);
  list.sort(byTime);
});
