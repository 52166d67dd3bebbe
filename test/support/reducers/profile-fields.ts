/** `custom_profile_fields`: each event carries the complete ordered list, which replaces the client's copy. */
import { defineReducer } from './registry.js';

defineReducer('custom_profile_fields', (state, event) => {
  if ('custom_profile_fields' in state) state.custom_profile_fields = event.fields;
});
