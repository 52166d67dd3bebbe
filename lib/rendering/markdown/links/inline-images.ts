/**
 * Inline image previews, placed as the real server's InlineInterestingLinkProcessor places them:
 * links are taken breadth-first (shallower first, then in document order), each URL previewed
 * once, none inside quotes, and none at all when a message links more than 24 distinct URLs. A
 * link's `<div class="message_inline_image">` follows its paragraph (after the previews already
 * added for that paragraph) or ends its list item; a paragraph, or a tight list item's text, that
 * is only the bare link is replaced by the preview; a link inside emphasis or a heading has its
 * preview at the end of the message. Off when the realm's `inline_image_preview` is off.
 * Videos, YouTube, Vimeo, Dropbox, tweets and URL embeds are not previewed.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import { contextOf } from '../context.js';
import { escapeHtml } from '../escape.js';
import { actualImageUrl, correctedImageLink, isImageLink, previewSources } from './image-previews.js';

const PREVIEW_LIMIT = 24;

type Placement = { readonly kind: 'item'; readonly itemOpen: number } | { readonly kind: 'paragraph'; readonly paragraphOpen: number } | { readonly kind: 'end' };

interface FoundLink {
  readonly href: string;
  /** The link's leading text (Python's `a.text`), undefined when it starts with an element. */
  readonly text: string | undefined;
  readonly depth: number;
  readonly order: number;
  readonly inQuote: boolean;
  readonly placement: Placement;
  /** Whether the link is all its paragraph (or list item text) holds, so the preview replaces it. */
  readonly alone: boolean;
  readonly inline: Token;
  readonly linkIndex: number;
}

interface PreviewMeta {
  readonly href: string;
  readonly title: string | undefined;
  readonly src: string;
  readonly fullsize: string | undefined;
}

/** For each opening block token, the index of its closing token. */
function closingIndexes(tokens: readonly Token[]): Map<number, number> {
  const closes = new Map<number, number>();
  const open: number[] = [];
  tokens.forEach((token, index) => {
    if (token.nesting === 1) open.push(index);
    else if (token.nesting === -1) closes.set(open.pop() as number, index);
  });
  return closes;
}

function linksOf(inline: Token, blocks: readonly number[], tokens: readonly Token[], order: () => number): FoundLink[] {
  const children = inline.children ?? [];
  const top = blocks.at(-1);
  const paragraph = top === undefined ? undefined : tokens[top];
  const elementDepth = blocks.filter((index) => !(tokens[index] as Token).hidden).length;
  const inQuote = blocks.some((index) => (tokens[index] as Token).type === 'blockquote_open');
  const found: FoundLink[] = [];
  let depth = 0;
  children.forEach((child, index) => {
    if (child.type === 'link_open') {
      const first = children[index + 1];
      const close = children.findIndex((c, i) => i > index && c.type === 'link_close');
      let placement: Placement = { kind: 'end' };
      if (depth === 0 && paragraph?.type === 'paragraph_open') {
        const item = blocks.at(-2);
        placement = paragraph.hidden && item !== undefined ? { kind: 'item', itemOpen: item } : { kind: 'paragraph', paragraphOpen: top as number };
      }
      found.push({
        href: child.attrGet('href') ?? '',
        text: first?.type === 'text' ? first.content : undefined,
        depth: elementDepth + 1 + depth,
        order: order(),
        inQuote,
        placement,
        alone: index === 0 && close === children.length - 1 && close === index + 2,
        inline,
        linkIndex: index,
      });
    }
    depth += child.nesting;
  });
  return found;
}

function findLinks(tokens: readonly Token[]): FoundLink[] {
  const found: FoundLink[] = [];
  const blocks: number[] = [];
  let counter = 0;
  tokens.forEach((token, index) => {
    // Spoiler wrappers are raw HTML around their content on the real server, not elements.
    if (token.type.startsWith('zulip_spoiler')) return;
    if (token.nesting === 1) blocks.push(index);
    else if (token.nesting === -1) blocks.pop();
    else if (token.type === 'inline') found.push(...linksOf(token, blocks, tokens, () => counter++));
  });
  return found.sort((a, b) => a.depth - b.depth || a.order - b.order);
}

function previewToken(state: StateCore, meta: PreviewMeta): Token {
  const token = new state.Token('zulip_image_preview', 'div', 0);
  token.block = true;
  token.meta = meta;
  return token;
}

function addImagePreviews(state: StateCore): void {
  if (contextOf(state.env).inlineImagePreview === false) return;
  const tokens = state.tokens;
  const links = findLinks(tokens);
  const previewable = new Set(links.filter((link) => !link.inQuote).map((link) => link.href));
  if (previewable.size === 0 || previewable.size > PREVIEW_LIMIT) return;
  const closes = closingIndexes(tokens);
  const after = new Map<number, Token[]>();
  const removed = new Set<number>();
  const processed = new Set<string>();
  for (const link of links) {
    if (!previewable.has(link.href) || processed.has(link.href)) continue;
    processed.add(link.href);
    if (!isImageLink(link.href)) continue;
    const corrected = correctedImageLink(link.href);
    const href = corrected ?? link.href;
    const text = corrected ?? link.text;
    const plain = text === undefined || text === href;
    const { src, fullsize } = previewSources(actualImageUrl(href));
    const preview = previewToken(state, { href, title: plain ? undefined : text, src, fullsize });
    let anchor = tokens.length - 1;
    if (link.placement.kind === 'item') {
      anchor = (closes.get(link.placement.itemOpen) as number) - 1;
      if (link.alone && plain) link.inline.children?.splice(link.linkIndex, 3);
    } else if (link.placement.kind === 'paragraph') {
      const open = link.placement.paragraphOpen;
      anchor = closes.get(open) as number;
      if (link.alone && plain) [open, open + 1, anchor].forEach((index) => removed.add(index));
    }
    after.set(anchor, [...(after.get(anchor) ?? []), preview]);
  }
  state.tokens = tokens.flatMap((token, index) => [...(removed.has(index) ? [] : [token]), ...(after.get(index) ?? [])]);
}

const attribute = (value: string): string => escapeHtml(value).replace(/"/g, '&quot;');

function renderPreview(tokens: Token[], idx: number): string {
  const { href, title, src, fullsize } = (tokens[idx] as Token).meta as PreviewMeta;
  const titleAttribute = title === undefined ? '' : ` title="${attribute(title)}"`;
  const fullsizeAttribute = fullsize === undefined ? '' : ` data-src-fullsize="${attribute(fullsize)}"`;
  return `<div class="message_inline_image"><a href="${attribute(href)}"${titleAttribute}><img${fullsizeAttribute} src="${attribute(src)}"></a></div>`;
}

/** Registers image previews on a markdown-it instance (after every rule that makes or changes links). */
export function inlineImagesPlugin(md: MarkdownIt): void {
  md.core.ruler.push('zulip_inline_images', addImagePreviews);
  md.renderer.rules['zulip_image_preview'] = renderPreview;
}
