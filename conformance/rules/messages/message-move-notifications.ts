/**
 * The Notification Bot's notices after moves and (un)resolves: a notice in the old place exactly
 * when `send_notification_to_old_thread` asks (false by default from level 152), one in the new
 * place exactly when `send_notification_to_new_thread` asks (true by default; before level 152
 * both apply only to channel moves), each from a system bot and naming the other place in topic
 * link syntax (`#**channel>topic**`) and the mover as a silent mention. Resolving posts one
 * notice in the resolved topic and no "moved here" notice. The wording itself is translated and
 * not checked.
 */
import { check, expectEqual } from '../../expect/assert.js';
import type { RunChannel } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { expectEditSuccess } from './message-edit.js';
import { ascending, EDIT_LEVELS, editChannels, inPlace, newestIn, send, type StoredMessage, systemBotIds, topicMessages } from './message-edit-support.js';
import { MoveRights } from './message-move-rights.js';

const ENDPOINT = 'PATCH /messages/{message_id}';

interface NoticeRow {
  readonly kind: 'topic' | 'channel';
  /** The flags sent; an omitted one takes its default. */
  readonly old?: boolean;
  readonly new?: boolean;
}

const ROWS: readonly NoticeRow[] = (['topic', 'channel'] as const).flatMap((kind) => [
  { kind, old: true, new: true },
  { kind, old: true, new: false },
  { kind, old: false, new: true },
  { kind, old: false, new: false },
  { kind },
]);

const link = (channel: RunChannel, topic: string): string => `#**${channel.name}>${topic}**`;

/** The notices among `messages`: those a system bot sent. */
const notices = (messages: readonly StoredMessage[], bots: ReadonlySet<number>): StoredMessage[] => messages.filter((message) => bots.has(message.senderId));

/** Exactly `expected` notices (0 or 1) in one place; the one there names `other` and the mover. */
function checkPlace(found: readonly StoredMessage[], expected: boolean, other: string, moverId: number, where: string): void {
  expectEqual(found.length, expected ? 1 : 0, `Notification Bot notices in the ${where}`);
  const notice = found[0];
  if (notice === undefined) return;
  check(notice.content.includes(other), `the notice in the ${where} should name ${other}: ${JSON.stringify(notice.content)}`);
  check(notice.content.includes(`|${moverId}**`), `the notice in the ${where} should mention the mover (silent mention of user ${moverId}): ${JSON.stringify(notice.content)}`);
}

const noticesPerFlags: Rule = {
  id: 'message-move/notices-follow-notification-flags',
  title: 'after a topic move or a channel move, a Notification Bot notice appears in the old place exactly when send_notification_to_old_thread is true (default false from level 152) and in the new place exactly when send_notification_to_new_thread is true (default true); before level 152 a topic-only move posts none; each names the other place and the mover',
  endpoint: ENDPOINT,
  section: 'api/update-message (send_notification_to_old_thread, send_notification_to_new_thread)',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const { open, other } = await editChannels(ctx);
    const bots = await systemBotIds(ctx);
    const moverId = ctx.identity('admin').userId;
    const reader = ctx.as('member');
    for (const row of ROWS) {
      const topic = ctx.name('topic');
      const id = await send(ctx.as('second-member'), open, topic, ctx.name('content'));
      const to = row.kind === 'channel' ? other : open;
      const newTopic = row.kind === 'channel' ? topic : ctx.name('topic');
      const params: Record<string, unknown> = { propagate_mode: 'change_all', ...(row.kind === 'channel' ? { stream_id: other.id } : { topic: newTopic }) };
      if (row.old !== undefined) params.send_notification_to_old_thread = row.old;
      if (row.new !== undefined) params.send_notification_to_new_thread = row.new;
      expectEditSuccess(ctx, await ctx.as('admin').patch(`/messages/${id}`, params));
      const flagsApply = row.kind === 'channel' || ctx.featureLevel >= EDIT_LEVELS.NOTICES_FOR_TOPIC_MOVES;
      const old = flagsApply && (row.old ?? ctx.featureLevel < EDIT_LEVELS.NOTICES_FOR_TOPIC_MOVES);
      const fresh = flagsApply && (row.new ?? true);
      const label = `${row.kind} move with old=${String(row.old ?? 'default')}, new=${String(row.new ?? 'default')}`;
      // One read covers both places: the channel of a topic move, the topic name of a channel move.
      const both = await newestIn(reader, row.kind === 'channel' ? [{ operator: 'topic', operand: topic }] : [{ operator: 'stream', operand: open.name }], 20);
      const before = notices(inPlace(both, open, topic), bots);
      const after = inPlace(both, to, newTopic);
      checkPlace(before, old, link(to, newTopic), moverId, `old place (${label})`);
      checkPlace(notices(after, bots), fresh, link(open, topic), moverId, `new place (${label})`);
      check(after.some((message) => message.id === id), `the moved message ${id} is in the new place (${label})`);
    }
  },
};

