/**
 * The realm's edit switches and time limits as `POST /register` publishes them
 * (`allow_message_editing`, `message_content_edit_limit_seconds`,
 * `move_messages_within_stream_limit_seconds`). A run cannot wait a real limit out, so the
 * limits are checked on a message of the member's that is already older than the limit plus the
 * real server's 20 seconds of grace: its content is "edited" to the same text and its topic to a
 * case variant of itself (the same conversation), so a correct server changes nothing and a
 * broken one nothing visible (the topic is restored after the rule). Without such a message the
 * rule is skipped.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { fetchState } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { expectEditSuccess } from './message-edit.js';
import { EDIT_LEVELS, editChannels, mustRead, QUIET, send, type StoredMessage } from './message-edit-support.js';
import { MoveRights } from './message-move-rights.js';

const ENDPOINT = 'PATCH /messages/{message_id}';
/** The real server's grace on every edit and move limit, and a margin for clock differences. */
const GRACE_SECONDS = 20;
const CLOCK_MARGIN_SECONDS = 300;

/** A limit in seconds, or null for none (0 meant none before level 138). */
function limitOf(state: JsonObject, key: string): number | null | undefined {
  const value = state[key];
  if (value === null || value === 0) return null;
  return typeof value === 'number' ? value : undefined;
}

/** The member's oldest own channel message older than `seconds` plus the grace, if any. */
async function oldOwnMessage(ctx: RuleContext, seconds: number): Promise<StoredMessage | undefined> {
  const member = ctx.as('member');
  const reply = await member.get('/messages', {
    anchor: 'oldest',
    num_before: 0,
    num_after: 20,
    narrow: [{ operator: 'sender', operand: ctx.identity('member').userId }],
    apply_markdown: false,
  });
  const messages = (expectSuccess(reply).messages ?? []) as JsonObject[];
  const now = Date.now() / 1000;
  const old = messages.find((m) => m.type === 'stream' && typeof m.timestamp === 'number' && now - m.timestamp > seconds + GRACE_SECONDS + CLOCK_MARGIN_SECONDS);
  return old === undefined ? undefined : mustRead(member, old.id as number);
}

/** The topic with the case of its letters swapped (undefined when it has none). */
function caseVariant(topic: string): string | undefined {
  const swapped = [...topic].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join('');
  return swapped === topic ? undefined : swapped;
}

