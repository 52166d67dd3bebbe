/**
 * Splitting a run over machines: `--shard i/n` gives disjoint, balanced parts whose union is the
 * whole selection (rules sharing run-wide fixtures pass in every part), and `merge-reports` turns
 * the parts' JSON reports into the whole run's reports, refusing parts of different runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { SuiteResult } from '../conformance/index.js';
import { runCliInProcess } from './support/conformance-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'conformance-shards-'));
/** Rules that share run-wide fixtures (the run channel, the edit channels) and some that do not. */
const SELECTION = ['--only', 'reactions/*,message-edit/*,message-move/*,users/*', '--num-runs', '2', '--seed', '11'];
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as SuiteResult;

async function shardRun(index: number, total: number, extra: readonly string[] = []): Promise<string> {
  const file = join(dir, `shard-${index}-of-${total}${extra.length > 0 ? '-other' : ''}.json`);
  const run = await runCliInProcess([...SELECTION, '--shard', `${index}/${total}`, '--reporter', `json=${file}`, ...extra]);
  if (run.code !== 0) throw new Error(`shard ${index}/${total} exited ${run.code}: ${run.stderr}`);
  return file;
}

const whole = join(dir, 'whole.json');
const wholeRun = await runCliInProcess([...SELECTION, '--reporter', `json=${whole}`]);
const shards = [await shardRun(1, 3), await shardRun(2, 3), await shardRun(3, 3)];

t.test('the shards are disjoint, balanced by rule count, and together the whole selection; each passes with its fixtures', async (t) => {
  t.equal(wholeRun.code, 0, wholeRun.stderr);
  const ids = shards.map((file) => read(file).results.map((rule) => rule.id));
  const all = read(whole).results.map((rule) => rule.id);
  t.ok(all.length > 30, `the selection has rules of its own and shared fixtures (${all.length})`);
  t.same([...ids.flat()].sort(), [...all].sort(), 'the union is the whole selection, with no rule twice');
  const sizes = ids.map((part) => part.length);
  t.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `balanced: ${sizes.join(', ')}`);
  const again = await shardRun(2, 3);
  t.same(read(again).results.map((rule) => rule.id), ids[1], 'the same shard selects the same rules again');
});

t.test('merge-reports writes the whole run: rules in order, counts, wall time; spec, junit and json', async (t) => {
  const junit = join(dir, 'merged.xml');
  const json = join(dir, 'merged.json');
  const merged = await runCliInProcess(['merge-reports', ...shards, '--reporter', 'spec', '--reporter', `junit=${junit}`, '--reporter', `json=${json}`]);
  t.equal(merged.code, 0, merged.stderr);
  const result = read(json);
  const reference = read(whole);
  t.same(result.results.map((rule) => rule.id), reference.results.map((rule) => rule.id), 'rules in the order of one run');
  t.same(result.counts, reference.counts);
  t.equal(result.seed, 11);
  t.equal(result.runTag.split(', ').length, 3, 'each shard\'s run tag is kept');
  const parts = shards.map(read);
  const end = Math.max(...parts.map((part) => Date.parse(part.startedAt) + part.durationMs));
  t.equal(Date.parse(result.startedAt) + result.durationMs, end, 'the wall time ends with the last shard');
  t.match(merged.stdout, new RegExp(`${reference.counts.passed} passed, 0 failed, ${reference.counts.skipped} skipped`));
  t.match(readFileSync(junit, 'utf8'), new RegExp(`<testsuites name="chat-conformance" tests="${reference.counts.total}" failures="0"`));
});

t.test('merge-reports refuses parts of different runs, with the reason', async (t) => {
  const otherSeed = join(dir, 'other-seed.json');
  writeFileSync(otherSeed, JSON.stringify({ ...read(shards[1]!), seed: 12 }));
  const otherTarget = await shardRun(2, 3, ['--server-feature-level', '300']);
  const otherVersion = join(dir, 'other-version.json');
  writeFileSync(otherVersion, JSON.stringify({ ...read(shards[1]!), formatVersion: 999 }));
  const notReport = join(dir, 'not-report.json');
  writeFileSync(notReport, '{"hello": 1}');
  const cases: Array<[string[], RegExp]> = [
    [[shards[0]!, otherSeed], /ran with seed 11, .*other-seed\.json with seed 12: shards of one run share a seed/],
    [[shards[0]!, otherTarget], /is from embedded http:\/\/localhost:9991 at feature level 415, .* from embedded http:\/\/localhost:9991 at feature level 300/],
    [[shards[0]!, otherVersion], /has no format version|has format version/],
    [[shards[0]!, shards[0]!], /rule \S+ is in both/],
    [[shards[0]!, notReport], /not-report\.json is not a chat-conformance JSON report/],
  ];
  for (const [files, message] of cases) {
    const run = await runCliInProcess(['merge-reports', ...files]);
    t.equal(run.code, 2, files.join(' '));
    t.match(run.stderr, message);
    t.equal(run.stdout, '', 'no report is written');
  }
  const unseeded = await runCliInProcess(['--shard', '1/2']);
  t.equal(unseeded.code, 2);
  t.match(unseeded.stderr, /--shard needs --seed N/);
});
