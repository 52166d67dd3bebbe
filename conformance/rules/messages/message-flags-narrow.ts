/**
 * `POST /messages/flags/narrow` (level 155; the real server's update-message-flags-for-narrow
 * page): against a model of the window `GET /messages` would return (anchor `oldest`, `newest`,
 * `first_unread` or an ID; `num_before`, `num_after`, `include_anchor`), the answer's counts, IDs
 * and `found_*` flags are exact, the flags read back match, and each request sends one
 * `update_message_flags` event listing the messages that changed. Bad parameters are refused.
 */
import fc from 'fast-check';
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { drainQueues } from '../support/event-waits.js';
import { createChannel, sendToChannel } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';
import { conversationRule, eventsSoFar, expectRefused, LEVEL, narrowMessages, ofType, ruleQueue, topicNarrow, viewMessage } from './message-flags-support.js';
import { type FlagState, type NarrowRequest, narrowWindow, requestParams } from './message-flags-narrow-model.js';

const ENDPOINT = 'POST /messages/flags/narrow';

const answerShape = v.object({
  processed_count: v.int({ min: 0 }),
  updated_count: v.int({ min: 0 }),
  first_processed_id: v.nullable(v.int()),
  last_processed_id: v.nullable(v.int()),
  found_oldest: v.bool(),
  found_newest: v.bool(),
  ignored_because_not_subscribed_channels: v.optional(v.array(v.int())),
});

const MESSAGES = 6;

/** A request on the topic's messages: the anchor by index (an ID of the topic, or the one after it) or by name. */
const request = fc.record({
  anchor: fc.oneof(
    fc.constantFrom('oldest', 'newest', 'first_unread'),
    fc.integer({ min: 0, max: MESSAGES - 1 }).map((index) => ({ index, offset: 0 })),
    fc.integer({ min: 0, max: MESSAGES - 1 }).map((index) => ({ index, offset: 1 })),
  ),
  numBefore: fc.integer({ min: 0, max: 4 }),
  numAfter: fc.integer({ min: 0, max: 4 }),
  includeAnchor: fc.boolean(),
  flag: fc.constantFrom('read', 'starred'),
  op: fc.constantFrom('add', 'remove') as fc.Arbitrary<'add' | 'remove'>,
});

const windowModel = conversationRule({
  id: 'message-flags-narrow/window-counts-and-flags-follow-model',
  title: 'the processed window (anchor oldest, newest, first_unread or an ID; num_before, num_after, include_anchor) is the one GET /messages would give: processed_count, updated_count, first/last_processed_id and found_oldest/found_newest are exact, the flags read back match, and one update_message_flags event lists the changed messages',
  section: 'api/update-message-flags-for-narrow; api/get-messages; changelog 155',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.FLAGS_NARROW },
}, async (ctx, { reader, channel, thread }) => {
  const { topic, ids } = await thread('flags-narrow', MESSAGES);
  const narrow = topicNarrow(channel, topic);
  const state = new Map<number, FlagState>(ids.map((id) => [id, { read: false, starred: false }]));
  const queue = await ruleQueue(ctx, reader, ['update_message_flags', 'drafts']);
  await drainQueues(reader, [queue]);
  await ctx.property('anchor x window x flag', [request], async (generated) => {
    const anchor = typeof generated.anchor === 'string' ? generated.anchor : ids[generated.anchor.index]! + generated.anchor.offset;
    const sent: NarrowRequest = { ...generated, anchor };
    const expected = narrowWindow(ids, state, sent);
    const reply = await reader.post('/messages/flags/narrow', { ...requestParams(sent), narrow });
    if (expected === 'refused') {
      expectRefused(reply, { status: 400, code: 'BAD_REQUEST' }, 'include_anchor=false with messages on both sides');
    } else {
      const body = expectShape(expectSuccess(reply), answerShape, 'body', reply);
      const got = [body.processed_count, body.updated_count, body.first_processed_id, body.last_processed_id, body.found_oldest, body.found_newest];
      const want = [expected.processed.length, expected.changed.length, expected.processed[0] ?? null, expected.processed.at(-1) ?? null, expected.foundOldest, expected.foundNewest];
      expectEqual(got, want, '[processed_count, updated_count, first_processed_id, last_processed_id, found_oldest, found_newest]', reply);
      if (body.ignored_because_not_subscribed_channels !== undefined) expectEqual(body.ignored_because_not_subscribed_channels, [], 'ignored_because_not_subscribed_channels', reply);
      const events = ofType(await eventsSoFar(reader, queue, (got) => got.some((event) => event.type === 'update_message_flags')), 'update_message_flags');
      expectEqual(events.map((event) => [event.op, event.flag, event.messages]), [[sent.op, sent.flag, expected.changed]], 'update_message_flags events of the request');
      for (const id of expected.changed) state.get(id)![sent.flag === 'read' ? 'read' : 'starred'] = sent.op === 'add';
    }
    const seen = await narrowMessages(reader, narrow);
    expectEqual(
      seen.map((m) => [m.id, m.flags.includes('read'), m.flags.includes('starred')]),
      ids.map((id) => [id, state.get(id)!.read, state.get(id)!.starred]),
      '[id, read, starred] of the topic read back',
    );
  }, { maxRuns: 12 });
});

