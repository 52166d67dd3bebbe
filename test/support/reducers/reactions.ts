/**
 * Reaction events. The register state holds no message lists, so reactions change nothing a
 * client keeps from `POST /register`; the reducer only checks that the op is one it knows.
 */
import { defineReducer, unknownOp } from './registry.js';

defineReducer('reaction', (_state, event) => {
  if (event.op !== 'add' && event.op !== 'remove') unknownOp(event);
});
