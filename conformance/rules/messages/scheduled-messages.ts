/**
 * Scheduled messages: `GET /scheduled_messages` and `DELETE /scheduled_messages/{id}` (level 173),
 * `POST /scheduled_messages` (179), `failed` (181), `PATCH /scheduled_messages/{id}` (184). The
 * member schedules channel messages in the run channel a week or more ahead (never delivered
 * during a run) and deletes each in cleanup; "now" is the server's clock, read from a message's timestamp.
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import { check, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { expectUnauthorized } from '../conventions/credentials-required.js';
import { FAR_ID_FLOOR, runChannel, sendToChannel } from '../support/message-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

const LIST_LEVEL = 173;
const CREATE_LEVEL = 179;
const FAILED_LEVEL = 181;
const EDIT_LEVEL = 184;
const DAY = 24 * 60 * 60;
const NOT_FOUND = 'Scheduled message does not exist';

interface Fixture {
  readonly channelId: number;
  readonly topic: string;
  /** The server's time (UNIX seconds) when the fixture was made. */
  readonly now: number;
}

async function prepare(ctx: RuleContext): Promise<Fixture> {
  const channel = await runChannel(ctx);
  const member = ctx.as('member');
  const topic = ctx.name('topic');
  const id = await sendToChannel(member, channel.id, topic, ctx.name('clock'));
  const reply = await member.get(`/messages/${id}`);
  const { message } = expectShape(expectSuccess(reply), v.object({ message: v.object({ timestamp: v.int() }) }), 'body', reply);
  return { channelId: channel.id, topic, now: message.timestamp };
}

const memberRule = (header: RuleHeader & { readonly endpoint: string; readonly levels: { readonly min: number } }, body: (ctx: RuleContext, f: Fixture, member: ApiClient) => Promise<void>): Rule =>
  fixtureRule(header, { endpoint: header.endpoint, writes: true, needs: ['admin', 'member'] }, prepare, (ctx, f) => body(ctx, f, ctx.as('member')));

function expectErrorText(reply: Reply, status: number, msg: string): void {
  const body = expectError(reply, { status, code: 'BAD_REQUEST' });
  check(body.msg === msg, `msg: expected ${JSON.stringify(msg)}, got ${JSON.stringify(body.msg)}`, reply);
}

async function schedule(ctx: RuleContext, client: ApiClient, f: Fixture, at: number, content: string): Promise<number> {
  const reply = await client.post('/scheduled_messages', { type: 'stream', to: String(f.channelId), topic: f.topic, content, scheduled_delivery_timestamp: at });
  const { scheduled_message_id: id } = expectShape(expectSuccess(reply), v.object({ scheduled_message_id: v.int({ min: 1 }) }), 'body', reply);
  ctx.cleanup(`delete scheduled message ${id}`, async (c) => {
    await c.as('member').delete(`/scheduled_messages/${id}`);
  });
  return id;
}

async function listed(client: ApiClient, id: number): Promise<Record<string, unknown> | undefined> {
  const reply = await client.get('/scheduled_messages');
  const body = expectShape(expectSuccess(reply), v.object({ scheduled_messages: v.array(v.object({ scheduled_message_id: v.int() })) }), 'body', reply);
  return (body.scheduled_messages as Array<Record<string, unknown>>).find((item) => item.scheduled_message_id === id);
}

const noCredentials: Rule = {
  id: 'scheduled-messages/no-credentials-unauthorized',
  title: 'listing, creating, editing and deleting scheduled messages without credentials answer 401 UNAUTHORIZED',
  endpoint: 'GET /scheduled_messages',
  section: '5.4',
  levels: { min: LIST_LEVEL },
  writes: false,
  async run(ctx) {
    expectUnauthorized(await ctx.anonymous.get('/scheduled_messages'));
    expectUnauthorized(await ctx.anonymous.delete('/scheduled_messages/1'));
    if (ctx.featureLevel >= CREATE_LEVEL) expectUnauthorized(await ctx.anonymous.post('/scheduled_messages', { type: 'stream', to: '1', topic: 't', content: 'c', scheduled_delivery_timestamp: 2 ** 31 - 1 }));
    if (ctx.featureLevel >= EDIT_LEVEL) expectUnauthorized(await ctx.anonymous.patch('/scheduled_messages/1', { content: 'c' }));
  },
};

