/**
 * What the exact `GET /messages` rules share: a topic of the run channel holding three known
 * messages (the reader's own, read for it where `read_by_sender` exists, then two of the
 * administrator's, unread for the reader), a window request, and its comparison with the
 * window model (conformance/model/message-window.ts).
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type AnchorValue, resolveAnchor, windowOver } from '../../model/message-window.js';
import { runChannel } from '../support/message-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';
import { SEND, send } from './send-support.js';

export interface KnownTopic {
  readonly channelName: string;
  readonly topic: string;
  /** The three message IDs, ascending. */
  readonly ids: readonly [number, number, number];
  /** The reader's first unread one. */
  readonly firstUnread: number;
  /** The topic's narrow, in the legacy form. */
  readonly narrow: ReadonlyArray<readonly [string, string]>;
}

/** The identities that read the known topic (the administrator sends to it). */
export type Reader = 'member' | 'second-member' | 'moderator';

/** A topic of the run channel with three messages the rule knows everything about, for `reader`. */
export async function knownTopic(ctx: RuleContext, reader: Reader): Promise<KnownTopic> {
  const channel = await runChannel(ctx);
  const topic = ctx.name('window');
  const post = (who: Reader | 'admin', extra: Record<string, unknown> = {}) =>
    send(ctx, ctx.as(who), { type: 'stream', to: channel.id, topic, content: ctx.name('window-message'), ...extra });
  const ownRead = ctx.featureLevel >= SEND.READ_BY_SENDER;
  const first = await post(reader, ownRead ? { read_by_sender: true } : {});
  const ids = [first, await post('admin'), await post('admin')] as const;
  // An API client's own message stays unread without read_by_sender.
  return { channelName: channel.name, topic, ids, firstUnread: ownRead ? ids[1] : ids[0], narrow: [['stream', channel.name], ['topic', topic]] };
}

export interface WindowRow {
  readonly anchor: AnchorValue;
  /** The anchor as sent, when not the plain value (huge numbers, legacy use_first_unread_anchor). */
  readonly sent?: Readonly<Record<string, unknown>>;
  readonly numBefore: number;
  readonly numAfter: number;
  readonly includeAnchor?: boolean;
}

const windowShape = v.object({
  messages: v.array(v.object({ id: v.int() })),
  found_anchor: v.bool(),
  found_oldest: v.bool(),
  found_newest: v.bool(),
  history_limited: v.bool(),
  anchor: v.int(),
});

/** The window request of a row (include_anchor only where the level has it). */
export function windowParams(ctx: RuleContext, row: WindowRow, narrow: unknown): Record<string, unknown> {
  const params: Record<string, unknown> = { num_before: row.numBefore, num_after: row.numAfter, narrow, ...(row.sent ?? { anchor: String(row.anchor) }) };
  if (row.includeAnchor !== undefined) params.include_anchor = row.includeAnchor;
  return params;
}

/** Checks a window answer against the model over `matches` (every match known). */
export function expectWindow(reply: Reply, row: WindowRow, matches: readonly number[], firstUnread: number | undefined, what: string): JsonObject {
  const body = expectShape(expectSuccess(reply), windowShape, 'body', reply);
  const anchor = resolveAnchor(row.anchor, firstUnread);
  const expected = windowOver(matches, { anchor, numBefore: row.numBefore, numAfter: row.numAfter, includeAnchor: row.includeAnchor ?? true });
  const got = { ids: body.messages.map((m) => m.id), found_anchor: body.found_anchor, found_oldest: body.found_oldest, found_newest: body.found_newest, history_limited: body.history_limited, anchor: body.anchor };
  const want = { ids: expected.ids, found_anchor: expected.foundAnchor, found_oldest: expected.foundOldest, found_newest: expected.foundNewest, history_limited: false, anchor };
  expectEqual(got, want, what, reply);
  return body;
}

/**
 * A `GET /messages` rule that starts from a known topic read by `reader`: the body gets the
 * topic and the reader's client.
 */
export function knownTopicRule(header: RuleHeader, reader: Reader, body: (ctx: RuleContext, topic: KnownTopic, client: ApiClient) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: 'GET /messages', writes: true, needs: ['admin', reader] }, (ctx) => knownTopic(ctx, reader), (ctx, topic) => body(ctx, topic, ctx.as(reader)));
}