/**
 * Who resolves in the rule: the first of these the target lets resolve topics in the channel;
 * before the rights are published (level 316), the administrator.
 */
async function resolver(ctx: RuleContext, channel: RunChannel): Promise<'admin' | 'moderator' | 'member'> {
  if (ctx.featureLevel < EDIT_LEVELS.MOVE_TOPICS_GROUP) return 'admin';
  const rights = await MoveRights.load(ctx, channel);
  for (const who of ['admin', 'moderator', 'member'] as const) if ((await rights.resolve(who)) === true) return who;
  return ctx.skip('none of the administrator, the moderator and the member may resolve topics in the run channel');
}

const resolveAndUnresolve: Rule = {
  id: 'message-move/resolve-and-unresolve-topic',
  title: "renaming a topic to '✔ ' + its name with change_all moves all its messages there and (level 152 on) posts exactly one Notification Bot notice, not a 'moved here' one, and none in the old topic; renaming it back moves them all back, with either an unresolve notice or (within the real server's undo grace period) the resolve notice removed",
  endpoint: ENDPOINT,
  section: 'api/update-message (resolving topics); help/resolve-a-topic',
  writes: true,
  needs: ['admin', 'moderator', 'member', 'second-member'],
  async run(ctx) {
    const { open } = await editChannels(ctx);
    const who = await resolver(ctx, open);
    const bots = await systemBotIds(ctx);
    const reader = ctx.as('member');
    const topic = ctx.name('topic');
    const resolved = `✔ ${topic}`;
    const ids = [await send(reader, open, topic, ctx.name('content')), await send(ctx.as('second-member'), open, topic, ctx.name('content'))];
    const noticesChecked = ctx.featureLevel >= EDIT_LEVELS.NOTICES_FOR_TOPIC_MOVES;
    const resolving = await ctx.as(who).patch(`/messages/${ids[1]}`, { topic: resolved, propagate_mode: 'change_all' });
    if (resolving.status === 400 && ctx.featureLevel < EDIT_LEVELS.MOVE_TOPICS_GROUP) return ctx.skip('the target does not let the administrator resolve topics (its role policies are not read before level 316)');
    expectEditSuccess(ctx, resolving);
    const inResolved = await topicMessages(reader, open, resolved);
    const resolveNotices = notices(inResolved, bots);
    expectEqual(ascending(inResolved.filter((m) => !bots.has(m.senderId)).map((m) => m.id)), ids, `messages in '${resolved}' after resolving`);
    expectEqual((await topicMessages(reader, open, topic)).length, 0, `messages left in '${topic}' after resolving with change_all`);
    if (noticesChecked) {
      expectEqual(resolveNotices.length, 1, `Notification Bot notices in '${resolved}' after resolving`);
      check(!resolveNotices[0]!.content.includes(link(open, topic)), `the resolve notice is not a 'moved here' notice: ${JSON.stringify(resolveNotices[0]!.content)}`);
    }
    expectEditSuccess(ctx, await ctx.as(who).patch(`/messages/${ids[0]}`, { topic, propagate_mode: 'change_all' }));
    const back = await topicMessages(reader, open, topic);
    expectEqual(ascending(back.filter((m) => !bots.has(m.senderId)).map((m) => m.id)), ids, `messages in '${topic}' after unresolving`);
    expectEqual((await topicMessages(reader, open, resolved)).length, 0, `messages left in '${resolved}' after unresolving`);
    if (!noticesChecked) return;
    const backNotices = notices(back, bots);
    // Outside the grace period: the resolve notice moved back, then the unresolve notice. Within it: neither.
    check(backNotices.length === 2 || backNotices.length === 0, `Notification Bot notices in '${topic}' after unresolving: expected 2 (resolve, unresolve) or 0 (undo within the grace period), got ${backNotices.length}`);
    if (backNotices.length === 2) expectEqual(backNotices[0]!.id, resolveNotices[0]!.id, 'the first notice after unresolving is the resolve notice, moved back');
  },
};

export const rules: readonly Rule[] = [noticesPerFlags, resolveAndUnresolve];
