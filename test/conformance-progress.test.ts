/**
 * Progress for people: position, elapsed time, estimated time left and failures so far; rate-limit
 * waits shown as they happen; on a terminal one rewritten line, in a log one line per endpoint and
 * a line after a quiet spell; on stderr only, never in a machine-readable report.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { clock, progressListener } from '../conformance/report/progress.js';
import type { RuleResult } from '../conformance/results.js';
import type { RunStartInfo } from '../conformance/runner.js';
import type { Rule } from '../conformance/rules/types.js';
import { runCliInProcess } from './support/conformance-cli.js';

const rule = (id: string, endpoint: string) => ({ id, endpoint }) as Rule;
const RULES = [rule('a/one', 'GET /a'), rule('a/two', 'GET /a'), rule('b/one', 'POST /b'), rule('b/two', 'POST /b')];
const start = { target: { baseUrl: 'http://chat.test' }, seed: 1, total: RULES.length, rules: RULES } as unknown as RunStartInfo;
const ended = (id: string, endpoint: string, outcome: RuleResult['outcome']) => ({ id, endpoint, outcome }) as RuleResult;

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 200, write: (text: string) => void writes.push(text) } };
}

t.test('durations read as m:ss, and h:mm:ss from an hour', async (t) => {
  t.same([clock(0), clock(41_000), clock(62_400), clock(3_725_000)], ['0:00', '0:41', '1:02', '1:02:05']);
});

t.test('in a log: a line per finished endpoint with elapsed, estimate and failures; rate-limit waits; a line after a quiet spell', async (t) => {
  let now = 1_000_000;
  const { writes, stream } = fakeStream(false);
  const progress = progressListener(stream, { now: () => now, quietMs: 20 });
  t.teardown(() => progress.stop());
  progress.onStart!(start);
  progress.onRuleStart!(RULES[0]!, 1, 4);
  now += 10_000;
  progress.onRuleEnd!(ended('a/one', 'GET /a', 'passed'), 1, 4);
  t.equal(writes.length, 1, 'no line until an endpoint is complete');
  progress.onRuleStart!(RULES[1]!, 2, 4);
  progress.onRateLimitWait!({ waitMs: 2_345, url: 'http://chat.test/api/v1/users?x=1', during: 'rule', ruleId: 'a/two' });
  t.equal(writes.at(-1), '[1/4] a/two: rate limited on /api/v1/users, waiting 2.3 s\n');
  now += 10_000;
  progress.onRuleEnd!(ended('a/two', 'GET /a', 'failed'), 2, 4);
  t.equal(writes.at(-1), '[2/4] GET /a: 1 passed, 1 failed, 0 skipped (1/2 endpoints; 0:20 elapsed, ~0:20 left, 1 failed so far)\n');
  progress.onRuleStart!(RULES[2]!, 3, 4);
  now += 60_000;
  await sleep(60);
  t.match(writes.at(-1), /^\[2\/4\] still running b\/one: 1:20 elapsed, ~1:20 left, 1 failed so far\n$/);
});

t.test('on a terminal: one line rewritten in place, with the rule running or the wait', async (t) => {
  let now = 0;
  const { writes, stream } = fakeStream(true);
  const progress = progressListener(stream, { now: () => now });
  t.teardown(() => progress.stop());
  progress.onStart!(start);
  progress.onRuleStart!(RULES[0]!, 1, 4);
  t.equal(writes.at(-1), '\r\u001b[2K[0/4] 0:00 elapsed, time left unknown, 0 failed so far · a/one');
  now += 5_000;
  progress.onRuleEnd!(ended('a/one', 'GET /a', 'failed'), 1, 4);
  progress.onRuleStart!(RULES[1]!, 2, 4);
  progress.onRateLimitWait!({ waitMs: 12_000, url: 'http://chat.test/api/v1/messages', during: 'rule', ruleId: 'a/two' });
  t.equal(writes.at(-1), '\r\u001b[2K[1/4] 0:05 elapsed, ~0:15 left, 1 failed so far · rate limited: waiting 12.0 s (/api/v1/messages)');
  t.notOk(writes.some((text) => text.includes('\n')), 'no new lines');
});

t.test('a run against a rate-limited server shows its waits on stderr and keeps them out of the reports', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-progress-'));
  const json = join(dir, 'report.json');
  const app = { apiRateLimit: { attempts: 8, windowMs: 300 } };
  const run = await runCliInProcess(['--only', 'users/*', '--num-runs', '3', '--seed', '2', '--reporter', `json=${json}`], { app });
  t.equal(run.code, 0, run.stderr);
  t.match(run.stderr, /rate limited on \/api\/v1\/\S+, waiting \d+\.\d s/);
  t.match(run.stderr, /elapsed, ~\d+:\d\d left, 0 failed so far/);
  t.notOk(/elapsed|waiting/.test(readFileSync(json, 'utf8').replace(/"[^"]*rate limited on [^"]*"/g, '')), 'the JSON report carries no progress');
  const tap = await runCliInProcess(['--only', 'server-settings/*', '--num-runs', '1', '--reporter', 'tap']);
  t.notMatch(tap.stdout, /elapsed/, 'TAP on stdout has no progress in it');
  t.notMatch(tap.stderr, /elapsed/, 'and no progress duplicates it in the same log');
});
