/**
 * `GET /messages` narrows, operator by operator (api/construct-narrow, api/get-messages): every
 * operator and operand the real server accepts succeeds from its level on, as a legacy pair and as
 * a negated object, and is an unknown operator or operand (400 BAD_NARROW) before it; unknown
 * channels, users and operands are 400 BAD_NARROW with a `desc`; malformed narrows are 400
 * BAD_REQUEST. Which messages each operator selects is the narrow model's business
 * (message-fetch-model.ts).
 */
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { userDirectory } from '../support/channel-fixtures.js';
import { FAR_ID_FLOOR } from '../support/message-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';
import { knownTopic, knownTopicRule } from './message-fetch-support.js';
import { send } from './send-support.js';

/** Levels at which operators and operands appear (api/changelog). */
const SINCE = { DM: 177, HAS_REACTION: 249, CHANNEL: 250, IS_FOLLOWED: 265, WITH: 271, IS_MUTED: 366 } as const;

interface Operands {
  readonly channel: string;
  readonly topic: string;
  readonly email: string;
  readonly messageId: number;
}

/** Every operator (and each of its fixed operands) with the first level that knows it. */
const OPERATORS: ReadonlyArray<readonly [operator: string, operand: (o: Operands) => string, since: number]> = [
  ['stream', (o) => o.channel, 1],
  ['channel', (o) => o.channel, SINCE.CHANNEL],
  ['streams', () => 'public', 1],
  ['channels', () => 'public', SINCE.CHANNEL],
  ['topic', (o) => o.topic, 1],
  ['sender', (o) => o.email, 1],
  ['pm-with', (o) => o.email, 1],
  ['pm_with', (o) => o.email, 1],
  ['dm', (o) => o.email, SINCE.DM],
  ['dm-including', (o) => o.email, SINCE.DM],
  ['group-pm-with', (o) => o.email, 1],
  ['group_pm_with', (o) => o.email, 1],
  ...(['private', 'starred', 'mentioned', 'unread', 'alerted', 'resolved'] as const).map((value) => ['is', () => value, 1] as const),
  ['is', () => 'dm', SINCE.DM],
  ['is', () => 'followed', SINCE.IS_FOLLOWED],
  ['is', () => 'muted', SINCE.IS_MUTED],
  ...(['link', 'image', 'attachment'] as const).map((value) => ['has', () => value, 1] as const),
  ['has', () => 'reaction', SINCE.HAS_REACTION],
  ['in', () => 'home', 1],
  ['in', () => 'all', 1],
  ['id', (o) => String(o.messageId), 1],
  ['near', (o) => String(o.messageId), 1],
  ['search', () => 'zebra okapi', 1],
  ['with', (o) => String(o.messageId), SINCE.WITH],
];


const READERS: readonly IdentityName[] = ['member', 'second-member', 'moderator'];

/** The operands of the run: the run channel, a topic of it, the member's API email, a message of that topic. */
async function operands(ctx: RuleContext): Promise<Operands> {
  const topic = await knownTopic(ctx, 'member');
  const email = (await userDirectory(ctx.as('admin'))).get(ctx.identity('member').userId)?.email ?? ctx.identity('member').email;
  return { channel: topic.channelName, topic: topic.topic, email, messageId: topic.ids[1] };
}

/** A narrow rule: the operands are prepared, the readers take turns. */
const narrowRule = (header: RuleHeader, body: (ctx: RuleContext, o: Operands) => Promise<void>): Rule =>
  fixtureRule(header, { endpoint: 'GET /messages', writes: true, needs: ['admin', ...READERS] }, operands, body);

const everyOperator = narrowRule(
  {
    id: 'message-fetch/every-operator-by-level',
    title:
      'every narrow operator and operand (channel/stream, channels/streams:public, topic, sender, dm/pm-with, dm-including, group-pm-with, each is: and has: value, in, id, near, search, with) is accepted from its level on, as a legacy pair and negated as an object; before that level it is refused with 400 BAD_NARROW',
    section: 'api/construct-narrow; api/get-messages',
  },
  async (ctx, o) => {
    let turn = 0;
    for (const [operator, operand, since] of OPERATORS) {
      const value = operand(o);
      // Negation is checked on half the rows, the legacy form on the others (spread over readers).
      const term = turn % 2 === 0 ? [operator, value] : { operator, operand: value, negated: true };
      const reader = READERS[turn++ % READERS.length]!;
      const reply = await ctx.as(reader).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [term] });
      if (ctx.featureLevel >= since) expectSuccess(reply);
      else expectError(reply, { status: 400, code: 'BAD_NARROW' });
    }
  },
);

