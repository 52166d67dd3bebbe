/**
 * Message reminders (sections 3.5 and 4.17): `POST /reminders` (level 381, `note` since 415),
 * `GET /reminders` and `DELETE /reminders/{reminder_id}` (level 399). The member sets reminders
 * on its own message in a channel of the run; "now" is the server's clock, read from that
 * message's timestamp. Reminders are created a day or more ahead and deleted in cleanup where the
 * level allows (before 399 they cannot be deleted and are delivered to the member later).
 */
import fc from 'fast-check';
import { check, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { createReminder, deletePending, LIST_DELETE_LEVEL, listReminders, minutesAhead, type ReminderModel, reminderCommands, type ReminderReal, seedReminders } from '../../model/reminders.js';
import { byCodePoint, unknownParamName } from '../support/arbitraries.js';
import { expectUnauthorized } from '../conventions/credentials-required.js';
import { createChannel, FAR_ID_FLOOR, maxMessageId, sendToChannel } from '../support/message-fixtures.js';
import { createListed, DAY, deleteCreatedLater, deleteLater, NOTE_LEVEL, ownMessageRule, REMINDERS_LEVEL } from './reminders-support.js';
import type { Rule } from '../types.js';

const noCredentials: Rule = {
  id: 'reminders/no-credentials-unauthorized',
  title: 'creating, listing and deleting reminders without credentials answer 401 UNAUTHORIZED',
  endpoint: 'POST /reminders',
  section: '4.17; 5.4',
  levels: { min: REMINDERS_LEVEL },
  writes: false,
  async run(ctx) {
    expectUnauthorized(await ctx.anonymous.post('/reminders', { message_id: 1, scheduled_delivery_timestamp: 2 ** 31 - 1 }));
    if (ctx.featureLevel < LIST_DELETE_LEVEL) return;
    expectUnauthorized(await ctx.anonymous.get('/reminders'));
    expectUnauthorized(await ctx.anonymous.delete('/reminders/1'));
  },
};

const createReturnsId = ownMessageRule({
  id: 'reminders/create-returns-reminder-id',
  title: 'a reminder on a readable message for a future time returns a new reminder_id and lists unknown parameters as ignored',
  endpoint: 'POST /reminders',
  section: '2.10; 4.17',
  levels: { min: REMINDERS_LEVEL },
}, async (ctx, message, client) => {
  const seen = new Set<number>();
  const declared = ['message_id', 'scheduled_delivery_timestamp', 'note'];
  await ctx.property('delivery times x unknown parameters', [fc.integer({ min: DAY, max: 365 * DAY }), fc.uniqueArray(unknownParamName(declared), { maxLength: 2 })], async (ahead, names) => {
    const reply = await client.post('/reminders', [['message_id', message.id], ['scheduled_delivery_timestamp', message.now + ahead], ...names.map((name) => [name, 'x'] as const)]);
    const { reminder_id: id } = expectShape(expectSuccess(reply, { ignored: [...names].sort(byCodePoint) }), v.object({ reminder_id: v.int({ min: 1 }) }), 'body', reply);
    deleteLater(ctx, id);
    check(!seen.has(id), `reminder_id ${id} was returned twice`, reply);
    seen.add(id);
  }, { maxRuns: 3 });
});

const pastRefused = ownMessageRule({
  id: 'reminders/past-delivery-time-bad-request',
  title: 'a scheduled_delivery_timestamp that is not in the future answers 400 BAD_REQUEST and schedules nothing',
  endpoint: 'POST /reminders',
  section: '4.17',
  levels: { min: REMINDERS_LEVEL },
}, async (ctx, message, client) => {
  const past = fc.oneof(fc.integer({ min: 0, max: 10 * 365 * DAY }).map((ago) => message.now - ago), fc.integer({ min: -(2 ** 31), max: 0 }));
  await ctx.property('delivery times at or before the message was sent', [past], async (at) => {
    expectError(await client.post('/reminders', { message_id: message.id, scheduled_delivery_timestamp: at }), { status: 400, code: 'BAD_REQUEST' });
  }, { maxRuns: 10 });
  if (ctx.featureLevel >= LIST_DELETE_LEVEL) {
    const scheduled = (await listReminders(client)).filter((item) => item.reminder_target_message_id === message.id);
    check(scheduled.length === 0, `refused reminders were scheduled: ${scheduled.map((item) => item.reminder_id).join(', ')}`);
  }
});

const requiredParameters = ownMessageRule({
  id: 'reminders/message-and-time-parameters-required',
  title: 'leaving out message_id or scheduled_delivery_timestamp is accepted as documented (both optional) or answered 400 REQUEST_VARIABLE_MISSING naming one left out',
  endpoint: 'POST /reminders',
  section: '4.17',
  levels: { min: REMINDERS_LEVEL },
  deviation: 'reminder-required-parameters',
}, async (ctx, message, client) => {
  const full = { message_id: message.id, scheduled_delivery_timestamp: message.now + 2 * DAY };
  const subsets = fc.subarray(['message_id', 'scheduled_delivery_timestamp'] as const, { minLength: 1 });
  await ctx.property('parameters left out', [subsets], async (left) => {
    const params = Object.fromEntries(Object.entries(full).filter(([name]) => !(left as readonly string[]).includes(name)));
    const reply = await client.post('/reminders', params);
    if (reply.status === 200) {
      deleteCreatedLater(ctx, reply);
      return;
    }
    const body = expectError(reply, { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    check((left as readonly string[]).includes(String(body.var_name)), `var_name: expected one of ${left.join(', ')}, got ${JSON.stringify(body.var_name)}`, reply);
    ctx.deviation('reminder-required-parameters', `leaving out ${left.join(' and ')} answered 400 REQUEST_VARIABLE_MISSING (${String(body.var_name)})`);
  }, { maxRuns: 3 });
});

const inaccessibleMessage: Rule = {
  id: 'reminders/unknown-or-inaccessible-message-bad-request',
  title: 'a reminder on a message that does not exist, or in a private channel the caller is not in, answers 400 BAD_REQUEST',
  endpoint: 'POST /reminders',
  section: '4.17; 7',
  levels: { min: REMINDERS_LEVEL },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const secret = await createChannel(ctx, 'admin', 'remind-private', { inviteOnly: true });
    const hidden = await sendToChannel(ctx.as('admin'), secret.id, ctx.name('topic'), ctx.name('hidden'));
    const floor = Math.max(FAR_ID_FLOOR, (await maxMessageId(ctx.as('admin'))) + 1);
    const future = Math.floor(Date.now() / 1000) + 30 * DAY;
    await ctx.property('message IDs', [fc.oneof(fc.constant(hidden), fc.integer({ min: floor, max: 2 ** 31 - 1 }))], async (id) => {
      expectError(await ctx.as('member').post('/reminders', { message_id: id, scheduled_delivery_timestamp: future }), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 6 });
  },
};

const deleteNotFound = ownMessageRule({
  id: 'reminders/delete-unknown-or-others-not-found',
  title: "another user's reminders are never listed; deleting one, or an ID that does not exist, answers 404 BAD_REQUEST and leaves the reminder",
  endpoint: 'DELETE /reminders/{reminder_id}',
  section: '4.17; 7',
  levels: { min: LIST_DELETE_LEVEL },
  needs: ['second-member'],
}, async (ctx, message, client) => {
  const mine = await createReminder(client, message.id, message.now + 3 * DAY);
  deleteLater(ctx, mine);
  await ctx.property('IDs that are not the caller\'s', [fc.oneof(fc.constant(mine), fc.integer({ min: FAR_ID_FLOOR, max: 2 ** 31 - 1 }))], async (id) => {
    expectError(await ctx.as('second-member').delete(`/reminders/${id}`), { status: 404, code: 'BAD_REQUEST' });
  }, { maxRuns: 6 });
  check((await listReminders(client)).some((item) => item.reminder_id === mine), `reminder ${mine} vanished after another user tried to delete it`);
  check(!(await listReminders(ctx.as('second-member'))).some((item) => item.reminder_id === mine), `reminder ${mine} of the member is listed for the second member`);
});

const modelSequence = ownMessageRule({
  id: 'reminders/sequence-matches-model',
  title: "after any sequence of creates and deletes, GET /reminders lists exactly the run's pending reminders, by delivery time, and deleting one twice answers 404",
  endpoint: 'GET /reminders',
  section: '3.5; 4.17',
  levels: { min: LIST_DELETE_LEVEL },
}, async (ctx, message, client) => {
  const everCreated = new Set<number>();
  ctx.cleanup('delete the sequence reminders', async (c) => {
    const left = (await listReminders(c.as('member'))).filter((item) => everCreated.has(item.reminder_id));
    for (const item of left) await c.as('member').delete(`/reminders/${item.reminder_id}`);
  });
  await ctx.assert(
    'initial reminders x creates and deletes',
    fc.asyncProperty(fc.array(minutesAhead, { minLength: 1, maxLength: 2 }), fc.commands(reminderCommands, { maxCommands: 6 }), async (initial, sequence) => {
      const model: ReminderModel = { pending: new Map(), deleted: [] };
      const real: ReminderReal = { client, userId: ctx.identity('member').userId, messageId: message.id, now: message.now, everCreated };
      try {
        await seedReminders(model, real, initial);
        await fc.asyncModelRun(() => ({ model, real }), sequence);
      } finally {
        await deletePending(client, model);
      }
    }),
    { maxRuns: 10 },
  );
});

const noteInContent = ownMessageRule({
  id: 'reminders/note-included-in-content',
  title: 'a reminder created with a note carries that note in its content',
  endpoint: 'POST /reminders',
  section: '4.17',
  levels: { min: NOTE_LEVEL },
}, async (ctx, message, client) => {
  await ctx.property('notes', [fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ]{0,30}[A-Za-z0-9]$/)], async (text) => {
    const note = `${ctx.name('note')} ${text}`;
    const listed = await createListed(ctx, client, message.id, message.now + 5 * DAY, { note });
    check(listed.content.includes(note), `the content of reminder ${listed.reminder_id} does not carry the note ${JSON.stringify(note)}`);
  }, { maxRuns: 3 });
});

export const rules: readonly Rule[] = [noCredentials, createReturnsId, pastRefused, requiredParameters, inaccessibleMessage, deleteNotFound, modelSequence, noteInContent];
