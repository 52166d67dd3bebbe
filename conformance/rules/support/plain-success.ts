/**
 * The success body of endpoints that return no data: exactly `{"result": "success", "msg": ""}`
 * (no `ignored_parameters_unsupported` when every parameter was supported).
 */
import type { JsonObject, Reply } from '../../client/api-client.js';
import { expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';

const plain = v.object({ result: v.literal('success'), msg: v.literal('') }, { exact: true });

/** HTTP 200 with exactly `result` and `msg`. */
export function expectPlainSuccess(reply: Reply): JsonObject {
  return expectShape(expectSuccess(reply, { ignored: [] }), plain, 'body', reply);
}