const narrowErrors = narrowRule(
  {
    id: 'message-fetch/narrow-errors',
    title:
      "an unknown operator, channel (name or ID), user, 'is', 'has', 'in' or channels operand, a message ID that is no number, a 'with' that is no number (271) and a channel term with a direct-message term (271) are refused with 400 BAD_NARROW and a desc; a narrow that is no list, elements that are no pair or object, missing operators or operands, operands of the wrong type and a non-boolean negated with 400 BAD_REQUEST",
    section: 'api/construct-narrow; api/get-messages',
  },
  async (ctx, o) => {
    const nobody = `${ctx.runTag}-nobody@example.invalid`;
    const badNarrow: unknown[][] = [
      [['nonsense', 'x']],
      [['stream', ctx.name('no-such-channel')]],
      [{ operator: 'stream', operand: FAR_ID_FLOOR + 3 }],
      [['sender', nobody]],
      [['pm-with', nobody]],
      [['group-pm-with', nobody]],
      [['is', 'nonsense']],
      [['has', 'nonsense']],
      [['in', 'nonsense']],
      [['streams', 'nonsense']],
      [['id', 'twelve']],
      ...(ctx.featureLevel >= SINCE.WITH ? [[['with', 'twelve']], [['stream', o.channel], ['pm-with', o.email]]] : []),
    ];
    let turn = 0;
    for (const narrow of badNarrow) {
      const member = ctx.as(READERS[turn++ % READERS.length]!);
      const body = expectError(await member.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow }), { status: 400, code: 'BAD_NARROW' });
      check(typeof body.desc === 'string' && body.desc !== '', `BAD_NARROW for ${JSON.stringify(narrow)} must carry a desc`);
    }
    const badRequest: unknown[] = [
      '{"operator": "stream"}',
      'not json',
      [['stream']],
      [['stream', o.channel, 'x']],
      [['stream', 5]],
      [7],
      [{ operator: 'stream' }],
      [{ operand: o.channel }],
      [{ operator: 'topic', operand: 5 }],
      [{ operator: 'stream', operand: o.channel, negated: 'yes' }],
    ];
    for (const narrow of badRequest) {
      const member = ctx.as(READERS[turn++ % READERS.length]!);
      expectError(await member.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow }), { status: 400, code: 'BAD_REQUEST' });
    }
  },
);

/** The IDs a narrow gives the member: the newest ten, oldest first. */
async function idsFor(ctx: RuleContext, narrow: unknown): Promise<number[]> {
  const reply = await ctx.as('member').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
  return expectShape(expectSuccess(reply), v.object({ messages: v.array(v.object({ id: v.int() })) }), 'body', reply).messages.map((m) => m.id);
}

const withOperator = knownTopicRule(
  {
    id: 'message-fetch/with-operator',
    title:
      "with (level 271) names a message: its conversation replaces the narrow's channel, topic and direct-message terms, the other terms still apply; a message the reader cannot access is ignored when the rest names a conversation and is 400 BAD_NARROW otherwise, as are two with terms",
    section: 'api/construct-narrow (changelog 271)',
    levels: { min: SINCE.WITH },
  },
  'member',
  // Channel messages only: which conversation a received 1:1 direct message names has changed between versions.
  async (ctx, known) => {
    const [, second, third] = known.ids;
    const other = ctx.name('other-topic');
    const elsewhere = await send(ctx, ctx.as('admin'), { type: 'stream', to: known.narrow[0]![1], topic: other, content: ctx.name('elsewhere') });
    const channel: ReadonlyArray<readonly [string, string]> = [['stream', known.channelName]];
    const far = String(FAR_ID_FLOOR + 5);
    const cases: ReadonlyArray<readonly [string, unknown, number[]]> = [
      ['with alone', [['with', String(second)]], [...known.ids]],
      ['with replacing another topic', [...channel, ['topic', other], ['with', String(second)]], [...known.ids]],
      ['with and a sender', [{ operator: 'with', operand: second }, { operator: 'sender', operand: ctx.identity('admin').userId }], [second, third]],
      ['with naming no accessible message, after a conversation', [...channel, ['topic', other], ['with', far]], [elsewhere]],
    ];
    for (const [what, narrow, expected] of cases) expectEqual(await idsFor(ctx, narrow), expected, `the messages of ${what}`);
    for (const narrow of [[['with', far]], [['with', String(second)], ['with', String(third)]]]) {
      expectError(await ctx.as('member').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow }), { status: 400, code: 'BAD_NARROW' });
    }
  },
);

const matchesNarrowParameters = narrowRule(
  {
    id: 'message-fetch/matches-narrow-parameters',
    title: 'matches_narrow needs msg_ids and narrow (400 REQUEST_VARIABLE_MISSING without either), refuses msg_ids that are no list of integers (400 BAD_REQUEST) and unknown operators (400 BAD_NARROW), and answers an object keyed by the matching IDs',
    endpoint: 'GET /messages/matches_narrow',
    section: 'api/get-messages-matches-narrow',
  },
  async (ctx, o) => {
    const member = ctx.as('member');
    const narrow = [['stream', o.channel]];
    expectError(await member.get('/messages/matches_narrow', { narrow }), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    expectError(await member.get('/messages/matches_narrow', { msg_ids: [o.messageId] }), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    expectError(await member.get('/messages/matches_narrow', { msg_ids: '[1, "two"]', narrow }), { status: 400, code: 'BAD_REQUEST' });
    expectError(await member.get('/messages/matches_narrow', { msg_ids: [o.messageId], narrow: [['nonsense', 'x']] }), { status: 400, code: 'BAD_NARROW' });
    const reply = await member.get('/messages/matches_narrow', { msg_ids: [o.messageId, FAR_ID_FLOOR + 9], narrow });
    const found = expectShape(expectSuccess(reply), v.object({ messages: v.record(v.object({ match_content: v.string(), match_subject: v.string() })) }), 'body', reply).messages;
    expectEqual(Object.keys(found), [String(o.messageId)], 'the matching IDs (an unknown one left out)', reply);
  },
);

export const rules: readonly Rule[] = [everyOperator, narrowErrors, withOperator, matchesNarrowParameters];
