/**
 * `GET /messages/{message_id}/history` (sections 2.5 and 4.10). The run sends messages to
 * channels it created, edits their content and topic (`PATCH /messages/{id}`), moves them between
 * two of its channels as an administrator, and compares the snapshots with a model of those
 * edits (conformance/model/edit-history.ts). A realm whose edit-history policy is `none` cannot
 * show snapshots: those rules are skipped with the reason.
 */
import fc from 'fast-check';
import type { ApiClient } from '../../client/api-client.js';
import { check, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type AppliedEdit, type ExpectedSnapshot, expectedHistory, type HistoryPolicy, historyProblems } from '../../model/edit-history.js';
import { byCodePoint, notJsonBoolean, unknownParamName } from '../support/arbitraries.js';
import { expectUnauthorized } from '../conventions/credentials-required.js';
import { createChannel, editHistoryPolicy, FAR_ID_FLOOR, fetchState, maxMessageId, type RunChannel, sendToChannel } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';

/** Levels of section 2.5 and 4.10 (behaviour reference 1.8). */
const LEVELS = { STREAM_FIELD: 118, IGNORED_EVERYWHERE: 167, EMPTY_TOPIC: 334, NO_TOPIC_ALIAS: 370 } as const;

const snapshotsShape = v.object({ message_history: v.array(v.object({ timestamp: v.int(), topic: v.string(), content: v.string() }), { minLength: 1 }) });

type Snapshots = ReadonlyArray<Readonly<Record<string, unknown>>>;

async function getHistory(client: ApiClient, messageId: number, params: Record<string, unknown> = {}): Promise<Snapshots> {
  const reply = await client.get(`/messages/${messageId}/history`, params);
  return expectShape(expectSuccess(reply), snapshotsShape, 'body', reply).message_history as Snapshots;
}

/** The policy to model, or a skip when the realm shows no history at all. */
async function usablePolicy(ctx: RuleContext): Promise<HistoryPolicy> {
  const policy = await editHistoryPolicy(ctx.as('admin'));
  if (policy === 'none') ctx.skip("the realm's message_edit_history_visibility_policy is 'none' (edit history disabled)");
  return policy === 'moves' ? 'moves' : 'all';
}

/** Content edits need message editing on: skip when the realm turned it off. */
async function requireEditing(ctx: RuleContext): Promise<void> {
  const state = await fetchState(ctx.as('admin'), ['realm']);
  if (state.realm_allow_message_editing === false) ctx.skip('the realm turned message editing off (realm_allow_message_editing is false)');
}

/** Two public channels of the run with the administrator and the member subscribed. */
async function twoChannels(ctx: RuleContext): Promise<[RunChannel, RunChannel]> {
  const members = ['member'] as const;
  return [await createChannel(ctx, 'admin', 'hist-a', { members }), await createChannel(ctx, 'admin', 'hist-b', { members })];
}

type Kind = 'content' | 'topic' | 'content+topic' | 'move' | 'move+topic';
type Sender = 'admin' | 'member';

/** Edits a sender may make: content edits are the sender's own; renames and moves the administrator's. */
const editKinds = (sender: Sender): fc.Arbitrary<Kind> =>
  sender === 'admin' ? fc.constantFrom<Kind>('content', 'topic', 'content+topic', 'move', 'move+topic') : fc.constantFrom<Kind>('content', 'topic', 'move', 'move+topic');

const PATCH_QUIET = { send_notification_to_old_thread: false, send_notification_to_new_thread: false };

const snapshotsFollowEdits: Rule = {
  id: 'message-history/snapshots-follow-edits',
  title: 'history lists the original then one snapshot per edit, oldest first, with prev_* only for what each edit changed and the editor as user_id',
  endpoint: 'GET /messages/{message_id}/history',
  section: '2.5; 4.10',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const policy = await usablePolicy(ctx);
    await requireEditing(ctx);
    const channels = await twoChannels(ctx);
    const ids = { admin: ctx.identity('admin').userId, member: ctx.identity('member').userId };
    const edits = fc.constantFrom<Sender>('admin', 'member').chain((sender) => fc.tuple(fc.constant(sender), fc.array(editKinds(sender), { maxLength: 4 })));
    await ctx.property(
      'sender x sequence of edits',
      [edits],
      async ([sender, kinds]) => {
        const original = { senderId: ids[sender], content: `${ctx.name('content')} *original*`, topic: ctx.name('topic'), channel: channels[0].id };
        const messageId = await sendToChannel(ctx.as(sender), original.channel, original.topic, original.content);
        const applied: AppliedEdit[] = [];
        let channel = original.channel;
        for (const kind of kinds) {
          const edit: { -readonly [K in keyof AppliedEdit]: AppliedEdit[K] } = { editorId: kind.startsWith('content') ? ids[sender] : ids.admin };
          const params: Record<string, unknown> = { ...PATCH_QUIET };
          if (kind.includes('content')) params.content = edit.content = `${ctx.name('edited')} **${kind}**`;
          if (kind.includes('topic')) params.topic = edit.topic = ctx.name('topic');
          if (kind.startsWith('move')) params.stream_id = edit.channel = channel = channel === channels[0].id ? channels[1].id : channels[0].id;
          expectSuccess(await ctx.as(kind.startsWith('content') ? sender : 'admin').patch(`/messages/${messageId}`, params));
          applied.push(edit);
        }
        const reply = await ctx.as('admin').get(`/messages/${messageId}/history`);
        const snapshots = expectShape(expectSuccess(reply, { ignored: [] }), snapshotsShape, 'body', reply).message_history as Snapshots;
        const problems = historyProblems(snapshots, expectedHistory(original, applied, policy), undefined, policy === 'all');
        if (problems.length > 0) fail(`section 2.5 (policy ${policy}):\n  - ${problems.slice(0, 12).join('\n  - ')}`, reply);
      },
      { maxRuns: 12 },
    );
  },
};

