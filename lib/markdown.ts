/**
 * A small Markdown renderer for the common cases (paragraphs, emphasis, inline and fenced code,
 * links, user and channel mentions, message links, global times, quote and spoiler blocks).
 * Everything else is escaped, never passed through as HTML.
 */
import { channelNarrowPath, topicNarrowPath } from './message-links.js';

export interface MentionTarget {
  readonly id: number;
  readonly fullName: string;
}

export interface MarkdownContext {
  /** Resolves `@**Name**` or `@**Name|id**`. */
  readonly findUser?: (name: string, id: number | undefined) => MentionTarget | undefined;
  /** Resolves `#**channel**` to a channel ID. */
  readonly findStream?: (name: string) => { readonly id: number; readonly name: string } | undefined;
}

const HTML_ESCAPES = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
]);

/** Escapes text content (quotes stay as they are, as Python-Markdown leaves them). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => HTML_ESCAPES.get(c) ?? c);
}

/** Escapes an attribute value. */
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES.get(c) ?? c);
}

const SAFE_URL = /^(https?:\/\/|mailto:|\/|#)/i;

function renderInline(text: string, ctx: MarkdownContext): string {
  // Code spans first: their contents are literal.
  const parts = text.split(/(`[^`\n]+`)/);
  return parts
    .map((part, index) => (index % 2 === 1 ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : renderSpans(part, ctx)))
    .join('');
}

const SPAN =
  /(@_?\*\*([^*\n|]+?)(?:\|(\d+))?\*\*)|(#\*\*([^*\n>]+?)(?:>([^*\n]*?))?\*\*)|(\[([^\]\n]+)\]\(([^)\s]+)\))|(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)])|(\*\*([^*\n]+)\*\*)|(\*([^*\n]+)\*)|(~~([^~\n]+)~~)|(<time:([^>\n]+)>)/g;

function renderSpans(text: string, ctx: MarkdownContext): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(SPAN)) {
    out += escapeHtml(text.slice(last, m.index));
    last = m.index + m[0].length;
    out += renderSpan(m, ctx);
  }
  return out + escapeHtml(text.slice(last));
}

function renderSpan(m: RegExpMatchArray, ctx: MarkdownContext): string {
  if (m[1] !== undefined) {
    const silent = m[1].startsWith('@_');
    const user = ctx.findUser?.(m[2] as string, m[3] === undefined ? undefined : Number(m[3]));
    if (!user) return escapeHtml(m[0]);
    const cls = silent ? 'user-mention silent' : 'user-mention';
    return `<span class="${cls}" data-user-id="${user.id}">${silent ? '' : '@'}${escapeHtml(user.fullName)}</span>`;
  }
  if (m[4] !== undefined) return renderChannelLink(m, ctx);
  if (m[7] !== undefined) {
    const url = m[9] as string;
    if (!SAFE_URL.test(url)) return escapeHtml(m[0]);
    return `<a href="${escapeAttribute(url)}">${escapeHtml(m[8] as string)}</a>`;
  }
  if (m[10] !== undefined) return `<a href="${escapeAttribute(m[10])}">${escapeHtml(m[10])}</a>`;
  if (m[11] !== undefined) return `<strong>${escapeHtml(m[12] as string)}</strong>`;
  if (m[13] !== undefined) return `<em>${escapeHtml(m[14] as string)}</em>`;
  if (m[15] !== undefined) return `<del>${escapeHtml(m[16] as string)}</del>`;
  return renderTime(m[17] as string, m[18] as string);
}

/** `#**channel**`, `#**channel>topic**` and `#**channel>topic@message_id**`. */
function renderChannelLink(m: RegExpMatchArray, ctx: MarkdownContext): string {
  const stream = ctx.findStream?.(m[5] as string);
  if (!stream) return escapeHtml(m[0]);
  const rawTopic = m[6];
  if (rawTopic === undefined) {
    const href = `/${channelNarrowPath(stream.id, stream.name)}`;
    return `<a class="stream" data-stream-id="${stream.id}" href="${escapeAttribute(href)}">${escapeHtml(`#${stream.name}`)}</a>`;
  }
  const near = /^(.*)@(\d+)$/s.exec(rawTopic);
  const topic = near ? (near[1] as string) : rawTopic;
  const shownTopic = topic === '' ? '<em>general chat</em>' : escapeHtml(topic);
  const label = `${escapeHtml(`#${stream.name}`)} &gt; ${shownTopic}`;
  const topicHref = `/${topicNarrowPath(stream.id, stream.name, topic)}`;
  if (near) {
    return `<a class="message-link" href="${escapeAttribute(`${topicHref}/near/${near[2]}`)}">${label} @ 💬</a>`;
  }
  return `<a class="stream-topic" data-stream-id="${stream.id}" href="${escapeAttribute(topicHref)}">${label}</a>`;
}

/** `<time:2025-06-01T12:00:00+00:00>`: a time shown in each reader's timezone. */
function renderTime(source: string, value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return escapeHtml(source);
  const iso = new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
  return `<time datetime="${iso}">${escapeHtml(value)}</time>`;
}

/** Renders message-style Markdown to HTML. */
export function renderMarkdown(source: string, ctx: MarkdownContext = {}): string {
  const blocks: string[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) blocks.push(`<p>${paragraph.map((l) => renderInline(l, ctx)).join('<br>\n')}</p>`);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = /^(`{3,}|~{3,})\s*(\S*)\s*(.*?)\s*$/.exec(line);
    if (fence) {
      flush();
      const close = fence[1] as string;
      const body: string[] = [];
      i++;
      while (i < lines.length && (lines[i] as string).trim() !== close) body.push(lines[i++] as string);
      const lang = fence[2] ?? '';
      if (lang === 'quote') blocks.push(`<blockquote>\n${renderMarkdown(body.join('\n'), ctx)}\n</blockquote>`);
      else if (lang === 'spoiler') {
        const header = fence[3] ? `\n${renderMarkdown(fence[3], ctx)}` : '';
        blocks.push(
          `<div class="spoiler-block"><div class="spoiler-header">${header}\n</div><div class="spoiler-content" aria-hidden="true">\n${renderMarkdown(body.join('\n'), ctx)}\n</div></div>`,
        );
      } else blocks.push(`<div class="codehilite"><pre><span></span><code>${escapeHtml(body.join('\n'))}\n</code></pre></div>`);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      flush();
      const body: string[] = [quote[1] as string];
      while (i + 1 < lines.length && /^>/.test(lines[i + 1] as string)) body.push((lines[++i] as string).replace(/^>\s?/, ''));
      blocks.push(`<blockquote>\n${renderMarkdown(body.join('\n'), ctx)}\n</blockquote>`);
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks.join('\n');
}
