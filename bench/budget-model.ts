/**
 * The arithmetic of the conformance request budget: requests tallied per identity and per rule
 * file, and how long a run takes against a per-user limit of N requests per window. A real server
 * (Zulip's `api_by_user`: 200 a minute) keeps a sliding window per user; a run is sequential, so
 * a wait for one identity holds up everything after it.
 */

/** One request of a run, in the order sent. */
export interface RequestRecord {
  /** The user the limit counts it against; none without (accepted) credentials. */
  readonly identity: string | undefined;
  /** The rule file it belongs to, or `(setup)` / `(run cleanups)`. */
  readonly file: string;
  /** The rule it belongs to (its file's name outside rules). */
  readonly rule: string;
  /** Method and path, numeric path segments as `{id}`: `GET /api/v1/users/{id}`. */
  readonly route: string;
}

/** `GET /api/v1/users/{id}` for `GET /api/v1/users/12?x=1`: requests of one endpoint grouped. */
export function routeOf(method: string, path: string): string {
  const bare = path.split('?')[0] ?? '';
  return `${method.toUpperCase()} ${bare.replace(/\/\d+(?=\/|$)/g, '/{id}')}`;
}

export interface Tally {
  readonly key: string;
  readonly count: number;
}

/** Counts of `keys`, largest first (ties by key). */
export function tally(keys: Iterable<string>): Tally[] {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

export interface Limit {
  /** Requests per window and identity (200 on a real server). */
  readonly requests: number;
  readonly windowMs: number;
}

export interface Projection {
  /** The busiest identity's requests at the limit's pace (200 a minute: 1,000 requests take 5 min). */
  readonly busiestPaceMs: number;
  /** A sequential run: `requestMs` per request, waiting whenever an identity's window is full. */
  readonly simulatedMs: number;
  /** Waits in the simulated run and their total. */
  readonly waits: number;
  readonly waitedMs: number;
}

/** The suite's client waits `Retry-After` plus this margin (conformance/client/api-client.ts). */
const WAIT_MARGIN_MS = 50;

/**
 * Projects the duration of `requests` (identities in the order sent) under `limit`. Requests
 * without an identity are not limited here (a real server may limit them per IP: project those
 * separately). `requestMs` is the time of one request, its answer included.
 */
export function project(requests: ReadonlyArray<string | undefined>, limit: Limit, requestMs: number): Projection {
  const hits = new Map<string, number[]>();
  let now = 0;
  let waits = 0;
  let waitedMs = 0;
  for (const identity of requests) {
    if (identity !== undefined) {
      const recent = (hits.get(identity) ?? []).filter((at) => at > now - limit.windowMs);
      if (recent.length >= limit.requests) {
        // The 429 costs a request, then the wait until the oldest hit leaves the window.
        now += requestMs;
        const wait = (recent[0] as number) + limit.windowMs - now + WAIT_MARGIN_MS;
        if (wait > 0) {
          waits++;
          waitedMs += wait;
          now += wait;
        }
        while (recent.length > 0 && (recent[0] as number) <= now - limit.windowMs) recent.shift();
      }
      recent.push(now);
      hits.set(identity, recent);
    }
    now += requestMs;
  }
  const busiest = tally(requests.filter((identity): identity is string => identity !== undefined))[0]?.count ?? 0;
  return { busiestPaceMs: (busiest / limit.requests) * limit.windowMs, simulatedMs: now, waits, waitedMs };
}

/** `12.3 min` or `45 s`. */
export function duration(ms: number): string {
  return ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`;
}
