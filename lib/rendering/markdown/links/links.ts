/**
 * Links as the real server writes them: URLs sanitised as its `sanitize_url` does
 * (url-sanitize.ts: a fixed set of allowed schemes, anything else stays text; `http://` assumed
 * when no scheme is given), links to the realm's own views and uploads made relative, and an
 * empty link text replaced by the URL. No `target` or `rel` attributes: the real server leaves
 * those to the client.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore } from 'markdown-it';
import { contextOf } from '../context.js';
import { relativeToRealm, sanitizeUrl } from './url-sanitize.js';

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
