/**
 * Applying a validated edit (the real server's `do_update_message`): content, topic and channel
 * changes, edit history (newest first, reference §1.3), per-user rows of moved messages, and
 * `update_message` / `delete_message` events.
 */
import { seconds } from '../../../state/clock.js';
import { ApiError } from '../../../errors.js';
import type { EditEvent, Message } from '../../../entities/message.js';
import { isGuest, isModeratorOrAbove, type User } from '../../../entities/user.js';
import { activeSubscriberIds } from '../../../queries/users/access.js';
import { canReadMessage, isMeMessage } from '../../../queries/messages/messages.js';
import { topicMessages } from '../../../queries/messages/topics.js';
import { channelMoveLimit, EDIT_LIMIT_BUFFER_SECONDS, topicMoveLimit } from '../../../queries/messages/message-permissions.js';
import { render } from '../../../rendering/render.js';
import { topicLinks } from '../../../rendering/topic-links.js';
import type { World } from '../../../state/world.js';
import { linkAttachmentsInContent } from '../../personal/attachments.js';
import type { StreamEditPlan } from './edit-plan.js';
import { setAlertWordFlags } from '../policies/alert-word-flags.js';
import { setMentionFlags } from '../mention-flags.js';
import { groupByFlags } from '../messages.js';
import { sendMoveNotifications } from './move-notifications.js';
import { migrateUserTopics } from './move-user-topics.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const sameTopic = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

type UpdateEvent = Record<string, unknown> & { type: 'update_message' };

function baseEvent(user: User, message: Message, now: number): UpdateEvent {
  return { type: 'update_message', user_id: user.id, edit_timestamp: seconds(now), message_id: message.id, rendering_only: false };
}

/** Replaces content, records it in history and event, re-links uploads and re-derives `mentioned` flags. */
function applyContent(world: World, message: Message, content: string, event: UpdateEvent, history: Mutable<EditEvent>): void {
  const rendered = render(world, content);
  history.prevContent = message.content;
  history.prevRenderedContent = message.renderedContent;
  Object.assign(event, {
    orig_content: message.content,
    orig_rendered_content: message.renderedContent,
    content,
    rendered_content: rendered,
    is_me_message: isMeMessage(content),
  });
  world.messages.rewrite(message, content, rendered);
  message.lastEditAt = history.timestamp;
  // `check_attachment_reference_change`: uploads named by the new content only are claimed, the others let go.
  linkAttachmentsInContent(world, message.id, content);
  setMentionFlags(world, message);
  setAlertWordFlags(world, message);
}

function sendUpdate(world: World, message: Message, event: UpdateEvent, userIds: Iterable<number>): void {
  for (const [flags, ids] of groupByFlags(message, userIds)) {
    world.events.send({ ...event, flags: JSON.parse(flags) as string[] }, ids);
  }
}

/** Content edit of a direct message: history, then an event to every participant. */
export function applyDirectEdit(world: World, user: User, message: Message, content: string): void {
  const now = world.now();
  const event = baseEvent(user, message, now);
  const history: Mutable<EditEvent> = { userId: user.id, timestamp: now };
  applyContent(world, message, content, event, history);
  message.editHistory.unshift(history);
  event.message_ids = [message.id];
  sendUpdate(world, message, event, message.flags.keys());
}

/** Messages a move changes: the target, plus later or all of its topic with `propagate_mode`. */
function messagesToChange(world: World, user: User, plan: StreamEditPlan): Message[] {
  if (plan.propagateMode === 'change_one' || !(plan.topicEdited || plan.streamEdited)) return [plan.message];
  const protectedHistory = !plan.origStream.historyPublicToSubscribers;
  const found: Message[] = [];
  for (const m of topicMessages(world, plan.origStream.id, plan.origTopic)) {
    if (m.recipient.kind !== 'stream' || m.recipient.streamId !== plan.origStream.id || !sameTopic(m.recipient.topic, plan.origTopic)) continue;
    if (plan.propagateMode === 'change_later' && m.id < plan.message.id) continue;
    if (m !== plan.message && protectedHistory && !m.flags.has(user.id)) continue;
    found.push(m);
  }
  return found;
}

/**
 * `MOVE_MESSAGES_TIME_LIMIT_EXCEEDED` for `change_all` when older messages of the topic are
 * past the non-moderator's move limit.
 */
export function checkChangeAllTimeLimit(world: World, user: User, plan: StreamEditPlan): void {
  if (isModeratorOrAbove(user)) return;
  const limits = [plan.topicEdited ? topicMoveLimit(world) : null, plan.streamEdited ? channelMoveLimit(world) : null].filter(
    (limit): limit is number => limit !== null,
  );
  if (limits.length === 0) return;
  const deadline = world.now() - (Math.min(...limits) + EDIT_LIMIT_BUFFER_SECONDS) * 1000;
  const inTopic = messagesToChange(world, user, { ...plan, propagateMode: 'change_all' });
  const allowed = inTopic.filter((m) => m.sentAt > deadline);
  if (allowed.length === inTopic.length) return;
  throw new ApiError(
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    400,
    `You only have permission to move the ${allowed.length}/${inTopic.length} most recent messages in this topic.`,
    {
      first_message_id_allowed_to_move: allowed[0]?.id ?? null,
      total_messages_in_topic: inTopic.length,
      total_messages_allowed_to_move: allowed.length,
    },
  );
}

