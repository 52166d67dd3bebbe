/**
 * `POST /mark_stream_as_read` and `POST /mark_all_as_read` (the real server's mark-stream-as-read
 * and mark-all-as-read pages): the caller's messages of one channel, or all of them, become read
 * for the caller alone, with one `update_message_flags` event (the channel's changed messages, or
 * `all: true`); the refusals of `mark_stream_as_read`. `mark_all_as_read` runs as a throwaway user
 * only: it reads every message of the caller, which a run identity could not undo. What a channel
 * or topic marks is in `message-flags-mark-scope.ts`.
 */
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { createChannels } from '../support/channel-fixtures.js';
import { drainQueues, eventsBeforeSentinel } from '../support/event-waits.js';
import { createChannel, FAR_ID_FLOOR, sendToChannel } from '../support/message-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { fixtureRule } from '../support/rule-factory.js';
import type { Rule } from '../types.js';
import { listedIds, unreadState } from './unread-support.js';
import { ascending, conversationRule, eventsSoFar, expectRefused, LEVEL, narrowMessages, ofType, postFlags, ruleQueue, sendDirect, viewMessage } from './message-flags-support.js';

/** The `update_message_flags` event that marks messages read (`op` from level 32). */
export const readEventShape = (level: number, all: boolean) =>
  v.object(
    {
      id: v.int(),
      type: v.literal('update_message_flags'),
      ...(level >= LEVEL.FLAG_EVENT_OP ? { op: v.literal('add') } : {}),
      operation: v.literal('add'),
      flag: v.literal('read'),
      messages: v.array(v.int()),
      all: v.literal(all),
    },
    { exact: true },
  );

export const isReadEvent = (event: { type?: unknown; flag?: unknown }): boolean => event.type === 'update_message_flags' && event.flag === 'read';

const refused = conversationRule({
  id: 'mark-stream-as-read/unknown-or-inaccessible-channel-refused',
  title: 'a channel ID no channel has or a private channel the caller is not in is refused with 400 BAD_REQUEST; a missing stream_id is REQUEST_VARIABLE_MISSING, one that is not a JSON integer BAD_REQUEST',
  section: 'api/mark-stream-as-read; api/rest-error-handling',
  endpoint: 'POST /mark_stream_as_read',
}, async (ctx, { reader }) => {
  const secret = await createChannel(ctx, 'admin', 'mark-secret', { inviteOnly: true, members: ['member'] });
  const rows: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
    ['an ID no channel has', { stream_id: FAR_ID_FLOOR + secret.id }, 'BAD_REQUEST'],
    ['a private channel the caller is not in', { stream_id: secret.id }, 'BAD_REQUEST'],
    ['no stream_id', {}, 'REQUEST_VARIABLE_MISSING'],
    ['a stream_id that is text', { stream_id: 'abc' }, 'BAD_REQUEST'],
    ['a stream_id that is a fraction', { stream_id: '1.5' }, 'BAD_REQUEST'],
  ];
  for (const [what, params, code] of rows) expectRefused(await reader.post('/mark_stream_as_read', params), { status: 400, code }, what);
});

const markAll = fixtureRule({
  id: 'mark-all-as-read/reads-every-message-of-the-caller',
  title: "mark_all_as_read reads the caller's channel and direct messages (a throwaway user's), not other users', answers complete: true (level 211) and sends one update_message_flags event with all: true and no IDs; unread_msgs then lists none of them",
  section: 'api/mark-all-as-read; api/get-events#update_message_flags-add; changelog 211',
  levels: { min: LEVEL.MESSAGE_OBJECT },
}, { endpoint: 'POST /mark_all_as_read', writes: true, needs: ['admin', 'member', 'throwaway-user'] }, async (ctx) => ctx.throwawayUser(), async (ctx, user) => {
  const admin = ctx.identity('admin').userId;
  const [channel] = await createChannels(ctx, 'admin', ['mark-all'], { principals: [admin, ctx.identity('member').userId, user.identity.userId] });
  const sender = ctx.as('member');
  const ids = [await sendToChannel(sender, channel!.streamId, ctx.name('all'), 'one'), await sendToChannel(sender, channel!.streamId, ctx.name('all'), 'two')];
  ids.push(await sendDirect(sender, [user.identity.userId], 'a direct message'));
  for (const id of ids) check(!(await viewMessage(user.client, id)).flags.includes('read'), `message ${id} is read before marking everything read`);
  const queue = await ruleQueue(ctx, user.client, ['update_message_flags', 'drafts']);
  const reply = await user.client.post('/mark_all_as_read');
  if (ctx.featureLevel >= LEVEL.MARK_ALL_COMPLETE) {
    expectShape(expectSuccess(reply, { ignored: [] }), v.object({ result: v.literal('success'), msg: v.literal(''), complete: v.literal(true) }, { exact: true }), 'body', reply);
  } else {
    expectPlainSuccess(reply);
  }
  const events = ofType(await eventsSoFar(user.client, queue, (got) => got.some(isReadEvent)), 'update_message_flags');
  expectEqual(events.length, 1, 'update_message_flags events of mark_all_as_read');
  expectEqual(expectShape(events[0], readEventShape(ctx.featureLevel, true), 'event').messages, [], 'messages of the event');
  for (const id of ids) check((await viewMessage(user.client, id)).flags.includes('read'), `message ${id} is not read after mark_all_as_read`);
  for (const id of ids.slice(0, 2)) check(!(await viewMessage(ctx.as('admin'), id)).flags.includes('read'), `message ${id} was marked read for the administrator too`);
  const listed = listedIds(await unreadState(user.client, ctx.featureLevel));
  expectEqual(ids.filter((id) => listed.has(id)), [], 'our messages still in unread_msgs');
});

export const rules: readonly Rule[] = [refused, markAll];