/** One message the administrator sent and then moved between the run's two channels: its history and the model's. */
async function movedOnce(ctx: RuleContext): Promise<{ snapshots: Snapshots; expected: ExpectedSnapshot[] }> {
  await usablePolicy(ctx);
  const [from, to] = await twoChannels(ctx);
  const admin = ctx.identity('admin').userId;
  const original = { senderId: admin, content: ctx.name('moved'), topic: ctx.name('topic'), channel: from.id };
  const messageId = await sendToChannel(ctx.as('admin'), from.id, original.topic, original.content);
  expectSuccess(await ctx.as('admin').patch(`/messages/${messageId}`, { ...PATCH_QUIET, stream_id: to.id }));
  return { snapshots: await getHistory(ctx.as('admin'), messageId), expected: expectedHistory(original, [{ editorId: admin, channel: to.id }], 'all') };
}

const moveCarriesStream: Rule = {
  id: 'message-history/channel-move-carries-stream-and-prev-stream',
  title: 'a snapshot of a channel move carries prev_stream (the old channel) and stream (the new one) since feature level 118',
  endpoint: 'GET /messages/{message_id}/history',
  section: '2.5',
  levels: { min: LEVELS.STREAM_FIELD },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { snapshots, expected } = await movedOnce(ctx);
    const problems = historyProblems(snapshots, expected, true, true);
    if (problems.length > 0) fail(`section 2.5:\n  - ${problems.join('\n  - ')}`);
  },
};

const moveWithoutStream: Rule = {
  id: 'message-history/channel-move-without-stream-before-118',
  title: 'before feature level 118 a snapshot of a channel move carries prev_stream but no stream',
  endpoint: 'GET /messages/{message_id}/history',
  section: '2.5',
  levels: { max: LEVELS.STREAM_FIELD - 1 },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { snapshots, expected } = await movedOnce(ctx);
    const problems = historyProblems(snapshots, expected, false, true);
    if (problems.length > 0) fail(`section 2.5:\n  - ${problems.join('\n  - ')}`);
  },
};

const emptyTopicDisplay: Rule = {
  id: 'message-history/empty-topic-shown-as-display-name',
  title: 'an empty topic reads as realm_empty_topic_display_name in topic and prev_topic unless allow_empty_topic_name is true, whichever alias it was sent as',
  endpoint: 'GET /messages/{message_id}/history',
  section: '4.10; 1 convention 6',
  levels: { min: LEVELS.EMPTY_TOPIC },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    await usablePolicy(ctx);
    const state = await fetchState(ctx.as('admin'), ['realm']);
    const display = state.realm_empty_topic_display_name;
    if (typeof display !== 'string') fail(`POST /register: realm_empty_topic_display_name must be a string since level ${LEVELS.EMPTY_TOPIC}, got ${JSON.stringify(display)}`);
    const [channel] = await twoChannels(ctx);
    const admin = ctx.as('admin');
    const aliases = ['', display, ...(ctx.featureLevel >= LEVELS.NO_TOPIC_ALIAS ? ['(no topic)'] : [])];
    // One message per alias, renamed once; created before the property (a refusal is a skip).
    const renamed = new Map<string, { id: number; topic: string }>();
    for (const sentAs of aliases) {
      const reply = await admin.post('/messages', { type: 'stream', to: channel.id, topic: sentAs, content: ctx.name('empty-topic') });
      if (reply.status !== 200) ctx.skip(`the target refuses a message to the empty topic (${String(reply.body?.code ?? reply.status)}); its topics policy may forbid it`);
      const id = expectShape(expectSuccess(reply), v.object({ id: v.int() }), 'body', reply).id;
      const topic = ctx.name('topic');
      expectSuccess(await admin.patch(`/messages/${id}`, { ...PATCH_QUIET, topic }));
      renamed.set(sentAs, { id, topic });
    }
    await ctx.property(
      'topic alias sent x allow_empty_topic_name',
      [fc.constantFrom(...aliases), fc.constantFrom<boolean | undefined>(undefined, false, true)],
      async (sentAs, allow) => {
        const { id, topic } = renamed.get(sentAs)!;
        const snapshots = await getHistory(ctx.as('member'), id, allow === undefined ? {} : { allow_empty_topic_name: allow });
        const shown = allow === true ? '' : display;
        check(snapshots.length === 2, `expected 2 snapshots (original, rename), got ${snapshots.length}`);
        check(snapshots[0]!.topic === shown, `message_history[0].topic: expected ${JSON.stringify(shown)}, got ${JSON.stringify(snapshots[0]!.topic)}`);
        check(snapshots[1]!.prev_topic === shown, `message_history[1].prev_topic: expected ${JSON.stringify(shown)}, got ${JSON.stringify(snapshots[1]!.prev_topic)}`);
        check(snapshots[1]!.topic === topic, `message_history[1].topic: expected ${JSON.stringify(topic)}, got ${JSON.stringify(snapshots[1]!.topic)}`);
      },
      { maxRuns: 9 },
    );
  },
};

