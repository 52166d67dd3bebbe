/**
 * Every report format renders the same run faithfully: TAP lines with a plan and directives,
 * JSON that parses back, well-formed JUnit XML with the right counts, and the human report.
 */
import fc from 'fast-check';
import t from 'tap';
import { expect, renderReport, type Rule, runSuite, type SuiteResult } from '../conformance/index.js';
import { brokenApp } from './support/conformance.js';

const base = { endpoint: 'GET /server_settings', section: '9.2', writes: false } as const;
const RULES: Rule[] = [
  { ...base, id: 'r/passes', title: 'passes', run: async (ctx) => void expect.expectSuccess(await ctx.anonymous.get('/server_settings')) },
  {
    ...base,
    id: 'r/property-fails',
    title: 'fails on nasty text',
    run: async (ctx) => {
      const nasty = fc.constantFrom('ok', 'a\u0000<&>"\'#\n]]>', '\ud83d\ude00 --- ...');
      await ctx.property('texts', [nasty], async (text) => {
        const reply = await ctx.anonymous.get('/server_settings', { text });
        expect.check(text === 'ok', `refused ${JSON.stringify(text)}`, reply);
      });
    },
  },
  { ...base, id: 'r/skipped', title: 'future', levels: { min: 5000 }, run: async () => undefined },
  { ...base, id: 'r/deviates', title: 'deviation', run: async (ctx) => ctx.deviation('push-not-configured-code', 'BAD_REQUEST seen') },
  { ...base, id: 'r/crashes', title: 'crashes', endpoint: 'POST /x', run: async () => void (null as unknown as { x: number }).x },
];

let result: SuiteResult;
t.before(async () => {
  const { app, handler } = brokenApp();
  result = await runSuite({ handler, rules: RULES, numRuns: 20, seed: 5 });
  app.close();
});

t.test('the run itself has the expected outcomes', async (t) => {
  t.same(result.counts, { total: 5, passed: 2, failed: 2, skipped: 1 });
  t.notOk(result.ok);
});

t.test('TAP output has a plan, one numbered test point per rule, skip directives and YAML blocks', async (t) => {
  const lines = renderReport('tap', result).trimEnd().split('\n');
  t.equal(lines[0], 'TAP version 14');
  t.ok(lines.includes('1..5'));
  const points = lines.filter((line) => /^(not )?ok \d+ - /.test(line));
  t.same(points.map((line) => Number(/ok (\d+) -/.exec(line)?.[1])), [1, 2, 3, 4, 5]);
  t.equal(points.filter((line) => line.startsWith('not ok')).length, 2);
  t.equal(points.filter((line) => / # SKIP /.test(line)).length, 1);
  let inYaml = false;
  const stray: string[] = [];
  for (const line of lines) {
    if (line === '  ---') inYaml = true;
    else if (line === '  ...') inYaml = false;
    else if (inYaml ? !line.startsWith('  ') : !/^(TAP version 14|1\.\.\d+|(not )?ok \d+ - .*|# .*)$/.test(line)) stray.push(line);
  }
  t.same(stray, [], 'every line is a TAP line or an indented YAML line');
  t.notOk(inYaml, 'every YAML block is closed');
});

t.test('JSON output parses back to the same counts, failures and deviations', async (t) => {
  const parsed = JSON.parse(renderReport('json', result)) as SuiteResult;
  t.same(parsed.counts, result.counts);
  t.equal(parsed.seed, 5);
  const failed = parsed.results.find((r) => r.id === 'r/property-fails');
  t.match(failed?.failure?.property?.counterexample, /\\u0000<&>/);
  t.same(parsed.results.find((r) => r.id === 'r/deviates')?.deviations.map((d) => d.id), ['push-not-configured-code']);
});

/** A small XML 1.0 well-formedness check: tags nest, attributes are quoted, text has no raw < or stray &. */
function parseXml(xml: string): { elements: Array<{ name: string; attributes: Map<string, string> }> } {
  const elements: Array<{ name: string; attributes: Map<string, string> }> = [];
  const stack: string[] = [];
  const text = /^(?:[^<&]|&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)*/;
  let rest = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(rest)) throw new Error('control character');
  while (rest.length > 0) {
    const chars = text.exec(rest)![0];
    rest = rest.slice(chars.length);
    if (rest.length === 0) break;
    if (!rest.startsWith('<')) throw new Error(`stray text at ${rest.slice(0, 20)}`);
    const close = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(rest);
    if (close) {
      if (stack.pop() !== close[1]) throw new Error(`mismatched </${close[1]}>`);
      rest = rest.slice(close[0].length);
      continue;
    }
    const open = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="(?:[^<&"]|&(?:amp|lt|gt|quot|apos);)*")*)\s*(\/?)>/.exec(rest);
    if (!open) throw new Error(`bad tag at ${rest.slice(0, 40)}`);
    const attributes = new Map([...open[2]!.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    elements.push({ name: open[1]!, attributes });
    if (open[3] !== '/') stack.push(open[1]!);
    rest = rest.slice(open[0].length);
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  return { elements };
}

t.test('JUnit output is well-formed XML whose counts match the run', async (t) => {
  const { elements } = parseXml(renderReport('junit', result));
  const root = elements[0]!;
  t.equal(root.name, 'testsuites');
  t.same([root.attributes.get('tests'), root.attributes.get('failures'), root.attributes.get('skipped')], ['5', '2', '1']);
  t.equal(elements.filter((e) => e.name === 'testcase').length, 5);
  t.equal(elements.filter((e) => e.name === 'failure').length, 2);
  t.equal(elements.filter((e) => e.name === 'skipped').length, 1);
  const suites = elements.filter((e) => e.name === 'testsuite');
  t.same(suites.map((s) => s.attributes.get('name')), ['GET /server_settings', 'POST /x']);
});

t.test('the human report groups by endpoint and shows each failure with its replay command and curl', async (t) => {
  const text = renderReport('spec', result);
  t.match(text, /\nGET \/server_settings\n {2}PASS r\/deviates[^\n]*\n {7}deviation [^\n]*\n {2}PASS r\/passes[^\n]*\n {2}FAIL r\/property-fails/);
  t.match(text, /\nPOST \/x\n {2}FAIL r\/crashes/);
  t.match(text, /SKIP r\/skipped: needs feature level >= 5000/);
  t.match(text, /deviation push-not-configured-code \(4\.12\): BAD_REQUEST seen/);
  t.match(text, /replay: chat-conformance --only r\/property-fails --seed 5 --num-runs 20 --replay -?\d+:1\/[\d:]+/);
  t.match(text, /curl -sS -i 'http:\/\/localhost:9991\/api\/v1\/server_settings\?text=a%00%3C%26%3E/);
  t.match(text, /TypeError: Cannot read properties of null/);
  t.match(text, /2 passed, 2 failed, 1 skipped, 1 known deviation\(s\) observed/);
  t.notMatch(text, /\u001b\[/, 'no colours unless asked');
});
