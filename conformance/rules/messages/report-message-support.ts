/**
 * What the reporting rules (section 4.14, level 382) share: the report types and description
 * limit, a moderation request channel of the run (set as an administrator and restored, read
 * back, after the rule), the message the member reports, and the skeleton of a rule that reports.
 */
import type { ApiClient } from '../../client/api-client.js';
import { expectSuccess } from '../../expect/assert.js';
import { createChannel, fetchState, type RunChannel, runChannel, sendToChannel } from '../support/message-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

/** Level 382: reporting messages. */
export const REPORT_LEVEL = 382;
/** Every `report_type` of section 4.14. */
export const REPORT_TYPES = ['spam', 'harassment', 'inappropriate', 'norms', 'other'] as const;
/** Section 8: clients limit the description to 1000 characters; the server refuses longer ones. */
export const DESCRIPTION_LIMIT = 1000;
/** What the reporting rules need: the administrator sets the moderation channel, the second member is reported. */
export const NEEDS = ['admin', 'member', 'second-member'] as const;

/** The realm's moderation request channel ID, -1 when there is none (FL 331). */
export async function moderationChannelId(client: ApiClient): Promise<number> {
  const state = await fetchState(client, ['realm']);
  const id = state.realm_moderation_request_channel_id;
  return typeof id === 'number' ? id : -1;
}

/**
 * A private channel of the run set as the moderation request channel (section 4.14), the
 * previous setting restored when the rule ends (before the channel goes).
 */
export async function ownModerationChannel(ctx: RuleContext): Promise<RunChannel> {
  const admin = ctx.as('admin');
  const previous = await moderationChannelId(admin);
  const channel = await createChannel(ctx, 'admin', 'moderation', { inviteOnly: true });
  ctx.cleanup(`restore the moderation request channel (realm setting moderation_request_channel_id = ${previous})`, async (c) => {
    const reply = await c.as('admin').patch('/realm', { moderation_request_channel_id: previous });
    if (reply.status !== 200) throw new Error(`PATCH /realm answered HTTP ${reply.status} ${reply.text.slice(0, 200)}`);
    // Read back: a restore that did not take leaves every member's reports going to the run's channel.
    const now = await moderationChannelId(c.as('admin'));
    if (now !== previous) throw new Error(`moderation_request_channel_id is ${now} after the restore, expected ${previous}`);
  });
  expectSuccess(await admin.patch('/realm', { moderation_request_channel_id: channel.id }));
  return channel;
}

/** A message the second member sent to the run channel, in a topic of its own (the member is subscribed too). */
export async function reportedMessage(ctx: RuleContext): Promise<{ id: number; content: string }> {
  const channel = await runChannel(ctx);
  const content = ctx.name('reported-content');
  return { id: await sendToChannel(ctx.as('second-member'), channel.id, ctx.name('topic'), content), content };
}

/** Both fixtures: reporting works and there is something to report. */
export async function reportingSetup(ctx: RuleContext): Promise<{ moderation: RunChannel; message: { id: number; content: string } }> {
  const moderation = await ownModerationChannel(ctx);
  return { moderation, message: await reportedMessage(ctx) };
}

/** The member reports message `messageId` with these parameters. */
export const report = (ctx: RuleContext, messageId: number, params: Record<string, unknown> | ReadonlyArray<readonly [string, unknown]>) =>
  ctx.as('member').post(`/messages/${messageId}/report`, params);

/**
 * A realm-wide reporting rule: before its body, the run's moderation request channel is set (and
 * restored after the rule) and the second member has sent the message to report.
 */
export function reportingRule(header: RuleHeader, body: (ctx: RuleContext, setup: { moderation: RunChannel; message: { id: number; content: string } }) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: 'POST /messages/{message_id}/report', levels: { min: REPORT_LEVEL }, writes: true, realmWide: true, needs: NEEDS }, reportingSetup, body);
}
