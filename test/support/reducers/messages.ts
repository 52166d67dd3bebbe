/**
 * Message events. The register state this server gives for `message` is `max_message_id`
 * only (no `unread_msgs`, no message lists), so edits, moves, deletions and flag changes leave
 * the state alone; a new message raises `max_message_id`. Typing is ephemeral (no state).
 */
import { defineReducer, listOf, type State, unknownOp } from './registry.js';

defineReducer('message', (state, event) => {
  const message = event.message as State;
  const id = message.id as number;
  if (typeof state.max_message_id === 'number' && id > state.max_message_id) state.max_message_id = id;
  // The server sends no event when a channel gets its first message; clients fill it in from
  // the first message they receive there, on their subscriptions only (the real server's
  // apply_event does exactly this, so a never-subscribed channel keeps null until reload).
  if (message.type !== 'stream') return;
  // The register `streams` list (event type `stream`) is filled in the same way.
  for (const key of ['subscriptions', 'streams']) {
    const channel = listOf(state, key)?.find((c) => c.stream_id === message.stream_id);
    if (channel && channel.first_message_id === null) channel.first_message_id = id;
  }
});

defineReducer('update_message', () => undefined);
defineReducer('delete_message', () => undefined);

defineReducer('update_message_flags', (_state, event) => {
  if (event.op !== 'add' && event.op !== 'remove') unknownOp(event);
});

defineReducer('typing', (_state, event) => {
  if (event.op !== 'start' && event.op !== 'stop') unknownOp(event);
});
