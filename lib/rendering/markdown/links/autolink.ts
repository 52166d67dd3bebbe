/**
 * Bare links (`https://zulip.com`, `zulip.org/help`, `a@b.com`) linked where the real server
 * links them (web-link-match.ts), in place of markdown-it's own linkify and `<...>` autolinks,
 * which the real server does not have. The link text is the URL as typed and is not parsed
 * further; the href is the sanitised URL, not percent-encoded, as the real server writes it.
 * Links are not looked for inside a link's text.
 */
import type MarkdownIt from 'markdown-it';
import type { StateInline } from 'markdown-it';
import { sanitizeUrl } from './url-sanitize.js';
import { mayStartWebLink, WebLinkScanner } from './web-link-match.js';

/** markdown-it's text rule stops at these characters so that other rules can look at them. */
const TERMINATORS = new Set([...'\n!#$%&*+-:<=>@[\\]^_`{}~'].map((c) => c.charCodeAt(0)));
/** After these a link may start, so the text rule stops behind them too. */
const LINK_MAY_FOLLOW = /[\s'"(,]/u;

/** markdown-it counts the links being parsed in `linkLevel` (missing from its type declarations). */
const insideLinkText = (state: StateInline): boolean => ((state as StateInline & { linkLevel?: number }).linkLevel ?? 0) > 0;

const scanners = new WeakMap<StateInline, WebLinkScanner>();

function scannerOf(state: StateInline): WebLinkScanner {
  let scanner = scanners.get(state);
  if (!scanner) {
    scanner = new WebLinkScanner(state.src);
    scanners.set(state, scanner);
  }
  return scanner;
}

/** Plain text up to the next character another rule may start at, or the next place a link may start. */
function text(state: StateInline, silent: boolean): boolean {
  let pos = state.pos;
  while (pos < state.posMax && !TERMINATORS.has(state.src.charCodeAt(pos))) {
    const c = state.src[pos++] as string;
    if (LINK_MAY_FOLLOW.test(c)) break;
  }
  if (pos === state.pos) return false;
  if (!silent) state.pending += state.src.slice(state.pos, pos);
  state.pos = pos;
  return true;
}

function autolink(state: StateInline, silent: boolean): boolean {
  if (insideLinkText(state) || !mayStartWebLink(state.src, state.pos)) return false;
  const end = scannerOf(state).matchAt(state.pos);
  if (end < 0 || end > state.posMax) return false;
  const url = state.src.slice(state.pos, end);
  const href = sanitizeUrl(url);
  if (href === undefined) return false;
  if (!silent) {
    const open = state.push('link_open', 'a', 1);
    open.attrs = [['href', href]];
    open.markup = 'linkify';
    open.info = 'auto';
    state.push('text', '', 0).content = url;
    state.push('link_close', 'a', -1).markup = 'linkify';
  }
  state.pos = end;
  return true;
}

/** Registers bare-link detection on a markdown-it instance (created with `linkify: false`). */
export function autolinkPlugin(md: MarkdownIt): void {
  md.disable('autolink');
  md.inline.ruler.at('text', text);
  md.inline.ruler.before('text', 'zulip_autolink', autolink);
}
