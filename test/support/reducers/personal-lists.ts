/** `alert_words` and `muted_users` events carry the whole new list, which replaces the old one; `saved_snippets` below. */
import { defineReducer, unknownOp } from './registry.js';

defineReducer('alert_words', (state, event) => {
  if ('alert_words' in state) state.alert_words = structuredClone(event.alert_words);
});

defineReducer('muted_users', (state, event) => {
  if ('muted_users' in state) state.muted_users = structuredClone(event.muted_users);
});

defineReducer('onboarding_steps', (state, event) => {
  if ('onboarding_steps' in state) state.onboarding_steps = structuredClone(event.onboarding_steps);
});

/** `saved_snippets`: `add` appends, `update` replaces, `remove` drops by ID. */
defineReducer('saved_snippets', (state, event) => {
  const list = state.saved_snippets as Array<Record<string, unknown>> | undefined;
  if (!list) return;
  const snippet = event.saved_snippet as Record<string, unknown> | undefined;
  if (event.op === 'add' && snippet) list.push(structuredClone(snippet));
  else if (event.op === 'update' && snippet) state.saved_snippets = list.map((s) => (s.id === snippet.id ? structuredClone(snippet) : s));
  else if (event.op === 'remove') state.saved_snippets = list.filter((s) => s.id !== event.saved_snippet_id);
  else unknownOp(event);
});

/** `pointer` (levels below 23): the real server's apply_event keeps the larger of the two. */
defineReducer('pointer', (state, event) => {
  if (typeof state.pointer === 'number') state.pointer = Math.max(state.pointer, event.pointer as number);
});