const lifecycle = memberRule({
  id: 'scheduled-messages/scheduled-listed-edited-deleted',
  title: 'a scheduled channel message is listed with its fields, an edit changes the listed content, and a deleted one is no longer listed; deleting it again answers 404',
  endpoint: 'POST /scheduled_messages',
  section: 'scheduled messages',
  levels: { min: CREATE_LEVEL },
}, async (ctx, f, member) => {
  const at = f.now + 7 * DAY;
  const id = await schedule(ctx, member, f, at, 'later **on**');
  const item = await listed(member, id);
  check(item !== undefined, `scheduled message ${id} is not listed`);
  const expected: Record<string, unknown> = { type: 'stream', to: f.channelId, topic: f.topic, content: 'later **on**', scheduled_delivery_timestamp: at };
  if (ctx.featureLevel >= FAILED_LEVEL) expected.failed = false;
  for (const [key, value] of Object.entries(expected)) check(item[key] === value, `${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(item[key])}`);
  check(typeof item.rendered_content === 'string' && item.rendered_content.includes('<strong>on</strong>'), `rendered_content: got ${JSON.stringify(item.rendered_content)}`);
  if (ctx.featureLevel >= EDIT_LEVEL) {
    expectSuccess(await member.patch(`/scheduled_messages/${id}`, { content: 'edited', scheduled_delivery_timestamp: at + DAY }));
    const edited = await listed(member, id);
    check(edited?.content === 'edited' && edited.scheduled_delivery_timestamp === at + DAY, `after the edit: got ${JSON.stringify(edited)}`);
  }
  expectSuccess(await member.delete(`/scheduled_messages/${id}`));
  check((await listed(member, id)) === undefined, `deleted scheduled message ${id} is still listed`);
  expectErrorText(await member.delete(`/scheduled_messages/${id}`), 404, NOT_FOUND);
});

const pastRefused = memberRule({
  id: 'scheduled-messages/past-delivery-time-bad-request',
  title: 'a scheduled_delivery_timestamp at or before now answers 400 "Scheduled delivery time must be in the future." and schedules nothing',
  endpoint: 'POST /scheduled_messages',
  section: 'scheduled messages',
  levels: { min: CREATE_LEVEL },
}, async (ctx, f, member) => {
  const before = (await member.get('/scheduled_messages')).body?.scheduled_messages;
  for (const at of [f.now, f.now - 1, 0]) {
    const reply = await member.post('/scheduled_messages', { type: 'stream', to: String(f.channelId), topic: f.topic, content: 'never', scheduled_delivery_timestamp: at });
    expectErrorText(reply, 400, 'Scheduled delivery time must be in the future.');
  }
  const after = (await member.get('/scheduled_messages')).body?.scheduled_messages;
  check(JSON.stringify(after) === JSON.stringify(before), 'a refused scheduled message was listed');
});

const othersNotFound = memberRule({
  id: 'scheduled-messages/others-or-unknown-not-found',
  title: "another user never sees the member's scheduled message; editing or deleting it, or an unknown ID, answers 404 and leaves it",
  endpoint: 'DELETE /scheduled_messages/{scheduled_message_id}',
  section: 'scheduled messages; 7',
  levels: { min: CREATE_LEVEL },
  needs: ['second-member'],
}, async (ctx, f, member) => {
  const id = await schedule(ctx, member, f, f.now + 8 * DAY, 'mine');
  const other = ctx.as('second-member');
  check((await listed(other, id)) === undefined, `scheduled message ${id} is listed for another user`);
  for (const target of [id, FAR_ID_FLOOR + 7]) {
    expectErrorText(await other.delete(`/scheduled_messages/${target}`), 404, NOT_FOUND);
    if (ctx.featureLevel >= EDIT_LEVEL) expectErrorText(await other.patch(`/scheduled_messages/${target}`, { content: 'taken' }), 404, NOT_FOUND);
  }
  check((await listed(member, id))?.content === 'mine', `scheduled message ${id} changed or vanished`);
});

const editChecks = memberRule({
  id: 'scheduled-messages/edit-request-checks',
  title: 'an edit with nothing to change, a type without a recipient, or a past time answers 400 with the exact text',
  endpoint: 'PATCH /scheduled_messages/{scheduled_message_id}',
  section: 'scheduled messages',
  levels: { min: EDIT_LEVEL },
}, async (ctx, f, member) => {
  const id = await schedule(ctx, member, f, f.now + 9 * DAY, 'fixed');
  const cases: Array<[Record<string, unknown>, string]> = [
    [{}, 'Nothing to change'],
    [{ type: 'direct' }, 'Recipient required when updating type of scheduled message.'],
    [{ scheduled_delivery_timestamp: f.now }, 'Scheduled delivery time must be in the future.'],
  ];
  for (const [params, msg] of cases) expectErrorText(await member.patch(`/scheduled_messages/${id}`, params), 400, msg);
  check((await listed(member, id))?.content === 'fixed', 'a refused edit changed the scheduled message');
});

export const rules: readonly Rule[] = [noCredentials, lifecycle, pastRefused, othersNotFound, editChecks];
