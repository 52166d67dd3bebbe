/**
 * The conformance suite's request budget: runs every rule (every opt-in: the embedded server
 * allows realm-wide writes and user creation) against the embedded server, counts the requests
 * per acting user (a real server's limit is per user) and per rule file,
 * and projects how long the same run takes against a server limiting each user to N requests a
 * minute (Zulip: 200). Rule authors see where the budget goes; the busiest identity sets the pace.
 *
 *   node dist/bench/conformance-budget.js [--num-runs 3] [--per-minute 200] [--request-ms 0]
 *     [--top 15] [--seed 1] [--only GLOB]... [--feature-level N] [--by-rule]
 *
 * `--request-ms` is the time one request takes on the target (its answer included); 0 projects
 * the limit alone. The projection assumes the suite's sequential run and one bucket per user for
 * every request; `--by-rule` adds the `--top` rules with the most requests of the busiest identity,
 * each with its requests per identity and that identity's busiest endpoints. On Zulip, `GET`/`DELETE /events` are served by Tornado, whose limiter keeps
 * buckets of its own, so the projection errs long there.
 */
import { parseArgs } from 'node:util';
import { duration, project, tally } from './budget-model.js';
import { measureBudget } from './budget-measure.js';

const { values } = parseArgs({
  options: {
    'num-runs': { type: 'string', default: '3' },
    'per-minute': { type: 'string', default: '200' },
    'request-ms': { type: 'string', default: '0' },
    top: { type: 'string', default: '15' },
    seed: { type: 'string', default: '1' },
    only: { type: 'string', multiple: true, default: [] },
    'feature-level': { type: 'string' },
    'by-rule': { type: 'boolean', default: false },
  },
});

function positive(name: string, text: string | undefined, allowZero = false): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    process.stderr.write(`conformance-budget: --${name}: expected a ${allowZero ? 'non-negative' : 'positive'} number, got '${text}'\n`);
    process.exit(2);
  }
  return value;
}

const numRuns = positive('num-runs', values['num-runs']);
const perMinute = positive('per-minute', values['per-minute']);
const requestMs = positive('request-ms', values['request-ms'], true);
const top = positive('top', values.top);
const seed = Number(values.seed);
const featureLevel = values['feature-level'] === undefined ? undefined : positive('feature-level', values['feature-level']);

const measured = await measureBudget({ numRuns, seed, only: values.only, ...(featureLevel === undefined ? {} : { featureLevel }) });
const { result, requests, labels } = measured;
const count = (n: number) => n.toLocaleString('en-US');
const { counts } = result;
const out: string[] = [
  `conformance budget: ${values.only.length > 0 ? `rules ${values.only.join(', ')}` : 'every rule'}, every opt-in, embedded server at level ${result.target.featureLevel}, --num-runs ${numRuns}, seed ${seed}`,
  `${counts.total} rules (${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped) in ${duration(measured.wallMs)}; ${count(requests.length)} requests`,
  '',
  'requests per acting user (HTTP Basic credentials the target accepted):',
];
const NONE = '(no credentials, or refused ones)';
const identities = tally(requests.map((request) => request.identity ?? NONE));
/** The run's own identities and the busiest throwaway users; the rest are summed up. */
const SHOWN_USERS = 10;
const shown = identities.slice(0, SHOWN_USERS);
for (const { key, count: n } of shown) out.push(`  ${count(n).padStart(7)}  ${labels.get(key) ?? key}`);
if (identities.length > shown.length) out.push(`  ... ${identities.length - shown.length} more users (throwaway users of single rules), ${count(identities.slice(SHOWN_USERS).reduce((sum, entry) => sum + entry.count, 0))} requests`);

const limited = identities.filter((entry) => entry.key !== NONE);
const busiest = limited[0];
const projection = project(
  requests.map((request) => request.identity),
  { requests: perMinute, windowMs: 60_000 },
  requestMs,
);
out.push(
  '',
  busiest ? `busiest identity: ${labels.get(busiest.key) ?? busiest.key}, ${count(busiest.count)} requests` : 'no authenticated requests',
  `projected at ${count(perMinute)} requests a minute per user:`,
  `  the busiest identity's requests at that pace: ${duration(projection.busiestPaceMs)}`,
  `  a sequential run at ${requestMs} ms a request: ${duration(projection.simulatedMs)} (${projection.waits} waits, ${duration(projection.waitedMs)} of them)`,
);
const anonymous = identities.find((entry) => entry.key === NONE)?.count ?? 0;
if (anonymous > 0) out.push(`  the ${count(anonymous)} requests without accepted credentials are not limited per user; a real server may limit them per address (Zulip's api_by_ip: 100 a minute)`);

out.push('', `requests per rule file (top ${top}), with the busiest identity in each:`);
const files = tally(requests.map((request) => request.file));
for (const { key: file, count: n } of files.slice(0, top)) {
  const inFile = tally(requests.filter((request) => request.file === file).map((request) => request.identity ?? NONE))[0];
  const who = inFile === undefined ? '' : inFile.key === NONE ? 'no credentials' : (labels.get(inFile.key)?.split(' ')[0] ?? '');
  out.push(`  ${count(n).padStart(7)}  ${file}  (${who} ${count(inFile?.count ?? 0)})`);
}
if (files.length > top) out.push(`  ... ${files.length - top} more files, ${count(files.slice(top).reduce((sum, entry) => sum + entry.count, 0))} requests`);
if (values['by-rule'] && busiest) {
  const short = (identity: string) => labels.get(identity)?.split(' ')[0] ?? identity;
  const mine = requests.filter((request) => request.identity === busiest.key);
  out.push('', `rules with the most requests of ${short(busiest.key)} (top ${top}): all identities' requests, then ${short(busiest.key)}'s endpoints`);
  for (const { key: rule, count: n } of tally(mine.map((request) => request.rule)).slice(0, top)) {
    const inRule = requests.filter((request) => request.rule === rule);
    const who = tally(inRule.map((request) => (request.identity === undefined ? 'anonymous' : short(request.identity))));
    out.push(`  ${count(n).padStart(7)}  ${rule}  (${who.map((entry) => `${entry.key} ${entry.count}`).join(', ')})`);
    const routes = tally(mine.filter((request) => request.rule === rule).map((request) => request.route)).slice(0, 4);
    out.push(`           ${routes.map((entry) => `${entry.count} ${entry.key}`).join('; ')}`);
  }
}
if (!result.ok) out.push('', `the run did not pass (${counts.failed} failed, ${result.leftChanged.length} left changed): the counts may be short`);
process.stdout.write(`${out.join('\n')}\n`);
