/** `realm_emoji`: each update carries the complete object (deactivated emoji included), which replaces the client's copy. */
import { defineReducer, unknownOp } from './registry.js';

defineReducer('realm_emoji', (state, event) => {
  if (event.op !== 'update') unknownOp(event);
  if ('realm_emoji' in state) state.realm_emoji = event.realm_emoji;
});
