/** `alert_words` and `muted_users` events carry the whole new list, which replaces the old one. */
import { defineReducer } from './registry.js';

defineReducer('alert_words', (state, event) => {
  if ('alert_words' in state) state.alert_words = structuredClone(event.alert_words);
});

defineReducer('muted_users', (state, event) => {
  if ('muted_users' in state) state.muted_users = structuredClone(event.muted_users);
});
