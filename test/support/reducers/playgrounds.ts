/** `realm_playgrounds`: each event carries the complete list, which replaces the client's copy. */
import { defineReducer } from './registry.js';

defineReducer('realm_playgrounds', (state, event) => {
  if ('realm_playgrounds' in state) state.realm_playgrounds = event.realm_playgrounds;
});
