/**
 * Narrow URLs and Markdown link syntax the real server writes into generated messages (reports,
 * reminders, move notifications): `zerver/lib/url_encoding.py` and `topic_link_util.py`.
 */
import { EMPTY_TOPIC_DISPLAY_NAME } from '../input/topic-names.js';

const hex = (c: string): string => `%${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * Python's `quote(s, safe="*")` followed by the narrow-URL replacements: `%` becomes `.`, and
 * `.`, `(`, `)` become `.2E`, `.28`, `.29`.
 */
export function encodeHashComponent(text: string): string {
  const quoted = encodeURIComponent(text).replace(/[!'()]/g, hex);
  let out = '';
  for (const c of quoted) out += c === '%' ? '.' : c === '.' ? '.2E' : c;
  return out;
}

/** `9-Verona`: the channel slug of narrow URLs. */
export const encodeChannel = (streamId: number, name: string): string =>
  `${streamId}-${encodeHashComponent(name.replace(/ /g, '-'))}`;

/** `dm/10,12` or `dm/9,10,12-group`: participants sorted, `-group` for three or more. */
export function encodeUserIds(userIds: readonly number[]): string {
  const sorted = [...userIds].sort((a, b) => a - b);
  return sorted.join(',') + (sorted.length >= 3 ? '-group' : '');
}

export const channelNarrowPath = (streamId: number, name: string): string => `#narrow/channel/${encodeChannel(streamId, name)}`;

export const topicNarrowPath = (streamId: number, name: string, topic: string): string =>
  `${channelNarrowPath(streamId, name)}/topic/${encodeHashComponent(topic)}`;

/** `<base>/#narrow/channel/3-Verona/topic/test/near/42`. */
export const streamMessageUrl = (base: string, streamId: number, name: string, topic: string, messageId: number): string =>
  `${base}/${topicNarrowPath(streamId, name, topic)}/near/${messageId}`;

/** `<base>/#narrow/dm/10,12/near/42`. */
export const directMessageUrl = (base: string, participantIds: readonly number[], messageId: number): string =>
  `${base}/#narrow/dm/${encodeUserIds(participantIds)}/near/${messageId}`;

const BROKEN_LINK = /[`>*&[\]]|(\$\$)/;
const LINK_ESCAPES = new Map([
  ['`', '&#96;'],
  ['>', '&gt;'],
  ['*', '&#42;'],
  ['&', '&amp;'],
  ['$$', '&#36;&#36;'],
  ['[', '&#91;'],
  [']', '&#93;'],
]);
const escapeLinkText = (text: string): string => text.replace(/[`>*&[\]]|\$\$/g, (m) => LINK_ESCAPES.get(m) ?? m);

/** Whether `#**...**` syntax would break on this name (the real server then writes a plain link). */
export const breaksLinkSyntax = (name: string): boolean => BROKEN_LINK.test(name);

function fallbackLink(streamId: number, name: string, topic: string | undefined, messageId: number | undefined): string {
  let link = channelNarrowPath(streamId, name);
  let text = `#${escapeLinkText(name)}`;
  if (topic !== undefined) {
    link += `/topic/${encodeHashComponent(topic)}`;
    text += ` > ${escapeLinkText(topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : topic)}`;
  }
  if (messageId !== undefined) {
    link += `/near/${messageId}`;
    text += ' @ 💬';
  }
  return `[${text}](${link})`;
}

/** `#**Verona>test@42**`, or a plain Markdown link when the names contain syntax characters. */
export function messageLinkSyntax(streamId: number, name: string, topic: string, messageId: number): string {
  if (breaksLinkSyntax(topic) || breaksLinkSyntax(name)) return fallbackLink(streamId, name, topic, messageId);
  return `#**${name}>${topic}@${messageId}**`;
}

/** `#**Verona**` (`get_stream_link_syntax`), with the same fallback. */
export function channelLinkSyntax(streamId: number, name: string): string {
  if (breaksLinkSyntax(name)) return fallbackLink(streamId, name, undefined, undefined);
  return `#**${name}**`;
}

/** `#**Verona>test**`, with the same fallback. */
export function topicLinkSyntax(streamId: number, name: string, topic: string): string {
  if (breaksLinkSyntax(topic) || breaksLinkSyntax(name)) return fallbackLink(streamId, name, topic, undefined);
  return `#**${name}>${topic}**`;
}

/** `@_**Full Name|10**`: a mention that does not notify. */
export const silentMention = (user: { readonly id: number; readonly fullName: string }): string =>
  `@_**${user.fullName}|${user.id}**`;

/** `<time:2025-06-01T12:00:00+00:00>`: Python's `isoformat()` of a UTC time in global-time syntax. */
export function globalTime(ms: number): string {
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19);
  const micros = (((ms % 1000) + 1000) % 1000) * 1000;
  return `<time:${iso}${micros === 0 ? '' : `.${String(micros).padStart(6, '0')}`}+00:00>`;
}

/** A backtick fence longer than any fence inside `content` (at least three backticks). */
export function unusedFence(content: string): string {
  let length = 3;
  // Line by line rather than with /^\s*(`{3,})/gm, whose \s* runs on across blank lines from
  // every line start: quadratic in a run of newlines.
  for (const line of content.split(/[\n\r\u2028\u2029]/)) {
    const text = line.trimStart();
    let run = 0;
    while (text.charCodeAt(run) === 0x60) run++;
    if (run >= 3) length = Math.max(length, run + 1);
  }
  return '`'.repeat(length);
}
