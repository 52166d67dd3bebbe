/**
 * `starred_messages`: starring and unstarring events add and remove IDs (as the real server's
 * apply_event does); a deleted message leaves the list. Runs after the other reducers of these types.
 */
import { ascending, defineReducer, type Reducer, reducerFor, type State } from './registry.js';

function extend(type: string, step: (starred: number[], event: State) => number[]): void {
  const before: Reducer | undefined = reducerFor(type);
  defineReducer(type, (state, event, context) => {
    before?.(state, event, context);
    if (Array.isArray(state.starred_messages)) state.starred_messages = ascending(step(state.starred_messages as number[], event));
  });
}

extend('update_message_flags', (starred, event) => {
  if (event.flag !== 'starred') return starred;
  const ids = event.messages as number[];
  return event.op === 'add' ? [...starred, ...ids] : starred.filter((id) => !ids.includes(id));
});

extend('delete_message', (starred, event) => {
  const ids = Array.isArray(event.message_ids) ? (event.message_ids as number[]) : [event.message_id as number];
  return starred.filter((id) => !ids.includes(id));
});
