/**
 * `GET /messages` anchors and windows, value by value (api/get-messages): every anchor (`newest`,
 * `oldest`, `first_unread`, the legacy `use_first_unread_anchor`, an ID present and absent, 0, a
 * negative ID, one above the largest), windows of 0 and more on each side, `include_anchor`
 * (level 155), with `found_anchor`, `found_oldest`, `found_newest`, `history_limited` and the
 * anchor echoed; the limits of the parameters; `message_ids` (level 300).
 */
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { expectWindow, type KnownTopic, knownTopicRule, windowParams, type WindowRow } from './message-fetch-support.js';
import type { Rule, RuleContext } from '../types.js';

const LEVELS = { INCLUDE_ANCHOR: 155, MESSAGE_IDS: 300 } as const;
const MAX_PER_FETCH = 5000;

/** The rows of the anchor table, for the topic's three messages. */
function anchorRows(ctx: RuleContext, topic: KnownTopic): WindowRow[] {
  const [first, second, third] = topic.ids;
  const rows: WindowRow[] = [
    { anchor: 'newest', numBefore: 0, numAfter: 0 },
    { anchor: 'newest', numBefore: 2, numAfter: 0 },
    { anchor: 'newest', numBefore: 5, numAfter: 3 },
    { anchor: 'oldest', numBefore: 0, numAfter: 2 },
    { anchor: 'oldest', numBefore: 3, numAfter: 5 },
    { anchor: 'oldest', numBefore: 0, numAfter: 0 },
    { anchor: 'first_unread', numBefore: 1, numAfter: 1 },
    { anchor: 'first_unread', numBefore: 0, numAfter: 0 },
    { anchor: 'first_unread', sent: { use_first_unread_anchor: true }, numBefore: 0, numAfter: 5 },
    { anchor: second, numBefore: 1, numAfter: 1 },
    { anchor: second, numBefore: 5, numAfter: 0 },
    { anchor: second, numBefore: 0, numAfter: 5 },
    { anchor: third + 1, numBefore: 1, numAfter: 1 },
    { anchor: first - 1, numBefore: 0, numAfter: 2 },
    { anchor: 0, numBefore: 0, numAfter: 2 },
    { anchor: -5, numBefore: 2, numAfter: 1 },
    { anchor: 'newest', sent: { anchor: '10000000000000005' }, numBefore: 1, numAfter: 1 },
  ];
  if (ctx.featureLevel >= LEVELS.INCLUDE_ANCHOR) {
    rows.push(
      { anchor: second, numBefore: 0, numAfter: 1, includeAnchor: false },
      { anchor: second, numBefore: 1, numAfter: 0, includeAnchor: false },
      // Neither side: the anchor is looked up by itself, include_anchor or not.
      { anchor: second, numBefore: 0, numAfter: 0, includeAnchor: false },
      { anchor: 'newest', numBefore: 2, numAfter: 0, includeAnchor: false },
      { anchor: 'oldest', numBefore: 0, numAfter: 2, includeAnchor: false },
    );
  }
  return rows;
}

const describeRow = (row: WindowRow): string =>
  `anchor ${JSON.stringify(row.sent ?? row.anchor)}, num_before ${row.numBefore}, num_after ${row.numAfter}${row.includeAnchor === undefined ? '' : `, include_anchor ${String(row.includeAnchor)}`}`;

const everyAnchor = knownTopicRule(
  {
    id: 'message-fetch/every-anchor-and-window',
    title:
      'for a topic of three known messages, each anchor (newest, oldest, first_unread and use_first_unread_anchor, a present and an absent ID, 0, a negative ID, one above the largest) with windows of 0 and more on each side and include_anchor both ways (level 155) returns exactly the window of the documented semantics, with found_anchor, found_oldest, found_newest, history_limited false and the anchor it used',
    section: 'api/get-messages',
  },
  'second-member',
  async (ctx, topic, reader) => {
    for (const row of anchorRows(ctx, topic)) {
      expectWindow(await reader.get('/messages', windowParams(ctx, row, topic.narrow)), row, topic.ids, topic.firstUnread, describeRow(row));
    }
  },
);

