/**
 * `POST /messages/{message_id}/report` (section 4.14, feature level 382). A member reports a
 * message the second member sent to a channel of the run. Rules that need reporting to work
 * point the realm's moderation request channel at a private channel of the run (an
 * administrator, `PATCH /realm`, restored in cleanup), so notifications never reach the
 * target's real moderators; they read the notification through an event queue registered
 * beforehand. The "not configured" rule runs only where the target has no such channel.
 */
import fc from 'fast-check';
import type { ApiClient } from '../../client/api-client.js';
import { check, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { byCodePoint, printableText, unknownParamName } from '../support/arbitraries.js';
import { expectUnauthorized } from '../conventions/credentials-required.js';
import { createChannel, FAR_ID_FLOOR, maxMessageId, sendToChannel } from '../support/message-fixtures.js';
import { DESCRIPTION_LIMIT, moderationChannelId, NEEDS, ownModerationChannel, report, REPORT_LEVEL, REPORT_TYPES, reportedMessage, reportingRule } from './report-message-support.js';
import type { Rule } from '../types.js';
import { EVENT_DEADLINE_MS } from '../support/event-waits.js';

/** Strings of exactly `length` code points (the server counts characters, not UTF-16 units). */
const textOfLength = (min: number, max: number) => fc.string({ unit: fc.constantFrom('a', 'Z', ' ', 'é', '字', '😀', '\n'), minLength: min, maxLength: max }).filter((text) => text.trim() !== '');

const noCredentials: Rule = {
  id: 'report-message/no-credentials-unauthorized',
  title: 'reporting a message without credentials answers 401 UNAUTHORIZED',
  endpoint: 'POST /messages/{message_id}/report',
  section: '4.14; 5.4',
  levels: { min: REPORT_LEVEL },
  writes: false,
  async run(ctx) {
    await ctx.property('message IDs x report types', [fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(...REPORT_TYPES)], async (id, type) => {
      expectUnauthorized(await ctx.anonymous.post(`/messages/${id}/report`, { report_type: type, description: 'x' }));
    }, { maxRuns: 5 });
  },
};

const invalidType = reportingRule({
  id: 'report-message/invalid-report-type-bad-request',
  title: "a report_type other than spam, harassment, inappropriate, norms or other answers 400 BAD_REQUEST; none at all, 400 REQUEST_VARIABLE_MISSING",
  section: '4.14',
}, async (ctx, { message }) => {
  const missing = expectError(await report(ctx, message.id, { description: 'x' }), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
  check(missing.var_name === 'report_type', `var_name: expected "report_type", got ${JSON.stringify(missing.var_name)}`);
  const type = fc.oneof(fc.constantFrom('Spam', 'SPAM', 'spam ', ' other', 'abuse', '', '"spam"', '["spam"]'), printableText(12)).filter((text) => !(REPORT_TYPES as readonly string[]).includes(text));
  await ctx.property('report types', [type, fc.option(printableText(30), { nil: undefined })], async (reportType, description) => {
    expectError(await report(ctx, message.id, { report_type: reportType, description }), { status: 400, code: 'BAD_REQUEST' });
  });
});

const otherNeedsDescription = reportingRule({
  id: 'report-message/other-requires-description',
  title: "report_type 'other' without a description, or with an empty one, answers 400 BAD_REQUEST; with a description it is accepted",
  section: '4.14',
}, async (ctx, { message }) => {
  for (const params of [{ report_type: 'other' }, { report_type: 'other', description: '' }]) {
    expectError(await report(ctx, message.id, params), { status: 400, code: 'BAD_REQUEST' });
  }
  await ctx.property('non-empty descriptions', [textOfLength(1, 40)], async (description) => {
    expectSuccess(await report(ctx, message.id, { report_type: 'other', description }), { ignored: [] });
  }, { maxRuns: 3 });
});

const descriptionLimit = reportingRule({
  id: 'report-message/description-limit-1000',
  title: 'a description of up to 1000 characters is accepted and one of 1001 or more answers 400 BAD_REQUEST',
  section: '4.14; 8',
}, async (ctx, { message }) => {
  const type = fc.constantFrom(...REPORT_TYPES);
  // Exactly at the limit, counted in characters: astral ones are two UTF-16 units each.
  expectSuccess(await report(ctx, message.id, { report_type: 'spam', description: '😀'.repeat(DESCRIPTION_LIMIT) }));
  await ctx.property('over the limit', [type, textOfLength(DESCRIPTION_LIMIT + 1, DESCRIPTION_LIMIT + 60)], async (reportType, description) => {
    expectError(await report(ctx, message.id, { report_type: reportType, description }), { status: 400, code: 'BAD_REQUEST' });
  }, { maxRuns: 8 });
  await ctx.property('within the limit', [type, textOfLength(DESCRIPTION_LIMIT - 20, DESCRIPTION_LIMIT)], async (reportType, description) => {
    expectSuccess(await report(ctx, message.id, { report_type: reportType, description }));
  }, { maxRuns: 3 });
});

const notConfigured: Rule = {
  id: 'report-message/no-moderation-channel-bad-request',
  title: 'reporting when the organization has no moderation request channel answers 400 BAD_REQUEST',
  endpoint: 'POST /messages/{message_id}/report',
  section: '4.14; 7',
  levels: { min: REPORT_LEVEL },
  writes: true,
  needs: NEEDS,
  async run(ctx) {
    if ((await moderationChannelId(ctx.as('member'))) !== -1) ctx.skip('the target has a moderation request channel configured');
    const message = await reportedMessage(ctx);
    await ctx.property('valid reports', [fc.constantFrom(...REPORT_TYPES), textOfLength(1, 30)], async (reportType, description) => {
      expectError(await report(ctx, message.id, { report_type: reportType, description }), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 5 });
  },
};

const inaccessible: Rule = {
  id: 'report-message/unknown-or-inaccessible-message-bad-request',
  title: 'reporting a message that does not exist, or one in a private channel the reporter is not in, answers 400 BAD_REQUEST',
  endpoint: 'POST /messages/{message_id}/report',
  section: '4.14; 7',
  levels: { min: REPORT_LEVEL },
  writes: true,
  realmWide: true,
  needs: NEEDS,
  async run(ctx) {
    await ownModerationChannel(ctx);
    const secret = await createChannel(ctx, 'admin', 'report-private', { inviteOnly: true, members: ['second-member'] });
    const hidden = await sendToChannel(ctx.as('second-member'), secret.id, ctx.name('topic'), ctx.name('hidden'));
    const floor = Math.max(FAR_ID_FLOOR, (await maxMessageId(ctx.as('admin'))) + 1);
    const target = fc.oneof(fc.constant(hidden), fc.integer({ min: floor, max: 2 ** 31 - 1 }));
    await ctx.property('message IDs x report types', [target, fc.constantFrom(...REPORT_TYPES)], async (id, reportType) => {
      expectError(await report(ctx, id, { report_type: reportType, description: 'x' }), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 8 });
  },
};

const ignoredReported = reportingRule({
  id: 'report-message/unknown-parameters-reported',
  title: 'a successful report lists unknown parameters, sorted, in ignored_parameters_unsupported',
  section: '1 convention 4; 4.14',
}, async (ctx, { message }) => {
  const declared = ['message_id', 'report_type', 'description'];
  await ctx.property('unknown names', [fc.uniqueArray(unknownParamName(declared), { minLength: 1, maxLength: 3 })], async (names) => {
    const reply = await report(ctx, message.id, [['report_type', 'spam'], ...names.map((name) => [name, 'x'] as const)]);
    expectSuccess(reply, { ignored: [...names].sort(byCodePoint) });
  }, { maxRuns: 3 });
});

const eventsShape = v.object({ events: v.array(v.object({ type: v.string() })) });
const messageEvent = v.object({ type: v.literal('message'), message: v.object({ type: v.string(), content: v.string(), stream_id: v.optional(v.int()), subject: v.optional(v.string()) }) });

/**
 * Polls the queue (without blocking) until `found` accepts an event, or the deadline passes. The
 * last acknowledged event ID is kept per queue across calls: acknowledging events discards them,
 * so polling again from -1 would be refused.
 */
const lastSeen = new Map<string, number>();
async function pollFor(client: ApiClient, queueId: string, found: (event: Readonly<Record<string, unknown>>) => boolean): Promise<Readonly<Record<string, unknown>> | undefined> {
  // The notification is posted during the report request; on a production server its event trails it.
  const end = Date.now() + EVENT_DEADLINE_MS;
  for (let pause = 25; ; pause = Math.min(pause * 2, 250)) {
    const reply = await client.get('/events', { queue_id: queueId, last_event_id: lastSeen.get(queueId) ?? -1, dont_block: true });
    const { events } = expectShape(expectSuccess(reply), eventsShape, 'body', reply);
    for (const event of events as ReadonlyArray<Readonly<Record<string, unknown>>>) {
      if (typeof event.id === 'number') lastSeen.set(queueId, Math.max(lastSeen.get(queueId) ?? -1, event.id));
      if (found(event)) return event;
    }
    if (Date.now() >= end) return undefined;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

const notificationPosted = reportingRule({
  id: 'report-message/notification-posted-to-moderation-channel',
  title: 'a report posts a message to the moderation request channel, in a topic naming the reported user, quoting the message and the description',
  section: '4.14',
}, async (ctx, { moderation, message }) => {
  const admin = ctx.as('admin');
  const queue = await admin.post('/register', { event_types: ['message'], apply_markdown: false });
  const queueId = expectShape(expectSuccess(queue), v.object({ queue_id: v.string() }), 'body', queue).queue_id;
  ctx.cleanup('delete the event queue', async (c) => {
    await c.as('admin').delete('/events', { queue_id: queueId });
  });
  const reported = ctx.identity('second-member').fullName;
  await ctx.property('report types', [fc.constantFrom(...REPORT_TYPES)], async (reportType) => {
    const description = ctx.name('why');
    expectSuccess(await report(ctx, message.id, { report_type: reportType, description }), { ignored: [] });
    const event = await pollFor(admin, queueId, (candidate) => candidate.type === 'message' && (candidate.message as { content?: unknown } | undefined)?.content?.toString().includes(description) === true);
    if (!event) fail(`no message carrying the description ${JSON.stringify(description)} reached the moderation request channel`);
    const posted = expectShape(event, messageEvent, 'event').message;
    check(posted.type === 'stream' && posted.stream_id === moderation.id, `the notification went to ${posted.type} ${String(posted.stream_id)}, not to the moderation request channel ${moderation.id}`);
    check(posted.content.includes(message.content), 'the notification does not quote the reported message');
    check(posted.subject?.includes(reported) === true, `the notification topic ${JSON.stringify(posted.subject)} does not name the reported user ${JSON.stringify(reported)}`);
  }, { maxRuns: 5 });
});

export const rules: readonly Rule[] = [noCredentials, invalidType, otherNeedsDescription, descriptionLimit, notConfigured, inaccessible, ignoredReported, notificationPosted];
