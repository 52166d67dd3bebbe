/**
 * Performing an action: its answer either did it, or the target refused it (a permission the
 * realm withholds on a shared deployment is no failure of convergence; the line says so). A
 * server error fails the run.
 */
import type { Reply } from '../../client/api-client.js';
import { fail } from '../../expect/assert.js';

/** The report line of an action: `what`, or `what: refused (HTTP 403 CODE)`. */
export function outcome(what: string, reply: Reply): string {
  if (reply.status >= 500 || reply.body === undefined) fail(`${what}: the target answered HTTP ${reply.status}`, reply);
  if (reply.status === 200) return what;
  return `${what}: refused (HTTP ${reply.status} ${String(reply.body?.code ?? '')})`;
}

/** The ID a successful answer carries under `key`, if any. */
export function answeredId(reply: Reply, key = 'id'): number | undefined {
  const value = reply.status === 200 ? reply.body?.[key] : undefined;
  return typeof value === 'number' ? value : undefined;
}
