/**
 * Channel, topic and message links: `#**channel**`, `#**channel>topic**` and
 * `#**channel>topic@message_id**`, with the real server's classes and narrow URLs. Unknown
 * channels stay plain text.
 */
import type MarkdownIt from 'markdown-it';
import type { StateInline, Token } from 'markdown-it';
import { channelNarrowPath, topicNarrowPath } from '../message-links.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../../input/topic-names.js';
import { contextOf } from './context.js';
import { escapeAttribute, escapeHtml } from './escape.js';

const MAY_PRECEDE = /[\s'"(,:<]/;
const MESSAGE_LINK = /^#\*\*([^*>]+)>([^*]*)@(\d+)\*\*/;
const TOPIC_LINK = /^#\*\*([^*>]+)>([^*]*)\*\*/;
const CHANNEL_LINK = /^#\*\*([^*]+)\*\*/;

interface ChannelLinkMeta {
  readonly streamId: number;
  readonly name: string;
  readonly topic?: string;
  readonly messageId?: string;
  /** The `/with/` operand of a topic link (levels 347 and 400). */
  readonly withId?: number;
}

function channelLink(state: StateInline, checkOnly: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x23 /* # */) return false;
  if (state.pos > 0 && !MAY_PRECEDE.test(state.src[state.pos - 1] as string)) return false;
  const rest = state.src.slice(state.pos);
  const match = MESSAGE_LINK.exec(rest) ?? TOPIC_LINK.exec(rest) ?? CHANNEL_LINK.exec(rest);
  if (!match) return false;
  const stream = contextOf(state.env).findStream?.(match[1] as string);
  if (!stream) return false;
  if (!checkOnly) {
    const token = state.push('zulip_channel_link', 'a', 0);
    const topic = match[2];
    const messageId = match[3];
    const withId = topic === undefined || messageId !== undefined ? undefined : contextOf(state.env).topicLinkMessageId?.(stream.id, topic);
    const meta: ChannelLinkMeta = { streamId: stream.id, name: stream.name, topic, messageId, withId };
    token.meta = meta;
  }
  state.pos += match[0].length;
  return true;
}

function renderChannelLink(tokens: Token[], idx: number): string {
  const meta = (tokens[idx] as Token).meta as ChannelLinkMeta;
  const channel = escapeHtml(`#${meta.name}`);
  if (meta.topic === undefined) {
    const href = `/${channelNarrowPath(meta.streamId, meta.name)}`;
    return `<a class="stream" data-stream-id="${meta.streamId}" href="${escapeAttribute(href)}">${channel}</a>`;
  }
  const topicHref = `/${topicNarrowPath(meta.streamId, meta.name, meta.topic)}`;
  const topic = meta.topic === '' ? `<em>${escapeHtml(EMPTY_TOPIC_DISPLAY_NAME)}</em>` : escapeHtml(meta.topic);
  const label = `${channel} &gt; ${topic}`;
  if (meta.messageId !== undefined) {
    return `<a class="message-link" href="${escapeAttribute(`${topicHref}/near/${meta.messageId}`)}">${label} @ 💬</a>`;
  }
  const href = meta.withId === undefined ? topicHref : `${topicHref}/with/${meta.withId}`;
  return `<a class="stream-topic" data-stream-id="${meta.streamId}" href="${escapeAttribute(href)}">${label}</a>`;
}

/** Registers the channel-link rule on a markdown-it instance. */
export function channelLinksPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_channel_link', channelLink);
  md.renderer.rules['zulip_channel_link'] = renderChannelLink;
}