/** A message of the run in a public channel of the run, for rules that need any readable message. */
async function ownMessage(ctx: RuleContext): Promise<number> {
  const [channel] = await twoChannels(ctx);
  return sendToChannel(ctx.as('member'), channel.id, ctx.name('topic'), ctx.name('content'));
}

const allowEmptyNotBoolean: Rule = {
  id: 'message-history/allow-empty-topic-name-not-boolean-bad-request',
  title: 'allow_empty_topic_name accepts JSON true/false and answers 400 BAD_REQUEST to anything else',
  endpoint: 'GET /messages/{message_id}/history',
  section: '4.10; 1 convention 2',
  levels: { min: LEVELS.EMPTY_TOPIC },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    await usablePolicy(ctx);
    const id = await ownMessage(ctx);
    const client = ctx.as('member');
    for (const value of ['true', 'false']) await getHistory(client, id, { allow_empty_topic_name: value });
    await ctx.property('non-boolean values', [notJsonBoolean()], async (value) => {
      expectError(await client.get(`/messages/${id}/history`, { allow_empty_topic_name: value }), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const unknownMessage: Rule = {
  id: 'message-history/unknown-message-bad-request',
  title: 'the history of a message ID that does not exist answers 400 BAD_REQUEST',
  endpoint: 'GET /messages/{message_id}/history',
  section: '4.10; 7',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const floor = Math.max(FAR_ID_FLOOR, (await maxMessageId(client)) + 1);
    await ctx.property('IDs above every message', [fc.integer({ min: floor, max: 2 ** 31 - 1 })], async (id) => {
      expectError(await client.get(`/messages/${id}/history`), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const inaccessibleMessage: Rule = {
  id: 'message-history/inaccessible-message-bad-request',
  title: 'the history of a message in a private channel the caller is not in answers 400 BAD_REQUEST, as for an unknown message',
  endpoint: 'GET /messages/{message_id}/history',
  section: '4.10; 7',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    await usablePolicy(ctx);
    const secret = await createChannel(ctx, 'admin', 'hist-private', { inviteOnly: true });
    const id = await sendToChannel(ctx.as('admin'), secret.id, ctx.name('topic'), ctx.name('secret'));
    await getHistory(ctx.as('admin'), id);
    await ctx.property('with and without allow_empty_topic_name', [fc.constantFrom<boolean | undefined>(undefined, false, true)], async (allow) => {
      const params = allow === undefined || ctx.featureLevel < LEVELS.EMPTY_TOPIC ? {} : { allow_empty_topic_name: allow };
      expectError(await ctx.as('member').get(`/messages/${id}/history`, params), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 3 });
  },
};

const noCredentials: Rule = {
  id: 'message-history/no-credentials-unauthorized',
  title: 'the history endpoint answers 401 UNAUTHORIZED without credentials',
  endpoint: 'GET /messages/{message_id}/history',
  section: '5.4',
  writes: false,
  async run(ctx) {
    await ctx.property('message IDs', [fc.integer({ min: 1, max: 2 ** 31 - 1 })], async (id) => {
      expectUnauthorized(await ctx.anonymous.get(`/messages/${id}/history`));
    }, { maxRuns: 5 });
  },
};

const ignoredReported: Rule = {
  id: 'message-history/unknown-parameters-reported',
  title: 'unknown parameters sent to the history endpoint are listed, sorted, in ignored_parameters_unsupported',
  endpoint: 'GET /messages/{message_id}/history',
  section: '1 convention 4; 9.3',
  levels: { min: LEVELS.IGNORED_EVERYWHERE },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    await usablePolicy(ctx);
    const id = await ownMessage(ctx);
    const declared = ['message_id', 'allow_empty_topic_name'];
    await ctx.property('unknown names', [fc.uniqueArray(unknownParamName(declared), { minLength: 1, maxLength: 4 })], async (names) => {
      const reply = await ctx.as('member').get(`/messages/${id}/history`, names.map((name) => [name, 'x'] as const));
      expectSuccess(reply, { ignored: [...names].sort(byCodePoint) });
    }, { maxRuns: 10 });
  },
};

export const rules: readonly Rule[] = [snapshotsFollowEdits, moveCarriesStream, moveWithoutStream, emptyTopicDisplay, allowEmptyNotBoolean, unknownMessage, inaccessibleMessage, noCredentials, ignoredReported];
