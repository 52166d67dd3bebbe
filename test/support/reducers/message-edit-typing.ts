/** Typing while editing is ephemeral, like typing: no register state; only the op is checked. */
import { defineReducer, unknownOp } from './registry.js';

defineReducer('typing_edit_message', (_state, event) => {
  if (event.op !== 'start' && event.op !== 'stop') unknownOp(event);
});
