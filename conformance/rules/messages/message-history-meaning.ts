/**
 * What the edit-history snapshots mean (sections 2.5, 4.10), every kind of edit on every run:
 * the first snapshot is the message as sent (sender, send time, nothing else), each later one
 * holds the state right after its edit with `prev_*` only for what changed, and
 * `content_html_diff` shows the inserted words as inserted and the removed ones as deleted. Who
 * may read it: every role that can read the message, not a guest outside the channel; and a realm
 * whose history policy is `none` shows none at all (level 358).
 */
import type { ApiClient } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type AppliedEdit, expectedHistory, historyProblems } from '../../model/edit-history.js';
import { createChannel, editHistoryPolicy, fetchState, FAR_ID_FLOOR, type RunChannel, sendToChannel } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';

const LEVELS = { MESSAGE_GET: 120, STREAM_FIELD: 118, POLICY: 358 } as const;
const QUIET = { send_notification_to_old_thread: false, send_notification_to_new_thread: false };
const DISABLED = 'Message edit history is disabled in this organization';

type Snapshot = Readonly<Record<string, unknown>>;
const historyShape = v.object({ message_history: v.array(v.object({ timestamp: v.int(), topic: v.string(), content: v.string() }), { minLength: 1 }) });

async function history(client: ApiClient, id: number): Promise<readonly Snapshot[]> {
  const reply = await client.get(`/messages/${id}/history`);
  return expectShape(expectSuccess(reply), historyShape, 'body', reply).message_history as readonly Snapshot[];
}

/** The texts inside `<span class="<cls>">...</span>` of a diff (markup inside them removed). */
function highlighted(diff: string, cls: string): string {
  return [...diff.matchAll(new RegExp(`<span class="${cls}">([\\s\\S]*?)</span>`, 'g'))].map((m) => (m[1] ?? '').replace(/<[^>]*>/g, '')).join(' ');
}

/** Skips a rule that edits content when the realm turned message editing off. */
async function requireEditing(ctx: RuleContext): Promise<void> {
  if ((await fetchState(ctx.as('admin'), ['realm'])).realm_allow_message_editing === false) ctx.skip('the realm turned message editing off (realm_allow_message_editing is false)');
}

type Kind = 'none' | 'content' | 'topic' | 'content+topic' | 'move' | 'move+topic';
const KINDS: readonly Kind[] = ['none', 'content', 'topic', 'content+topic', 'move', 'move+topic'];

/** Sends one message as the member and makes one edit of `kind`: content by the member, the rest by the administrator. */
async function editOnce(ctx: RuleContext, kind: Kind, channels: readonly [RunChannel, RunChannel]): Promise<{ id: number; words: [string, string]; expected: ReturnType<typeof expectedHistory> }> {
  const member = ctx.identity('member').userId;
  const admin = ctx.identity('admin').userId;
  const [oldWord, newWord] = [ctx.name('was'), ctx.name('now')];
  // Content + topic in one edit is the sender's (members may not rename others' topics everywhere).
  const sender = kind === 'content+topic' ? 'admin' : 'member';
  const original = { senderId: sender === 'admin' ? admin : member, content: `${oldWord} original text`, topic: ctx.name('topic'), channel: channels[0].id };
  const id = await sendToChannel(ctx.as(sender), original.channel, original.topic, original.content);
  const edits: AppliedEdit[] = [];
  if (kind !== 'none') {
    const editor = kind === 'content' ? 'member' : 'admin';
    const edit: { -readonly [K in keyof AppliedEdit]: AppliedEdit[K] } = { editorId: editor === 'admin' ? admin : member };
    const params: Record<string, unknown> = { ...QUIET };
    if (kind.startsWith('content')) params.content = edit.content = `${newWord} original text`;
    if (kind.endsWith('topic')) params.topic = edit.topic = ctx.name('topic');
    if (kind.startsWith('move')) params.stream_id = edit.channel = channels[1].id;
    expectSuccess(await ctx.as(editor).patch(`/messages/${id}`, params));
    edits.push(edit);
  }
  return { id, words: [oldWord, newWord], expected: expectedHistory(original, edits, 'all') };
}

