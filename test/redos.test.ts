/**
 * Every regular expression in lib/ and server/ runs in linear time, or says why it is safe: the
 * TypeScript sources are parsed for `/.../` literals and `RegExp(...)` calls, each pattern goes
 * through a ReDoS analyser (test/support/redos-check.ts), and a super-linear one fails the test
 * unless ALLOWED justifies it. User-supplied patterns (linkifiers) never get here: they run on
 * re2js, which is linear by construction.
 */
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { render } from '../lib/rendering/render.js';
import { adversarialValues } from './support/adversarial-values.js';
import { testServer } from './support/harness.js';
import { checkRegexes, type Justified } from './support/redos-check.js';
import { regexesOfSource, regexesUnder } from './support/regex-sources.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Why each of these is safe although the analyser finds it super-linear (or cannot analyse it). */
const RENDERED_HTML =
  'runs on HTML this server rendered from content of at most 10,000 characters, where every `<` opens a tag ' +
  'that a `>` closes before the next `<`, and attribute values hold no `"` (the test below checks the renderer keeps ' +
  'to that): the scans the analyser pumps never run past their own tag, so the match is linear';
const URL_LENGTH =
  "Django's URLValidator pattern, quadratic at worst; its input is refused beyond 2,048 characters first " +
  '(`MAX_URL_LENGTH`, as Django checks `max_length` first), which bounds a match to a few milliseconds';

const ALLOWED: readonly Justified[] = [
  { file: 'lib/narrow/predicates.ts', pattern: String.raw`<a\s[^>]*href=`, reason: RENDERED_HTML },
  { file: 'lib/narrow/predicates.ts', pattern: String.raw`<img\s|href="[^"]*\.(?:png|jpe?g|gif|webp|bmp)(?:\?[^"]*)?"`, reason: RENDERED_HTML },
  { file: 'lib/state/history/search-words.ts', pattern: String.raw`<[^>]*>`, reason: RENDERED_HTML },
  { file: 'lib/narrow/search.ts', pattern: String.raw`(<[^>]*>|&#?\w+;)|[\p{L}\p{N}]+`, reason: RENDERED_HTML },
  {
    file: 'lib/input/profile-field-data.ts',
    pattern: String.raw`^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s:@/]*)?@)?(?:localhost|(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+[a-z\u00a1-\uffff-]{2,63}\.?|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])(?::\d{1,5})?(?:[/?#][^\s]*)?$`,
    reason: URL_LENGTH,
  },
  {
    file: 'lib/patterns/linkifier-validation.ts',
    pattern: String.raw`^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s:@/]*)?@)?(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]|(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+[a-z\u00a1-\uffff-]{2,63}\.?)(?::\d{1,5})?(?:[/?#]\S*)?$`,
    reason: URL_LENGTH,
  },
  {
    file: 'lib/patterns/re2-tables.ts',
    pattern: 'new RegExp(`\\\\p{Script=${name}}`, \'u\')',
    reason: 'compiled, never run, to ask the engine whether a script name exists; the name matched ^[A-Z][A-Za-z_]*$ first, so the pattern is one property escape',
  },
];

t.test('every regular expression in lib/ and server/ is linear or justified', async (t) => {
  const found = regexesUnder(ROOT, ['lib', 'server']);
  t.ok(found.length > 100, `expressions found: ${found.length}`);
  const { problems, unused } = checkRegexes(found, ALLOWED);
  t.same(problems, [], 'super-linear or undecided expressions without a justification');
  t.same(unused, [], 'allow-list entries that match no expression any more');
});

t.test('the check fails on a known-vulnerable pattern, literal or built from constants, and on an opaque one', async (t) => {
  const source = [
    'const nested = /^(a+)+$/;',
    "const SPACE = ' \\\\t';",
    'const trailing = new RegExp(`[${SPACE}]+$`);',
    'const fine = /^[a-z]+$/;',
    'const opaque = (name: string) => new RegExp(name);',
    'const RAW = String.raw`\\d`;',
    'const raw = new RegExp(String.raw`^${RAW}\\s$`);',
  ].join('\n');
  const found = regexesOfSource('lib/example.ts', source);
  t.same(
    found.map((regex) => regex.source),
    ['^(a+)+$', '[ \\t]+$', '^[a-z]+$', undefined, '^\\d\\s$'],
    'the parser follows the constant into the template',
  );
  const { problems } = checkRegexes(found, []);
  t.equal(problems.length, 3);
  t.match(problems[0], /^lib\/example\.ts:1 \/\^\(a\+\)\+\$\/: exponential/);
  t.match(problems[1], /^lib\/example\.ts:3 .*: 2nd degree polynomial/);
  t.match(problems[2], /^lib\/example\.ts:5 .*: built at run time/);
  const justified = checkRegexes(found, [{ file: 'lib/example.ts', pattern: '^(a+)+$', reason: 'an example' }]);
  t.equal(justified.problems.length, 2, 'a justified pattern is let through');
});

/** Where a `<` is not closed before the next one, or a tag holds an odd number of `"`. */
function malformedAt(html: string): number | undefined {
  let open = -1;
  let quotes = 0;
  for (let i = 0; i < html.length; i++) {
    const char = html[i];
    if (char === '<') {
      if (open !== -1) return open;
      [open, quotes] = [i, 0];
    } else if (char === '"' && open !== -1) quotes++;
    else if (char === '>' && open !== -1) {
      if (quotes % 2 !== 0) return open;
      open = -1;
    }
  }
  return open === -1 ? undefined : open;
}

t.test('rendered HTML closes every tag before the next and balances its quotes, as the allowed HTML patterns rely on', async (t) => {
  const { world } = testServer();
  const pieces = ['<', '>', '"', "'", '<a ', 'href="', '`', '```\n', '\n', ' ', '**', '_', '[a](', ')', 'http://a.b/c.png', '@**Iago**', '#**Verona**', ':smile:', '$$', '<time:2024-01-01T00:00:00Z>', '> ', '* ', '&', 'x'];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (parts) => {
      const html = render(world, parts.join(''));
      return malformedAt(html) === undefined;
    }),
    { numRuns: 300 },
  );
  for (const { name, value } of adversarialValues(9000)) {
    const html = render(world, value.slice(0, 9000));
    t.equal(malformedAt(html), undefined, name);
  }
});