const parameterLimits = knownTopicRule(
  {
    id: 'message-fetch/window-parameters-checked',
    title:
      'num_before + num_after may be 5000 and not 5001; without anchor (or use_first_unread_anchor), with an anchor that is no number nor keyword, with a negative or non-integer num_before, and excluding the anchor with both sides asked for (level 155), the answer is 400 BAD_REQUEST',
    section: 'api/get-messages',
  },
  'moderator',
  async (ctx, topic, member) => {
    const narrow = topic.narrow;
    expectWindow(await member.get('/messages', { anchor: 'newest', num_before: MAX_PER_FETCH - 2, num_after: 2, narrow }), { anchor: 'newest', numBefore: MAX_PER_FETCH - 2, numAfter: 2 }, topic.ids, undefined, `${MAX_PER_FETCH} messages asked for`);
    const refused: ReadonlyArray<Record<string, unknown>> = [
      { anchor: 'newest', num_before: MAX_PER_FETCH - 1, num_after: 2 },
      { anchor: 'oldest', num_before: 0, num_after: MAX_PER_FETCH + 1 },
      { num_before: 1, num_after: 0 },
      { anchor: 'latest', num_before: 1, num_after: 0 },
      { anchor: '12ab', num_before: 1, num_after: 0 },
      { anchor: 'newest', num_before: -1, num_after: 0 },
      { anchor: 'newest', num_before: '1.5', num_after: 0 },
      { anchor: 'newest', num_before: 'many', num_after: 0 },
      ...(ctx.featureLevel >= LEVELS.INCLUDE_ANCHOR ? [{ anchor: String(topic.ids[1]), num_before: 1, num_after: 1, include_anchor: false }] : []),
    ];
    for (const params of refused) expectError(await member.get('/messages', { ...params, narrow }), { status: 400, code: 'BAD_REQUEST' });
  },
);

const messageIds = knownTopicRule(
  {
    id: 'message-fetch/message-ids',
    title:
      'message_ids (level 300) returns exactly the named messages the narrow matches, oldest first, unknown IDs ignored, with found_anchor, found_oldest, found_newest and history_limited false and no anchor; with anchor, num_before or num_after it is refused with 400 BAD_REQUEST',
    section: 'api/get-messages (changelog 300)',
    levels: { min: LEVELS.MESSAGE_IDS },
  },
  'member',
  async (ctx, topic, member) => {
    const [first, second, third] = topic.ids;
    const cases: ReadonlyArray<readonly [number[], unknown, number[]]> = [
      [[third, first], topic.narrow, [first, third]],
      [[second, 2 ** 31 - 2], topic.narrow, [second]],
      [[first, second, third], [...topic.narrow, { operator: 'sender', operand: ctx.identity('member').userId }], [first]],
      [[first, second, third], [...topic.narrow, { operator: 'sender', operand: ctx.identity('member').userId, negated: true }], [second, third]],
      [[], topic.narrow, []],
    ];
    for (const [ids, narrow, expected] of cases) {
      const reply = await member.get('/messages', { message_ids: ids, narrow });
      const body = expectSuccess(reply);
      const { messages } = expectShape(body, v.object({ messages: v.array(v.object({ id: v.int() })) }), 'body', reply);
      const what = `message_ids ${JSON.stringify(ids)} with narrow ${JSON.stringify(narrow)}`;
      expectEqual(messages.map((m) => m.id), expected, what, reply);
      expectEqual([body.found_anchor, body.found_oldest, body.found_newest, body.history_limited], [false, false, false, false], `found_anchor, found_oldest, found_newest and history_limited for ${what}`, reply);
      check(!('anchor' in body), `a message_ids answer carries no anchor (${what})`, reply);
    }
    for (const extra of [{ anchor: 'newest' }, { num_before: 1 }, { num_after: 1 }, { use_first_unread_anchor: true }]) {
      expectError(await member.get('/messages', { message_ids: [first], ...extra }), { status: 400, code: 'BAD_REQUEST' });
    }
  },
);

export const rules: readonly Rule[] = [everyAnchor, parameterLimits, messageIds];