const contentLimit: Rule = {
  id: 'message-edit/content-edit-time-limit',
  title: 'the sender may edit a message just sent; with a message_content_edit_limit_seconds published, a content edit of an own message older than the limit plus 20 seconds answers 400 BAD_REQUEST and the content stays',
  endpoint: ENDPOINT,
  section: 'api/update-message; api/register-queue (realm_message_content_edit_limit_seconds)',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const state = await fetchState(ctx.as('admin'), ['realm']);
    if (state.realm_allow_message_editing === false) return ctx.skip('the realm turned message editing off (realm_allow_message_editing is false)');
    const { open } = await editChannels(ctx);
    const fresh = await send(ctx.as('member'), open, ctx.name('topic'), ctx.name('original'));
    expectEditSuccess(ctx, await ctx.as('member').patch(`/messages/${fresh}`, { content: ctx.name('edited') }));
    const limit = limitOf(state, 'realm_message_content_edit_limit_seconds');
    if (limit === null || limit === undefined) return ctx.skip('the realm sets no message_content_edit_limit_seconds: a message just sent is all there is to check');
    const old = await oldOwnMessage(ctx, limit);
    if (old === undefined) return ctx.skip(`the member has no channel message older than message_content_edit_limit_seconds (${limit} s) plus the grace`);
    expectError(await ctx.as('member').patch(`/messages/${old.id}`, { content: old.content }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual((await mustRead(ctx.as('member'), old.id)).lastEditTimestamp, old.lastEditTimestamp, `last_edit_timestamp of message ${old.id} after the refused edit`);
  },
};

const topicLimit: Rule = {
  id: 'message-move/topic-move-time-limit-for-members',
  title: 'a member who may move topics (realm setting) cannot rename the topic of an own message older than move_messages_within_stream_limit_seconds plus 20 seconds: 400 BAD_REQUEST, topic unchanged',
  endpoint: ENDPOINT,
  section: 'api/update-message; api/register-queue (realm_move_messages_within_stream_limit_seconds, level 162; can_move_messages_between_topics_group, level 316)',
  levels: { min: EDIT_LEVELS.MOVE_TOPICS_GROUP },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { open } = await editChannels(ctx);
    const rights = await MoveRights.load(ctx, open);
    const limit = limitOf(rights.realm, 'realm_move_messages_within_stream_limit_seconds');
    if (limit === null || limit === undefined) return ctx.skip('the realm sets no move_messages_within_stream_limit_seconds');
    if ((await rights.moveTopics('member')) !== true) return ctx.skip('the member may not move topics: the limit cannot apply');
    const old = await oldOwnMessage(ctx, limit);
    const variant = old === undefined ? undefined : caseVariant(old.topic);
    if (old === undefined || variant === undefined) return ctx.skip(`the member has no channel message with a cased topic older than the limit (${limit} s) plus the grace`);
    ctx.cleanup(`restore the topic of message ${old.id} if the rename went through`, async (c) => {
      const now = (await readTopic(c.as('admin'), old.id)) ?? old.topic;
      if (now !== old.topic) expectSuccess(await c.as('admin').patch(`/messages/${old.id}`, { ...QUIET, topic: old.topic }));
    });
    expectError(await ctx.as('member').patch(`/messages/${old.id}`, { ...QUIET, topic: variant }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual((await mustRead(ctx.as('member'), old.id)).topic, old.topic, `topic of message ${old.id} after the refused rename`);
  },
};

async function readTopic(client: ApiClient, id: number): Promise<string | undefined> {
  return (await mustRead(client, id).catch(() => undefined))?.topic;
}

const editingOff: Rule = {
  id: 'message-edit/editing-disabled-refuses-content',
  title: 'with allow_message_editing false a content edit, even by the sender, answers 400 BAD_REQUEST (and, from level 351, so does the edit typing notification), while topic moves by those allowed still work from level 159; the setting is restored and read back',
  endpoint: ENDPOINT,
  section: 'api/update-message; api/register-queue (realm_allow_message_editing)',
  writes: true,
  realmWide: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const before = (await fetchState(admin, ['realm'])).realm_allow_message_editing;
    if (typeof before !== 'boolean') return ctx.skip('POST /register gives no realm_allow_message_editing');
    const { open } = await editChannels(ctx);
    const original = ctx.name('original');
    const id = await send(ctx.as('member'), open, ctx.name('topic'), original);
    ctx.cleanup('restore allow_message_editing', async (c) => {
      await c.as('admin').patch('/realm', { allow_message_editing: before });
      const now = (await fetchState(c.as('admin'), ['realm'])).realm_allow_message_editing;
      if (now !== before) throw new Error(`realm allow_message_editing left at ${JSON.stringify(now)}, was ${JSON.stringify(before)}`);
    });
    expectSuccess(await admin.patch('/realm', { allow_message_editing: false }));
    expectError(await ctx.as('member').patch(`/messages/${id}`, { content: ctx.name('edited') }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual((await mustRead(ctx.as('member'), id)).content, original, 'content after the refused edit');
    if (ctx.featureLevel >= EDIT_LEVELS.EDIT_TYPING) {
      const path = ctx.featureLevel >= EDIT_LEVELS.EDIT_TYPING_PATH ? `/messages/${id}/typing` : '/message_edit_typing';
      const params = ctx.featureLevel >= EDIT_LEVELS.EDIT_TYPING_PATH ? { op: 'start' } : { op: 'start', message_id: id };
      expectError(await ctx.as('member').post(path, params), { status: 400, code: 'BAD_REQUEST' });
    }
    if (ctx.featureLevel >= EDIT_LEVELS.TOPIC_EDIT_DECOUPLED) {
      const topic = ctx.name('topic');
      expectEditSuccess(ctx, await admin.patch(`/messages/${id}`, { ...QUIET, topic }));
      expectEqual((await mustRead(ctx.as('member'), id)).topic, topic, 'topic after the administrator renamed it with editing off');
    }
  },
};

export const rules: readonly Rule[] = [contentLimit, topicLimit, editingOff];
