/**
 * The JSON report carries a format version and keeps to the shape docs/conformance.md documents
 * (every documented field of the right type where its parent is, every field of the report
 * documented); `--last-failed FILE` re-runs exactly the rules that failed in such a report, and
 * says so when the file has another version or no failures.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { mapJsonBody, type Mutation } from './support/conformance.js';
import { runCliInProcess } from './support/conformance-cli.js';

const FAILING = 'conventions/ignored-parameters-listed-sorted';
const PASSING = 'conventions/unknown-route-not-found';
const dropIgnored: Mutation = async (request, next) => mapJsonBody(await next(request), (body) => delete body.ignored_parameters_unsupported);

interface Field {
  readonly type: string;
  readonly optional: boolean;
}

/** The rows of the table whose header starts with `| first |`: field path -> type. */
function documentedFields(markdown: string, first: string): Map<string, Field> {
  const section = markdown.slice(markdown.indexOf('### JSON report format'));
  const table = section.slice(section.indexOf(`| ${first} |`)).split('\n\n')[0]!;
  const fields = new Map<string, Field>();
  for (const [, name, type] of table.matchAll(/^\| `([^`]+)` \| ([^|]+?) \|/gm)) {
    const optional = name!.endsWith('?');
    fields.set(name!.replace(/\?/g, ''), { type: type!, optional });
  }
  return fields;
}

const TYPES: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number',
  boolean: (value) => typeof value === 'boolean',
  object: (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
  any: () => true,
};

/** Every problem of `value` against the documented fields under `prefix` (`results[].failure`). */
function validateFields(value: Record<string, unknown>, prefix: string, fields: Map<string, Field>, exchange: Map<string, Field>, at: string): string[] {
  const problems: string[] = [];
  const keyUnder = (name: string) => (prefix === '' ? name : name.startsWith(`${prefix}.`) ? name.slice(prefix.length + 1) : undefined);
  const children = [...fields].flatMap(([name, field]) => {
    const key = keyUnder(name);
    return key === undefined || /[.[]/.test(key) ? [] : [{ name, key, field }];
  });
  for (const { name, key, field } of children) {
    if (!Object.hasOwn(value, key)) {
      if (!field.optional) problems.push(`${at}.${key}: missing`);
      continue;
    }
    problems.push(...validateValue(value[key], name, field.type, fields, exchange, `${at}.${key}`));
  }
  const known = new Set(children.map((child) => child.key));
  for (const key of Object.keys(value)) if (!known.has(key)) problems.push(`${at}.${key}: not documented`);
  return problems;
}

function validateValue(value: unknown, name: string, type: string, fields: Map<string, Field>, exchange: Map<string, Field>, at: string): string[] {
  if (type.endsWith('[]')) {
    if (!Array.isArray(value)) return [`${at}: expected ${type}`];
    return value.flatMap((item, i) => validateValue(item, `${name}[]`, type.slice(0, -2), fields, exchange, `${at}[${i}]`));
  }
  if (type === 'exchange') return TYPES.object!(value) ? validateFields(value as Record<string, unknown>, '', exchange, exchange, at) : [`${at}: expected an exchange`];
  const test = TYPES[type];
  if (!test) return [`${at}: undocumented type ${type}`];
  if (!test(value)) return [`${at}: expected ${type}, got ${JSON.stringify(value)}`];
  const nested = [...fields.keys()].some((field) => field.startsWith(`${name}.`));
  return type === 'object' && nested ? validateFields(value as Record<string, unknown>, name, fields, exchange, at) : [];
}

t.test('a JSON report has format version 1 and validates against the shape the documentation gives', async (t) => {
  const docs = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
  const fields = documentedFields(docs, 'Field');
  const exchange = documentedFields(docs, 'Exchange field');
  t.ok(fields.size > 50 && exchange.size > 5, 'the documentation has both tables');
  const run = await runCliInProcess(['--only', `${FAILING},${PASSING}`, '--num-runs', '3', '--seed', '7', '--reporter', 'json'], { mutate: dropIgnored });
  const report = JSON.parse(run.stdout) as Record<string, unknown>;
  t.equal(report.formatVersion, 1);
  const failure = (report.results as Array<{ failure?: Record<string, unknown> }>).find((rule) => rule.failure)!.failure!;
  t.ok(failure.property && failure.check, 'the report has a failing property with its check, so those parts are validated too');
  t.same(validateFields(report, '', fields, exchange, 'report'), []);
  const wrong = { ...report, counts: { ...(report.counts as object), passed: 'one' }, extra: true };
  t.same(validateFields(wrong, '', fields, exchange, 'report'), ['report.counts.passed: expected number, got "one"', 'report.extra: not documented'], 'the validation can fail');
});

t.test('--last-failed re-runs exactly the rules that failed in a JSON report, and says when there is nothing to re-run', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-last-failed-'));
  const first = join(dir, 'first.json');
  const run = await runCliInProcess(['--only', `${FAILING},${PASSING}`, '--num-runs', '3', '--seed', '7', '--reporter', `json=${first}`], { mutate: dropIgnored });
  t.equal(run.code, 1);
  const again = await runCliInProcess(['--last-failed', first, '--num-runs', '3', '--reporter', 'json'], { mutate: dropIgnored });
  t.equal(again.code, 1, 'still failing on the same broken server');
  t.match(again.stderr, `re-running the 1 rule(s) that failed in ${first}: ${FAILING}`);
  t.same((JSON.parse(again.stdout) as { results: Array<{ id: string }> }).results.map((rule) => rule.id), [FAILING], 'only the failed rule ran');

  const second = join(dir, 'second.json');
  const fixed = await runCliInProcess(['--last-failed', first, '--num-runs', '3', '--reporter', `json=${second}`]);
  t.equal(fixed.code, 0, 'fixed: it passes');
  const nothing = await runCliInProcess(['--last-failed', second]);
  t.equal(nothing.code, 0);
  t.match(nothing.stderr, `${second} has no failures: nothing to re-run`);
  t.equal(nothing.serversStarted, 0, 'nothing ran');

  const old = join(dir, 'old.json');
  writeFileSync(old, JSON.stringify({ ...(JSON.parse(readFileSync(first, 'utf8')) as object), formatVersion: 0 }));
  const refused = await runCliInProcess(['--last-failed', old]);
  t.equal(refused.code, 2);
  t.match(refused.stderr, `${old} has format version 0; this chat-conformance reads format version 1`);
  const withOnly = await runCliInProcess(['--last-failed', first, '--only', PASSING]);
  t.equal(withOnly.code, 2);
  t.match(withOnly.stderr, /--last-failed chooses the rules itself: leave out --only/);
});
