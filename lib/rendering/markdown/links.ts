/**
 * Links as the real server writes them: a fixed set of allowed schemes (anything else stays
 * text), `http://` assumed when no scheme is given, links to the realm's own `#narrow` views
 * made relative, and an empty link text replaced by the URL. No `target` or `rel` attributes:
 * the real server leaves those to the client.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore } from 'markdown-it';
import { contextOf } from './context.js';

/** The schemes the real server's `sanitize_url` lets through. */
const ALLOWED_SCHEMES = new Set(
  'http https ftp file bitcoin geo im irc ircs magnet mailto matrix mms news nntp openpgp4fpr sip sms smsto ssh tel urn webcal wtai xmpp'.split(' '),
);
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * The href the real server writes for a URL, or undefined when it renders the URL as text.
 * Relative (`/path`) and fragment (`#x`) links pass; a URL without a scheme gets `http://`.
 */
export function sanitizeUrl(url: string): string | undefined {
  const trimmed = url.replace(/ /g, '%20');
  if (trimmed.startsWith('/') || trimmed.startsWith('#')) return trimmed;
  const scheme = SCHEME.exec(trimmed);
  if (!scheme) {
    if (/^[^/?#]*@/.test(trimmed) && !trimmed.includes('/')) return `mailto:${trimmed}`;
    return `http://${trimmed}`;
  }
  return ALLOWED_SCHEMES.has((scheme[1] as string).toLowerCase()) ? trimmed : undefined;
}

/** `https://chat.example.com/#narrow/...` becomes `#narrow/...` for the realm's own URL. */
export function relativeToRealm(href: string, realmUrl: string | undefined): string {
  if (realmUrl === undefined) return href;
  const prefix = `${realmUrl.replace(/\/$/, '')}/#narrow/`;
  return href.startsWith(prefix) ? href.slice(prefix.length - '#narrow/'.length) : href;
}

/** Empty link text shows the URL; links to the realm's own views become relative. */
function finishLinks(state: StateCore): void {
  const realmUrl = contextOf(state.env).realmUrl;
  for (const block of state.tokens) {
    const children = block.children;
    if (block.type !== 'inline' || !children) continue;
    for (let i = 0; i < children.length; i++) {
      const open = children[i];
      if (open?.type !== 'link_open') continue;
      const href = relativeToRealm(open.attrGet('href') ?? '', realmUrl);
      open.attrSet('href', href);
      let close = i + 1;
      while (close < children.length && children[close]?.type !== 'link_close') close++;
      const inner = children.slice(i + 1, close);
      if (inner.every((t) => t.type === 'text' && t.content.trim() === '')) {
        const text = new state.Token('text', '', 0);
        text.content = open.attrGet('href') ?? '';
        children.splice(i + 1, close - i - 1, text);
      }
    }
  }
}

/** Configures link validation and normalisation on a markdown-it instance. */
export function linksPlugin(md: MarkdownIt): void {
  md.validateLink = (url) => sanitizeUrl(url) !== undefined;
  const normalize = md.normalizeLink.bind(md);
  md.normalizeLink = (url) => normalize(sanitizeUrl(url) ?? url);
  md.core.ruler.push('zulip_links', finishLinks);
}
