/**
 * Runs the conformance suite against the embedded server and records every request it sends:
 * who it authenticates as and which rule file it belongs to. Requests before the first rule are
 * `(setup)`, after the last one `(run cleanups)`; a rule's own cleanups count as its file's.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runSuite, type Rule, type SuiteResult } from '../conformance/index.js';
import { createApp } from '../server/index.js';
import { makeRequest } from '../server/app/request.js';
import { routeOf, type RequestRecord } from './budget-model.js';

export interface BudgetRun {
  readonly numRuns: number;
  readonly seed: number;
  /** Rule globs (`--only`); every rule when empty. */
  readonly only: readonly string[];
  /** The level the embedded server emulates (default its newest). */
  readonly featureLevel?: number;
}

export interface BudgetMeasurement {
  readonly result: SuiteResult;
  readonly requests: readonly RequestRecord[];
  /** Who each identity is: `admin iago@zulip.com`, `throwaway conf-x-user1@...`. */
  readonly labels: ReadonlyMap<string, string>;
  readonly wallMs: number;
}

const RULES_DIR = fileURLToPath(new URL('../conformance/rules/', import.meta.url));

/** Every rule id with the source file that defines it (`conformance/rules/groups/user-groups.ts`). */
export async function ruleFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const entries = readdirSync(RULES_DIR, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js')).sort();
  for (const name of entries) {
    const module = (await import(pathToFileURL(`${RULES_DIR}${name}`).href)) as { rules?: unknown };
    if (!Array.isArray(module.rules)) continue;
    for (const rule of module.rules as Rule[]) if (!files.has(rule.id)) files.set(rule.id, `conformance/rules/${name.replace(/\\/g, '/').replace(/\.js$/, '.ts')}`);
  }
  return files;
}

/**
 * The user a request counts against: the lower-cased email of its HTTP Basic credentials (the
 * scheme is case-insensitive). None without credentials or when the target refused them (401):
 * a server counts a user's requests only once it knows the user.
 */
function actingUser(authorization: string | undefined, status: number): string | undefined {
  if (authorization === undefined || status === 401) return undefined;
  const match = /^basic +([A-Za-z0-9+/=]+)$/i.exec(authorization.trim());
  if (match?.[1] === undefined) return undefined;
  return Buffer.from(match[1], 'base64').toString('utf8').split(':')[0]?.toLowerCase();
}

/** `role email` for the run's identities (from the report's identity lines), `throwaway email` for created users. */
function labelsFor(result: SuiteResult, users: Iterable<string>): Map<string, string> {
  const roles = new Map<string, string>();
  for (const line of result.identities) {
    const match = /^([\w-]+): (\S+) /.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) roles.set(match[2].toLowerCase(), `${match[1]} ${match[2]}`);
  }
  const labels = new Map<string, string>();
  for (const user of users) labels.set(user, roles.get(user) ?? `${user.startsWith(result.runTag) ? 'throwaway' : 'other'} ${user}`);
  return labels;
}

export async function measureBudget(run: BudgetRun): Promise<BudgetMeasurement> {
  const files = await ruleFiles();
  const app = createApp({ logger: () => undefined, ...(run.featureLevel === undefined ? {} : { featureLevel: run.featureLevel }) });
  const requests: RequestRecord[] = [];
  let current = '(setup)';
  let rule = current;
  const started = performance.now();
  try {
    const result = await runSuite({
      handler: async (request) => {
        const file = current;
        const ruleId = rule;
        const answer = await app.handle(makeRequest(request.method, request.path, { headers: { ...request.headers }, body: request.body, signal: request.signal }));
        requests.push({ identity: actingUser(request.headers.authorization, answer.status), file, rule: ruleId, route: routeOf(request.method, request.path) });
        return answer;
      },
      numRuns: run.numRuns,
      seed: run.seed,
      ...(run.only.length > 0 ? { only: run.only } : {}),
      listener: {
        onRuleStart: (started) => {
          current = files.get(started.id) ?? `(rule ${started.id})`;
          rule = started.id;
        },
        onRuleEnd: (_result, position, total) => {
          current = position === total ? '(run cleanups)' : '(between rules)';
          rule = current;
        },
      },
    });
    const users = new Set(requests.flatMap((request) => (request.identity === undefined ? [] : [request.identity])));
    return { result, requests, labels: labelsFor(result, users), wallMs: performance.now() - started };
  } finally {
    app.close();
  }
}
