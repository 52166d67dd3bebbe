/**
 * What the reminder rules (sections 3.5, 4.17) share: the levels, the member's own message to set
 * reminders on (with the server's "now"), the cleanup of each reminder a rule creates, creating
 * one and finding it listed, and the skeleton of a rule the member runs on its own message.
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import { check, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type ApiReminder, createReminder, LIST_DELETE_LEVEL, listReminders } from '../../model/reminders.js';
import { runChannel, sendToChannel } from '../support/message-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { FeatureRange, Rule, RuleContext } from '../types.js';

/** Level 381: creating reminders. */
export const REMINDERS_LEVEL = 381;
/** Level 415: the `note` of a reminder. */
export const NOTE_LEVEL = 415;
/** A day in seconds. */
export const DAY = 24 * 60 * 60;

/** The member's message the reminders are set on, and the server's time when it was sent. */
export interface OwnMessage {
  readonly id: number;
  readonly now: number;
}

/** The member's message in the run channel (a topic of its own), and the server's time when it was sent. */
export async function ownMessage(ctx: RuleContext): Promise<OwnMessage> {
  const channel = await runChannel(ctx);
  const member = ctx.as('member');
  const id = await sendToChannel(member, channel.id, ctx.name('topic'), ctx.name('remind-me'));
  const reply = await member.get(`/messages/${id}`);
  const { message } = expectShape(expectSuccess(reply), v.object({ message: v.object({ timestamp: v.int() }) }), 'body', reply);
  return { id, now: message.timestamp };
}

/** Deletes the reminder when the rule ends (possible since level 399). */
export function deleteLater(ctx: RuleContext, id: number): void {
  if (ctx.featureLevel < LIST_DELETE_LEVEL) {
    ctx.note(`reminder ${id} cannot be deleted below feature level ${LIST_DELETE_LEVEL}; it will be delivered to the member`);
    return;
  }
  ctx.cleanup(`delete reminder ${id}`, async (c) => {
    await c.as('member').delete(`/reminders/${id}`);
  });
}

/** A create the rule did not expect to succeed did: its reminder is deleted after the rule (its ID is returned). */
export function deleteCreatedLater(ctx: RuleContext, reply: Reply): number {
  const id = expectShape(expectSuccess(reply), v.object({ reminder_id: v.int({ min: 1 }) }), 'body', reply).reminder_id;
  deleteLater(ctx, id);
  return id;
}

/** Creates a reminder (deleted after the rule) and returns it as `GET /reminders` lists it; fails if it is not listed. */
export async function createListed(ctx: RuleContext, client: ApiClient, messageId: number, at: number, extra: Record<string, unknown> = {}, what = ''): Promise<ApiReminder> {
  const id = await createReminder(client, messageId, at, extra);
  deleteLater(ctx, id);
  const listed = (await listReminders(client)).find((item) => item.reminder_id === id);
  check(listed !== undefined, `reminder ${id}${what} is not listed`);
  return listed;
}

/** A reminder rule the member runs on its own message in the run channel (the administrator made the channel). */
export function ownMessageRule(header: RuleHeader & { readonly endpoint: string; readonly levels: FeatureRange }, body: (ctx: RuleContext, message: OwnMessage, member: ApiClient) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: header.endpoint, writes: true, needs: ['admin', 'member'] }, ownMessage, (ctx, message) => body(ctx, message, ctx.as('member')));
}
