/**
 * One query of the narrow model's property against the server, compared with the model: the
 * messages, in order, with their conversation, sender, read state and topic as the reader sees
 * it, the `found_*` flags, `history_limited` and the anchor (anchor windows); exactly the
 * matching messages among those named (`message_ids`, `matches_narrow`).
 */
import type { JsonObject, Reply } from '../../client/api-client.js';
import { expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { matchingIds, type ModelMessage, type NarrowContext } from '../../model/message-narrows.js';
import { excludesInnerAnchor, resolveAnchor, windowOver } from '../../model/message-window.js';
import type { RuleContext } from '../types.js';
import type { Corpus } from './narrow-model-corpus.js';
import { isSearch, type Query } from './narrow-model-queries.js';

const messageShape = v.object({
  id: v.int(),
  sender_id: v.int(),
  type: v.literal('stream', 'private'),
  flags: v.array(v.string()),
  content_type: v.string(),
  subject: v.string(),
  stream_id: v.optional(v.int()),
  display_recipient: v.union(v.string(), v.array(v.object({ id: v.int() }))),
});

/** A returned message, as far as the checks read it. */
interface Fetched {
  readonly id: number;
  readonly sender_id: number;
  readonly type: string;
  readonly flags: readonly string[];
  readonly content_type: string;
  readonly subject: string;
  readonly stream_id?: number;
  readonly display_recipient: string | ReadonlyArray<{ readonly id: number }>;
  readonly match_content?: unknown;
  readonly match_subject?: unknown;
}

/** The model's view of the corpus for one reader. */
export function narrowContext(corpus: Corpus, readerId: number): NarrowContext {
  const { ids, emails, channel, emptyTopicName } = corpus.setup;
  const byEmail = new Map([...emails].map(([id, email]) => [email.toLowerCase(), id]));
  const people = new Set(Object.values(ids));
  return {
    reader: readerId,
    emptyTopicName,
    userId: (operand) => (typeof operand === 'number' ? (people.has(operand) ? operand : undefined) : byEmail.get(operand.toLowerCase())),
    channelId: (operand) => (operand === channel.id || operand === channel.name ? channel.id : undefined),
    isPublicChannel: (id) => id === channel.id,
    follows: (channelId, topic) => corpus.follows(readerId, channelId, topic),
  };
}

/** What is wrong with one returned message the model knows. */
function messageProblems(corpus: Corpus, query: Query, model: ModelMessage, got: Fetched): string[] {
  const problems: string[] = [];
  const where = `message ${model.id}`;
  if (got.sender_id !== model.senderId) problems.push(`${where}: sender_id ${got.sender_id}, expected ${model.senderId}`);
  if (model.channelId !== undefined) {
    const shown = model.topic === '' && query.allowEmptyTopicName !== true ? corpus.setup.emptyTopicName : model.topic;
    if (got.type !== 'stream' || got.stream_id !== model.channelId) problems.push(`${where}: expected a message of channel ${model.channelId}, got type ${got.type} stream_id ${String(got.stream_id)}`);
    if (got.subject !== shown) problems.push(`${where}: subject ${JSON.stringify(got.subject)}, expected ${JSON.stringify(shown)}`);
  } else {
    const members = Array.isArray(got.display_recipient) ? got.display_recipient.map((user) => user.id).sort((a, b) => a - b) : [];
    if (got.type !== 'private' || members.join() !== model.participants!.join()) problems.push(`${where}: expected a direct message among [${model.participants!.join(', ')}], got type ${got.type} with [${members.join(', ')}]`);
  }
  const unread = model.unreadBy.has(query.readerId);
  if (got.flags.includes('read') === unread) problems.push(`${where}: flags ${JSON.stringify(got.flags)}, expected it ${unread ? 'unread' : 'read'}`);
  const contentType = query.applyMarkdown ? 'text/html' : 'text/x-markdown';
  if (got.content_type !== contentType) problems.push(`${where}: content_type ${got.content_type}, expected ${contentType}`);
  if (isSearch(query) && (typeof got.match_content !== 'string' || typeof got.match_subject !== 'string')) problems.push(`${where}: a search result must carry match_content and match_subject`);
  return problems;
}

function messagesOf(reply: Reply): Fetched[] {
  return expectShape(expectSuccess(reply), v.object({ messages: v.array(messageShape) }), 'body', reply).messages as unknown as Fetched[];
}

function compareMessages(corpus: Corpus, query: Query, expected: readonly number[], got: readonly Fetched[]): string[] {
  const ids = got.map((m) => m.id);
  if (ids.join() !== expected.join()) return [`messages [${ids.join(', ')}], expected [${expected.join(', ')}]`];
  const byId = new Map(corpus.messages.map((m) => [m.id, m]));
  return got.flatMap((message) => messageProblems(corpus, query, byId.get(message.id)!, message));
}

const flag = (body: JsonObject, key: string, expected: unknown): string[] => (body[key] === expected ? [] : [`${key}: ${JSON.stringify(body[key])}, expected ${JSON.stringify(expected)}`]);

/** An anchor window: the model's messages (after unknown older ones, in direct conversations) and flags. */
async function windowProblems(ctx: RuleContext, corpus: Corpus, query: Query): Promise<string[]> {
  const params: Record<string, unknown> = { anchor: query.anchorText, num_before: query.numBefore, num_after: query.numAfter, narrow: query.wire, apply_markdown: query.applyMarkdown };
  if (query.includeAnchor !== undefined) params.include_anchor = query.includeAnchor;
  if (query.allowEmptyTopicName !== undefined) params.allow_empty_topic_name = query.allowEmptyTopicName;
  const reply = await ctx.as(query.reader).get('/messages', params);
  const sides = { numBefore: query.numBefore, numAfter: query.numAfter, includeAnchor: query.includeAnchor ?? true };
  if (excludesInnerAnchor(sides)) {
    expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    return [];
  }
  const { ids, firstUnread } = matchingIds(narrowContext(corpus, query.readerId), query.terms, corpus.messages);
  const anchor = resolveAnchor(query.anchor, firstUnread);
  const window = windowOver(ids, { anchor, ...sides }, query.openBelow);
  const got = messagesOf(reply);
  const body = reply.body!;
  const older = query.openBelow ? got.filter((m) => m.id < corpus.knownFrom) : [];
  const problems = compareMessages(corpus, query, window.ids, got.slice(older.length));
  if (older.length > window.olderSlots) problems.push(`${older.length} messages older than the rule's came before them; at most ${window.olderSlots} may`);
  for (const message of older) {
    const members = Array.isArray(message.display_recipient) ? message.display_recipient.map((user) => user.id) : [];
    if (message.type !== 'private' || !members.includes(query.readerId)) problems.push(`older message ${message.id} is not a direct message of the reader`);
  }
  const foundOldest = window.olderSlots > 0 ? older.length < window.olderSlots : window.foundOldest;
  problems.push(...flag(body, 'found_anchor', window.foundAnchor), ...flag(body, 'found_oldest', foundOldest), ...flag(body, 'found_newest', window.foundNewest));
  problems.push(...flag(body, 'history_limited', false), ...flag(body, 'anchor', anchor));
  return problems;
}

/** `message_ids` (level 300): exactly the named messages that match, no window flags set, no anchor. */
async function idsProblems(ctx: RuleContext, corpus: Corpus, query: Query): Promise<string[]> {
  const params: Record<string, unknown> = { message_ids: query.picked, narrow: query.wire, apply_markdown: query.applyMarkdown };
  if (query.allowEmptyTopicName !== undefined) params.allow_empty_topic_name = query.allowEmptyTopicName;
  const reply = await ctx.as(query.reader).get('/messages', params);
  const { ids } = matchingIds(narrowContext(corpus, query.readerId), query.terms, corpus.messages);
  const wanted = new Set(query.picked);
  const problems = compareMessages(corpus, query, ids.filter((id) => wanted.has(id)), messagesOf(reply));
  const body = reply.body!;
  for (const key of ['found_anchor', 'found_oldest', 'found_newest', 'history_limited']) problems.push(...flag(body, key, false));
  if ('anchor' in body) problems.push('a message_ids answer carries no anchor');
  return problems;
}

/** `GET /messages/matches_narrow`: exactly the named messages the reader received that match. */
async function matchesProblems(ctx: RuleContext, corpus: Corpus, query: Query): Promise<string[]> {
  const reply = await ctx.as(query.reader).get('/messages/matches_narrow', { msg_ids: query.picked, narrow: query.wire });
  const fields = v.object({ match_content: v.string(), match_subject: v.string() });
  const messages = expectShape(expectSuccess(reply), v.object({ messages: v.record(fields, { keyPattern: /^\d+$/ }) }), 'body', reply).messages;
  const { ids } = matchingIds(narrowContext(corpus, query.readerId), query.terms, corpus.messages);
  const wanted = new Set(query.picked);
  const expected = ids.filter((id) => wanted.has(id));
  const got = Object.keys(messages).map(Number).sort((a, b) => a - b);
  return got.join() === expected.join() ? [] : [`matching messages [${got.join(', ')}], expected [${expected.join(', ')}]`];
}

/** Runs the query and lists every difference from the model. */
export function queryProblems(ctx: RuleContext, corpus: Corpus, query: Query): Promise<string[]> {
  if (query.kind === 'ids') return idsProblems(ctx, corpus, query);
  if (query.kind === 'matches') return matchesProblems(ctx, corpus, query);
  return windowProblems(ctx, corpus, query);
}