const eachKind: Rule = {
  id: 'message-history/each-edit-kind-meaning',
  title: 'for a message never edited and for each kind of edit (content, topic, both, channel, channel and topic): the first snapshot is the message as sent, the second holds exactly what the edit changed, and content_html_diff marks the new words inserted and the old ones deleted',
  endpoint: 'GET /messages/{message_id}/history',
  section: '2.5; 4.10',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    if ((await editHistoryPolicy(ctx.as('admin'))) !== 'all') ctx.skip("the realm's edit-history policy is not 'all'");
    await requireEditing(ctx);
    const channels = [await createChannel(ctx, 'admin', 'meaning-a', { members: ['member'] }), await createChannel(ctx, 'admin', 'meaning-b', { members: ['member'] })] as const;
    for (const kind of KINDS) {
      const { id, words, expected } = await editOnce(ctx, kind, channels);
      const snapshots = await history(ctx.as('admin'), id);
      const problems = historyProblems(snapshots, expected, ctx.featureLevel >= LEVELS.STREAM_FIELD, true);
      if (problems.length > 0) fail(`edit kind '${kind}' (section 2.5):\n  - ${problems.join('\n  - ')}`);
      const first = snapshots[0]!;
      check(String(first.rendered_content).includes(words[0]), `edit kind '${kind}': the first snapshot's rendered_content does not show the original text: ${JSON.stringify(first.rendered_content)}`);
      if (ctx.featureLevel >= LEVELS.MESSAGE_GET) {
        const reply = await ctx.as('admin').get(`/messages/${id}`);
        const sent = expectShape(expectSuccess(reply), v.object({ message: v.object({ timestamp: v.int() }) }), 'body', reply).message.timestamp;
        expectEqual(first.timestamp, sent, `edit kind '${kind}': message_history[0].timestamp (the send time, GET /messages/{id} timestamp)`);
      }
      if (!kind.startsWith('content')) continue;
      const diff = String(snapshots[1]!.content_html_diff);
      check(highlighted(diff, 'highlight_text_inserted').includes(words[1]), `edit kind '${kind}': content_html_diff does not mark ${words[1]} as inserted: ${diff}`);
      check(highlighted(diff, 'highlight_text_deleted').includes(words[0]), `edit kind '${kind}': content_html_diff does not mark ${words[0]} as deleted: ${diff}`);
      check(!highlighted(diff, 'highlight_text_inserted').includes('original'), `edit kind '${kind}': content_html_diff marks unchanged words as inserted: ${diff}`);
    }
  },
};

const perRole: Rule = {
  id: 'message-history/access-per-role',
  title: 'the history of a message in a public channel is readable, identical, by every non-guest role whether subscribed or not; a guest outside the channel gets 400 BAD_REQUEST',
  endpoint: 'GET /messages/{message_id}/history',
  section: '4.10; 5.5; 7',
  writes: true,
  needs: ['admin', 'member', 'guest'],
  async run(ctx) {
    if ((await editHistoryPolicy(ctx.as('admin'))) === 'none') ctx.skip("the realm's edit-history policy is 'none'");
    await requireEditing(ctx);
    const channel = await createChannel(ctx, 'admin', 'hist-roles', { members: ['member'] });
    const id = await sendToChannel(ctx.as('member'), channel.id, ctx.name('topic'), ctx.name('content'));
    expectSuccess(await ctx.as('member').patch(`/messages/${id}`, { content: ctx.name('edited') }));
    const reference = await history(ctx.as('member'), id);
    for (const identity of ctx.identities) {
      const client = ctx.anonymous.withCredentials(identity.email, identity.apiKey);
      if (identity.role === 'guest') {
        expectError(await client.get(`/messages/${id}/history`), { status: 400, code: 'BAD_REQUEST' });
        continue;
      }
      expectEqual(await history(client, id), reference, `the history as seen by the ${identity.role} ${identity.email}`);
    }
  },
};

async function setPolicy(admin: ApiClient, policy: string): Promise<void> {
  expectSuccess(await admin.patch('/realm', { message_edit_history_visibility_policy: policy }));
}

const nonePolicy: Rule = {
  id: 'message-history/none-policy-disables-history',
  title: "with message_edit_history_visibility_policy 'none' every history request, even for an unknown message, answers 400 'Message edit history is disabled in this organization'; 'moves' hides content-only edits",
  endpoint: 'GET /messages/{message_id}/history',
  section: '4.10; 7',
  levels: { min: LEVELS.POLICY },
  writes: true,
  realmWide: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    await requireEditing(ctx);
    const admin = ctx.as('admin');
    const original = await editHistoryPolicy(admin);
    ctx.cleanup('restore the edit-history policy', async (c) => {
      await setPolicy(c.as('admin'), original);
      const now = (await fetchState(c.as('admin'), ['realm'])).realm_message_edit_history_visibility_policy;
      if (now !== original) throw new Error(`realm message_edit_history_visibility_policy left at ${JSON.stringify(now)}, was ${JSON.stringify(original)}`);
    });
    const channel = await createChannel(ctx, 'admin', 'hist-policy', { members: ['member'] });
    const id = await sendToChannel(ctx.as('member'), channel.id, ctx.name('topic'), ctx.name('content'));
    expectSuccess(await ctx.as('member').patch(`/messages/${id}`, { content: ctx.name('edited') }));
    await setPolicy(admin, 'none');
    for (const [who, messageId] of [['admin', id], ['member', id], ['member', FAR_ID_FLOOR + id]] as const) {
      const reply = await ctx.as(who).get(`/messages/${messageId}/history`);
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
      check(reply.body?.msg === DISABLED, `the ${who}'s request for message ${messageId}: msg should be ${JSON.stringify(DISABLED)}, got ${JSON.stringify(reply.body?.msg)}`, reply);
    }
    await setPolicy(admin, 'moves');
    expectEqual((await history(ctx.as('member'), id)).length, 1, "snapshots under 'moves' of a message whose one edit changed only its content");
    await setPolicy(admin, 'all');
    expectEqual((await history(ctx.as('member'), id)).length, 2, "snapshots under 'all' of a message edited once");
  },
};

export const rules: readonly Rule[] = [eachKind, perRole, nonePolicy];
