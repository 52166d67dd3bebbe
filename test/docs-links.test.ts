/**
 * The documentation's relative links lead somewhere: every link in README.md, docs/*.md and the rule
 * author's guide names a file of the repository, and a `#fragment` names a heading of that page
 * (as GitHub spells heading anchors). The README's reference moved to docs/, so a broken link is
 * the likeliest way a newcomer loses the text.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = ['README.md', 'conformance/README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  const headings = text.split('\n').filter((line) => /^#{1,6} /.test(line));
  return new Set(headings.map((line) => headingAnchor(line.replace(/^#+ /, ''))));
}

/** Markdown links outside code: `[text](target)`, external targets left out. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

t.test('a heading anchor is the heading in lower case, punctuation dropped, spaces as hyphens', async (t) => {
  t.equal(headingAnchor('Limits, backpressure and shutdown'), 'limits-backpressure-and-shutdown');
  t.equal(headingAnchor('Changing messages: reactions, flags'), 'changing-messages-reactions-flags');
  t.equal(headingAnchor('State, logs, CORS and reset'), 'state-logs-cors-and-reset');
});

t.test('every relative link in the documentation names an existing file and heading', async (t) => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    for (const link of relativeLinks(text)) {
      checked += 1;
      const [path = '', fragment] = link.split('#');
      const target = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), path);
      if (!existsSync(target)) {
        broken.push(`${page}: ${link} (no file ${relative(ROOT, target)})`);
        continue;
      }
      if (fragment !== undefined && !anchorsOf(readFileSync(target, 'utf8')).has(fragment)) broken.push(`${page}: ${link} (no heading #${fragment})`);
    }
  }
  t.ok(checked > 20, `links were found (${checked})`);
  t.same(broken, []);
});

t.test('the README links every reference page in docs/', async (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const linked = new Set(relativeLinks(readme).map((link) => link.split('#')[0]));
  t.same(
    PAGES.filter((page) => page.startsWith('docs/') && !linked.has(page)),
    [],
  );
});

/** Places where a table ends and, after only blank lines, another starts: read as one table split by a blank line. */
function touchingTables(text: string): number[] {
  const lines = text.replace(/^```[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, '')).split('\n');
  const found: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || lines[i - 1]!.trim() !== '') continue;
    let before = i - 1;
    while (before > 0 && lines[before]!.trim() === '') before--;
    if (lines[before]!.startsWith('|')) found.push(i + 1);
  }
  return found;
}

t.test('no table in the documentation follows another with only a blank line between them', async (t) => {
  t.same(touchingTables('| a |\n|---|\n| 1 |\n\n| b |\n|---|\n| 2 |\n'), [5], 'the check finds two touching tables');
  t.same(touchingTables('| a |\n|---|\n| 1 |\n\nText.\n\n| b |\n|---|\n'), [], 'a sentence between them separates them');
  const touching = PAGES.flatMap((page) => touchingTables(readFileSync(join(ROOT, page), 'utf8')).map((line) => `${page}:${line}`));
  t.same(touching, []);
});
