/**
 * User, wildcard and user-group mentions (`@**Name**`, `@**Name|10**`, `@_**Name**`,
 * `@**all**`, `@**topic**`, `@*group*`, `@_*group*`) with the real server's markup. Mentions
 * inside quotes are silenced, as the real server's quote processor does, so quoting a message
 * notifies nobody again.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, StateInline, Token } from 'markdown-it';
import { contextOf } from './context.js';
import { escapeAttribute, escapeHtml } from './escape.js';

const CHANNEL_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
const TOPIC_WILDCARD = 'topic';

/** A mention may follow only the start, whitespace or an opening delimiter (the real server's lookbehind). */
const MAY_PRECEDE = /[\s'"({[/<]/;

const USER_MENTION = /^@(_?)\*\*([^*]+)\*\*/;
const GROUP_MENTION = /^@(_?)\*([^*]+)\*/;
const ID_SYNTAX = /^(.+)?\|(\d+)$/s;

interface MentionMeta {
  /** `user`, `channel-wildcard`, `topic-wildcard` or `group`. */
  readonly kind: 'user' | 'channel-wildcard' | 'topic-wildcard' | 'group';
  /** The user or group ID; `*` for channel wildcards; '' for the topic wildcard. */
  readonly id: string;
  readonly name: string;
  silent: boolean;
}

function startsMention(state: StateInline): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
  return state.pos === 0 || MAY_PRECEDE.test(state.src[state.pos - 1] as string);
}

function pushMention(state: StateInline, meta: MentionMeta, length: number): void {
  const token = state.push('zulip_mention', 'span', 0);
  token.meta = meta;
  state.pos += length;
}

function resolveUser(state: StateInline, text: string, silent: boolean): MentionMeta | undefined {
  if (CHANNEL_WILDCARDS.has(text)) return { kind: 'channel-wildcard', id: '*', name: text, silent };
  if (text === TOPIC_WILDCARD) return { kind: 'topic-wildcard', id: '', name: text, silent };
  const ctx = contextOf(state.env);
  const idSyntax = ID_SYNTAX.exec(text);
  const user = idSyntax ? ctx.findUser?.(idSyntax[1] ?? '', Number(idSyntax[2])) : ctx.findUser?.(text, undefined);
  if (!user) return undefined;
  // `@**Name|id**` must name that user (`@**user_1_name|id_of_user_2**` is not a mention).
  if (idSyntax?.[1] !== undefined && idSyntax[1] !== user.fullName) return undefined;
  return { kind: 'user', id: String(user.id), name: user.fullName, silent: silent || !user.isActive };
}

function userMention(state: StateInline, checkOnly: boolean): boolean {
  if (!startsMention(state)) return false;
  const match = USER_MENTION.exec(state.src.slice(state.pos));
  if (!match) return false;
  const meta = resolveUser(state, match[2] as string, match[1] === '_');
  if (!meta) return false;
  if (!checkOnly) pushMention(state, meta, match[0].length);
  else state.pos += match[0].length;
  return true;
}

function groupMention(state: StateInline, checkOnly: boolean): boolean {
  if (!startsMention(state)) return false;
  const match = GROUP_MENTION.exec(state.src.slice(state.pos));
  if (!match) return false;
  const group = contextOf(state.env).findGroup?.(match[2] as string);
  if (!group) return false;
  const meta: MentionMeta = { kind: 'group', id: String(group.id), name: group.name, silent: match[1] === '_' || group.deactivated };
  if (!checkOnly) pushMention(state, meta, match[0].length);
  else state.pos += match[0].length;
  return true;
}

function renderMention(tokens: Token[], idx: number): string {
  const meta = (tokens[idx] as Token).meta as MentionMeta;
  const silent = meta.silent ? ' silent' : '';
  const text = escapeHtml(meta.silent ? meta.name : `@${meta.name}`);
  switch (meta.kind) {
    case 'group':
      return `<span class="user-group-mention${silent}" data-user-group-id="${escapeAttribute(meta.id)}">${text}</span>`;
    case 'topic-wildcard':
      return `<span class="topic-mention${silent}">${text}</span>`;
    case 'channel-wildcard':
      return `<span class="user-mention channel-wildcard-mention${silent}" data-user-id="*">${text}</span>`;
    default:
      return `<span class="user-mention${silent}" data-user-id="${escapeAttribute(meta.id)}">${text}</span>`;
  }
}

/** Silences every mention inside a blockquote. */
function silenceQuotedMentions(state: StateCore): void {
  let depth = 0;
  for (const token of state.tokens) {
    if (token.type === 'blockquote_open') depth++;
    else if (token.type === 'blockquote_close') depth--;
    else if (depth > 0 && token.type === 'inline') {
      for (const child of token.children ?? []) {
        if (child.type === 'zulip_mention') (child.meta as MentionMeta).silent = true;
      }
    }
  }
}

/** Registers the mention rules on a markdown-it instance. */
export function mentionsPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_user_mention', userMention);
  md.inline.ruler.after('zulip_user_mention', 'zulip_group_mention', groupMention);
  md.core.ruler.after('inline', 'zulip_quoted_mentions', silenceQuotedMentions);
  md.renderer.rules['zulip_mention'] = renderMention;
}
