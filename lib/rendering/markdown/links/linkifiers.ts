/**
 * The realm's linkifiers applied to message text, in the realm's order, as the real server
 * applies them: a pattern matches only after the start, whitespace or an opening delimiter and
 * not before a letter or digit; the match becomes a link to the expanded URL template. Patterns
 * are user input, so they only ever run on RE2 (lib/patterns/linkifier-patterns.ts), never on RegExp.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore } from 'markdown-it';
import { firstMatchFrom } from '../../../patterns/linkifier-patterns.js';
import { contextOf, type LinkifierRule } from '../context.js';
import { relativeToRealm, sanitizeUrl } from './url-sanitize.js';
import { type Piece, rewriteText } from '../text-tokens.js';
import { expandUrlTemplate } from './url-template.js';

const BEFORE = 'linkifier_before_match';
const ACTUAL = 'linkifier_actual_match';
const AFTER = 'linkifier_after_match';

/** The real server's wrapping of a linkifier pattern (`\pZ` and U+0085 stand for Unicode whitespace). */
export const preparedPattern = (source: string): string =>
  `(?P<${BEFORE}>^|\\s|\\x{85}|\\pZ|['"\\(,:<])(?P<${ACTUAL}>${source})(?P<${AFTER}>$|[^\\pL\\pN])`;

/** Splits `text` at the matches of one linkifier; undefined when nothing matched. */
function applyLinkifier(state: StateCore, rule: LinkifierRule, realmUrl: string | undefined, text: string): Piece[] | undefined {
  const pattern = preparedPattern(rule.pattern);
  let pieces: Piece[] | undefined;
  let last = 0;
  let from = 0;
  while (from <= text.length) {
    const match = firstMatchFrom(pattern, text, from);
    if (!match) break;
    const start = match.groupStarts.get(ACTUAL) ?? match.index;
    const actual = match.groups.get(ACTUAL) ?? '';
    const end = start + actual.length;
    const variables = new Map([...match.groups].filter(([name]) => match.groupStarts.has(name)));
    const href = sanitizeUrl(expandUrlTemplate(rule.urlTemplate, variables));
    // Scanning resumes after the linked text, so its trailing delimiter can open the next match.
    from = end > match.index ? end : match.index + 1;
    if (href === undefined || actual === '') continue;
    const open = new state.Token('link_open', 'a', 1);
    open.attrSet('href', relativeToRealm(href, realmUrl));
    const label = new state.Token('text', '', 0);
    label.content = actual;
    const close = new state.Token('link_close', 'a', -1);
    pieces ??= [];
    pieces.push(text.slice(last, start), [open, label, close]);
    last = end;
  }
  if (pieces) pieces.push(text.slice(last));
  return pieces;
}

function applyLinkifiers(state: StateCore): void {
  const ctx = contextOf(state.env);
  for (const rule of ctx.linkifiers ?? []) {
    rewriteText(state, (text) => applyLinkifier(state, rule, ctx.realmUrl, text));
  }
}

/** Registers the linkifier rule on a markdown-it instance (after markdown-it's own autolinking). */
export function linkifiersPlugin(md: MarkdownIt): void {
  md.core.ruler.push('zulip_linkifiers', applyLinkifiers);
}