/** Who loses rows (and who loses access) when messages move to another channel. */
function rowChanges(world: World, plan: StreamEditPlan): { losingRows: Set<number>; losingAccess: Set<number>; gaining: number[] } {
  const target = plan.targetStream;
  const newCurrent = new Set([...(world.subscriptions.get(target.id) ?? new Map())].filter(([, s]) => s.active).map(([id]) => id));
  const oldAll = [...(world.subscriptions.get(plan.origStream.id)?.keys() ?? [])];
  const losingRows = new Set(oldAll.filter((id) => !newCurrent.has(id)));
  const losingAccess = target.inviteOnly
    ? new Set(losingRows)
    : new Set([...losingRows].filter((id) => { const u = world.users.get(id); return u !== undefined && isGuest(u); }));
  const gaining = target.historyPublicToSubscribers ? [] : [...newCurrent];
  return { losingRows, losingAccess, gaining };
}

/** Users told about the edit besides row holders: subscribers, when history is shared. */
function subscribersToNotify(world: World, plan: StreamEditPlan, rowHolders: Set<number>, losingAccess: Set<number>): number[] {
  if (!plan.origStream.historyPublicToSubscribers) return [];
  const fresh = (ids: number[]) => ids.filter((id) => !rowHolders.has(id) && !losingAccess.has(id));
  const targetSubs = activeSubscriberIds(world, plan.targetStream.id);
  let subs = fresh(targetSubs);
  let oldOnly: number[] = [];
  if (plan.streamEdited) {
    const oldSubs = new Set(activeSubscriberIds(world, plan.origStream.id));
    oldOnly = fresh([...oldSubs]).filter((id) => !targetSubs.includes(id));
    subs = subs.filter((id) => { const u = world.users.get(id); return !(u && isGuest(u) && !oldSubs.has(id)); });
  }
  return [...new Set([...subs, ...oldOnly])].sort((a, b) => a - b);
}

/** Applies a channel-message edit: content, topic and/or channel, then events and notices. */
export function applyStreamEdit(world: World, user: User, plan: StreamEditPlan): void {
  const { message, origStream, targetStream } = plan;
  const now = world.now();
  const event = baseEvent(user, message, now);
  const history: Mutable<EditEvent> = { userId: user.id, timestamp: now };
  if (plan.newContent !== undefined) applyContent(world, message, plan.newContent, event, history);
  const moved = plan.topicEdited || plan.streamEdited;
  event.stream_name = origStream.name;
  event.stream_id = origStream.id;
  if (moved) event.propagate_mode = plan.propagateMode;
  const rows = plan.streamEdited ? rowChanges(world, plan) : { losingRows: new Set<number>(), losingAccess: new Set<number>(), gaining: [] };
  const moveKeys: Mutable<EditEvent> = { userId: user.id, timestamp: now };
  if (plan.streamEdited) {
    moveKeys.prevStream = origStream.id;
    moveKeys.stream = targetStream.id;
    event.orig_subject = plan.origTopic;
    event.new_stream_id = targetStream.id;
  }
  if (plan.topicEdited) {
    moveKeys.prevTopic = plan.origTopic;
    moveKeys.topic = plan.targetTopic;
    event.orig_subject = plan.origTopic;
    event.subject = plan.targetTopic;
    event.topic_links = topicLinks(world, plan.targetTopic);
  }
  const rowHolders = new Set([...message.flags.keys()].filter((id) => !rows.losingRows.has(id)));
  const changed = messagesToChange(world, user, plan);
  const targetHadMessages = moved && topicHasMessagesBesides(world, plan.targetStream.id, plan.targetTopic, new Set(changed));
  const countsAsMove = moved && !plan.resolved && !plan.unresolved;
  for (const m of changed) {
    m.editHistory.unshift(m === message ? { ...history, ...moveKeys } : { ...moveKeys });
    if (!moved) continue;
    world.messages.relocate(m, { kind: 'stream', streamId: targetStream.id, topic: plan.targetTopic });
    if (countsAsMove) m.lastMovedAt = now;
    for (const id of rows.losingRows) m.flags.delete(id);
    for (const id of rows.gaining) if (!m.flags.has(id)) m.flags.set(id, new Set(['read']));
  }
  const changedIds = changed.map((m) => m.id);
  event.message_ids = changedIds;
  if (rows.losingAccess.size > 0) {
    world.events.send(
      { type: 'delete_message', message_ids: changedIds, message_type: 'stream', stream_id: origStream.id, topic: plan.origTopic },
      rows.losingAccess,
    );
  }
  const movedAll = moved && movedAllVisible(world, user, plan);
  if (movedAll) migrateUserTopics(world, plan, rows.losingAccess, targetHadMessages);
  sendUpdate(world, message, event, [...rowHolders, ...subscribersToNotify(world, plan, rowHolders, rows.losingAccess)]);
  if (moved) sendMoveNotifications(world, user, plan, changedIds, movedAll);
}

function topicHasMessagesBesides(world: World, streamId: number, topic: string, excluded: ReadonlySet<Message>): boolean {
  for (const m of topicMessages(world, streamId, topic)) {
    if (!excluded.has(m) && m.recipient.kind === 'stream' && m.recipient.streamId === streamId && sameTopic(m.recipient.topic, topic)) return true;
  }
  return false;
}

/** Whether the user moved every message of the old topic that they can see. */
function movedAllVisible(world: World, user: User, plan: StreamEditPlan): boolean {
  if (plan.propagateMode === 'change_all') return true;
  for (const m of topicMessages(world, plan.origStream.id, plan.origTopic)) {
    if (m.recipient.kind !== 'stream' || m.recipient.streamId !== plan.origStream.id) continue;
    if (sameTopic(m.recipient.topic, plan.origTopic) && canReadMessage(world, user, m)) return false;
  }
  return true;
}
