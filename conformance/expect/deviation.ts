/**
 * Accepting both answers of a known error-code deviation: the description's and the real
 * server's. Seeing the real one records the deviation (which fails only with --strict-docs).
 */
import type { JsonObject, Reply } from '../client/api-client.js';
import { deviationById, type DeviationId } from '../deviations.js';
import type { RuleContext } from '../rules/types.js';
import { expectError, failAsError } from './assert.js';

/** The documented error, or the real server's answer listed in the deviation table. */
export function expectDocumentedError(ctx: Pick<RuleContext, 'deviation'>, reply: Reply, id: DeviationId, detail?: string): JsonObject {
  const answers = deviationById(id).answers;
  if (!answers) throw new Error(`deviation '${id}' has no answers to compare with`);
  const { documented, real } = answers;
  if (reply.status === documented.status && reply.body?.code === documented.code) return expectError(reply, documented);
  if (reply.status === real.status && reply.body?.code === real.code) {
    const body = expectError(reply, real);
    ctx.deviation(id, detail ?? `answered HTTP ${real.status} ${real.code} instead of HTTP ${documented.status} ${documented.code}`);
    return body;
  }
  failAsError(reply, [documented, real], `expected HTTP ${documented.status} ${documented.code} (described) or HTTP ${real.status} ${real.code} (real server, deviation ${id})`);
}