/** Requests the endpoint refuses, each with its error code. */
const REFUSED: ReadonlyArray<readonly [what: string, change: Readonly<Record<string, unknown>>, omit: string | undefined, code: string]> = [
  ['anchor excluded with messages on both sides', { include_anchor: false }, undefined, 'BAD_REQUEST'],
  ['an anchor that is no ID or keyword', { anchor: 'soonest' }, undefined, 'BAD_REQUEST'],
  ['a negative num_before', { num_before: -1 }, undefined, 'BAD_REQUEST'],
  ['num_after not an integer', { num_after: '1.5' }, undefined, 'BAD_REQUEST'],
  ['a malformed narrow', { narrow: '[[]]' }, undefined, 'BAD_REQUEST'],
  ['a flag only the server sets', { flag: 'mentioned' }, undefined, 'BAD_REQUEST'],
  ['an unknown flag', { flag: 'no_such_flag' }, undefined, 'BAD_REQUEST'],
  ['an unknown operation', { op: 'toggle' }, undefined, 'BAD_REQUEST'],
  ['no anchor', {}, 'anchor', 'REQUEST_VARIABLE_MISSING'],
  ['no num_before', {}, 'num_before', 'REQUEST_VARIABLE_MISSING'],
  ['no narrow', {}, 'narrow', 'REQUEST_VARIABLE_MISSING'],
  ['no op', {}, 'op', 'REQUEST_VARIABLE_MISSING'],
  ['no flag', {}, 'flag', 'REQUEST_VARIABLE_MISSING'],
];

const refused = conversationRule({
  id: 'message-flags-narrow/bad-parameters-refused',
  title: 'an anchor excluded in the middle of the range, an anchor that is no ID or keyword, a negative or non-integer count, a malformed narrow, a flag only the server sets, an unknown flag or operation, and each missing parameter are refused with their 400 code and change nothing',
  section: 'api/update-message-flags-for-narrow; api/rest-error-handling',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.FLAGS_NARROW },
  actor: 'admin',
}, async (_ctx, { reader, channel, thread }) => {
  const { topic, ids } = await thread('flags-narrow-refused', 2);
  const valid: Record<string, unknown> = { anchor: String(ids[0]), num_before: 1, num_after: 1, include_anchor: true, narrow: topicNarrow(channel, topic), op: 'add', flag: 'starred' };
  for (const [what, change, omit, code] of REFUSED) {
    const params = Object.fromEntries(Object.entries({ ...valid, ...change }).filter(([name]) => name !== omit));
    expectRefused(await reader.post('/messages/flags/narrow', params), { status: 400, code }, what);
  }
  for (const id of ids) check(!(await viewMessage(reader, id)).flags.includes('starred'), `a refused request starred message ${id}`);
});

const unsubscribed = conversationRule({
  id: 'message-flags-narrow/unsubscribed-public-channel',
  title: "in a public channel the caller is not subscribed to, starring by narrow processes and updates every message (historical rows); marking unread processes them, updates none and lists the channel (level 355)",
  section: 'api/update-message-flags-for-narrow; changelog 355',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.FLAGS_NARROW },
}, async (ctx, { sender, reader }) => {
  const open = await createChannel(ctx, 'admin', 'narrow-open', { members: ['member'] });
  const topic = ctx.name('outside');
  const ids = [await sendToChannel(sender, open.id, topic, 'one'), await sendToChannel(sender, open.id, topic, 'two')];
  const call = async (op: string, flag: string) => {
    const reply = await reader.post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 10, narrow: topicNarrow(open, topic), op, flag });
    return { reply, body: expectShape(expectSuccess(reply), answerShape, 'body', reply) };
  };
  const star = await call('add', 'starred');
  expectEqual([star.body.processed_count, star.body.updated_count], [2, 2], '[processed_count, updated_count] starring', star.reply);
  const unread = await call('remove', 'read');
  expectEqual([unread.body.processed_count, unread.body.updated_count], [2, 0], '[processed_count, updated_count] marking unread', unread.reply);
  if (ctx.featureLevel >= LEVEL.IGNORED_CHANNELS) expectEqual(unread.body.ignored_because_not_subscribed_channels, [open.id], 'ignored_because_not_subscribed_channels', unread.reply);
  for (const id of ids) expectEqual([...(await viewMessage(reader, id)).flags].sort(), ['historical', 'read', 'starred'], `flags of message ${id}`);
});

const noCredentials = credentialsRequired({
  id: 'message-flags-narrow/no-credentials-unauthorized',
  endpoint: ENDPOINT,
  section: 'api/update-message-flags-for-narrow',
  levels: { min: LEVEL.FLAGS_NARROW },
  requests: [['POST', '/messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [], op: 'add', flag: 'read' }]],
});

export const rules: readonly Rule[] = [windowModel, refused, unsubscribed, noCredentials];
