/**
 * Our rendering equals the real server's on its own Markdown test cases
 * (zerver/tests/fixtures/markdown_test_cases.json, run as zerver/tests/test_markdown.py's
 * `test_markdown_fixtures` runs them), after the normalisation of test/support/html-normalise.ts.
 * Every case matches except those listed, with a reason, in test/support/markdown-case-skips.ts.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { caseWorld, loadMarkdownCases, runCase } from './support/markdown-cases.js';
import { SKIPPED_CASES } from './support/markdown-case-skips.js';
import { normaliseHtml } from './support/html-normalise.js';

const cases = loadMarkdownCases();
const { world, emoticonSender } = caseWorld();
const outcomes = new Map(cases.map((c) => [c.name, runCase(world, emoticonSender, c)]));
const matched = cases.filter((c) => outcomes.get(c.name)?.matches).length;
const MINIMUM_RATE = 0.9;

t.comment(`${matched} of ${cases.length} real-server Markdown cases match (${((100 * matched) / cases.length).toFixed(1)}%)`);
for (const [name, reason] of SKIPPED_CASES) t.comment(`not matched: ${name}: ${reason}`);

t.test('every case not on the skip list renders as the real server renders it', async (t) => {
  for (const c of cases) {
    if (SKIPPED_CASES.has(c.name)) continue;
    const outcome = outcomes.get(c.name)!;
    t.equal(normaliseHtml(outcome.actual), normaliseHtml(c.expected), `${c.name}: ${JSON.stringify(c.input)}`);
  }
});

t.test('every case on the skip list still differs, so the list names only real differences', async (t) => {
  for (const [name] of SKIPPED_CASES) {
    t.ok(outcomes.has(name), `${name} is a case of the real server's file`);
    t.notOk(outcomes.get(name)?.matches, `${name} now matches: remove it from the skip list`);
  }
});

t.test(`at least ${MINIMUM_RATE * 100}% of the cases match`, async (t) => {
  t.ok(matched / cases.length >= MINIMUM_RATE, `${matched} of ${cases.length}`);
});

t.test('the deviations page lists every skipped case', async (t) => {
  const page = readFileSync(new URL('../../docs/deviations.md', import.meta.url), 'utf8');
  for (const [name] of SKIPPED_CASES) t.ok(page.includes(`\`${name}\``), `docs/deviations.md names ${name}`);
});
