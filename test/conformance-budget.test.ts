/**
 * The request-budget tool (bench/conformance-budget.ts): its projection follows a per-user
 * sliding window as a sequential run meets it, and its counts per rule file and acting user agree
 * with the requests each rule reports.
 */
import t from 'tap';
import { project, routeOf, tally } from '../bench/budget-model.js';
import { measureBudget, ruleFiles } from '../bench/budget-measure.js';

const LIMIT = { requests: 2, windowMs: 60_000 };

t.test('a sequential run waits when an identity has used its window, for that identity only', async (t) => {
  const instant = project(['a', 'a', 'a', 'b', 'a', undefined], LIMIT, 0);
  t.same(instant, { busiestPaceMs: 120_000, simulatedMs: 60_050, waits: 1, waitedMs: 60_050 }, 'the third request of a waits for the first to leave the window (plus the client margin)');
  const paced = project(['a', 'a', 'a', 'b', 'a'], LIMIT, 10);
  t.equal(paced.simulatedMs, 60_080, 'each request takes 10 ms, the refused one included');
  t.equal(paced.waitedMs, 60_020);
  t.same(project(['a', 'b', 'a', 'b', undefined, undefined, undefined], LIMIT, 0), { busiestPaceMs: 60_000, simulatedMs: 0, waits: 0, waitedMs: 0 }, 'requests without an identity are never held');
});

t.test('requests of one endpoint share a route: numeric path segments become {id}, the query is dropped', async (t) => {
  t.equal(routeOf('get', '/api/v1/users/12/status?client=x'), 'GET /api/v1/users/{id}/status');
  t.equal(routeOf('POST', '/api/v1/user_groups/7'), 'POST /api/v1/user_groups/{id}');
  t.equal(routeOf('GET', '/api/v1/get_stream_id?stream=12'), 'GET /api/v1/get_stream_id');
});

t.test('tallies are largest first, ties in key order', async (t) => {
  t.same(tally(['b', 'a', 'c', 'a', 'b', 'd', 'd']), [
    { key: 'a', count: 2 },
    { key: 'b', count: 2 },
    { key: 'd', count: 2 },
    { key: 'c', count: 1 },
  ]);
});

t.test("the budget run's counts per rule file and user match the requests each rule reports", async (t) => {
  const only = ['user-groups/create-name-length-limit', 'user-groups/create-reserved-prefix-refused', 'drafts/*'];
  const { result, requests, labels } = await measureBudget({ numRuns: 1, seed: 3, only });
  t.equal(result.ok, true);
  const files = await ruleFiles();
  t.equal(files.get('user-groups/create-name-length-limit'), 'conformance/rules/groups/user-group-names.ts');
  const perFile = new Map<string, number>();
  for (const rule of result.results) {
    const file = files.get(rule.id) ?? '?';
    perFile.set(file, (perFile.get(file) ?? 0) + rule.requests);
  }
  const counted = new Map(tally(requests.map((request) => request.file)).map((entry) => [entry.key, entry.count]));
  for (const [file, n] of perFile) if (n > 0) t.equal(counted.get(file), n, `${file}: ${n} requests`);
  t.ok((counted.get('(setup)') ?? 0) > 0, 'discovery and credentials count as setup');
  const groupRequests = requests.filter((request) => request.file === 'conformance/rules/groups/user-group-names.ts');
  const busiest = tally(groupRequests.flatMap((request) => (request.identity === undefined ? [] : [request.identity])))[0];
  t.equal(busiest && labels.get(busiest.key), 'admin iago@zulip.com', 'the group rules act as the administrator');
  const perRule = new Map(tally(requests.map((request) => request.rule)).map((entry) => [entry.key, entry.count]));
  for (const rule of result.results) if (rule.requests > 0) t.equal(perRule.get(rule.id), rule.requests, `${rule.id}: its requests carry its id`);
  const readBacks = groupRequests.filter((request) => request.route === 'GET /api/v1/user_groups');
  t.ok(readBacks.length > 0 && readBacks.every((request) => labels.get(request.identity ?? '') === 'moderator shiva@zulip.com'), 'the group listings are read by the moderator (the rules\' reader)');
});
