/**
 * Notification Bot notices after a move (the real server's resolve-topic notifications and
 * "moved" breadcrumbs, zerver/actions/message_edit.py): posted after the `update_message` event,
 * read for the acting user.
 */
import type { User } from '../../../entities/user.js';
import { VISIBILITY_POLICY } from '../../../entities/personal.js';
import { FEATURES } from '../../../features/feature-levels.js';
import { activeSubscriberIds } from '../../../queries/users/access.js';
import { canReadMessage } from '../../../queries/messages/messages.js';
import { topicMessages } from '../../../queries/messages/topics.js';
import { silentMention, streamMessageUrl, topicLinkSyntax } from '../../../rendering/message-links.js';
import type { World } from '../../../state/world.js';
import type { StreamEditPlan } from './edit-plan.js';
import { sendNotificationBotMessage } from '../notification-bot.js';
import { undoRecentResolveNotice } from './resolve-undo.js';

/**
 * Who reads the resolve notice automatically (FL 385 `resolved_topic_notice_auto_read_policy`):
 * everyone but users with `never`, and with `except_followed` those following the topic.
 */
function resolveNoticeReaders(world: World, user: User, plan: StreamEditPlan): number[] {
  const readers = [user.id];
  if (!world.has(FEATURES.RESOLVED_TOPIC_NOTICE_POLICY)) return readers;
  for (const id of activeSubscriberIds(world, plan.origStream.id)) {
    const subscriber = world.users.get(id);
    if (!subscriber || subscriber.isBot) continue;
    const policy = subscriber.settings.get('resolved_topic_notice_auto_read_policy');
    if (policy === 'never') continue;
    if (policy === 'except_followed' && followsTopic(world, id, plan.origStream.id, plan.targetTopic)) continue;
    readers.push(id);
  }
  return readers;
}

function followsTopic(world: World, userId: number, streamId: number, topic: string): boolean {
  for (const entry of world.userTopics.get(userId)?.values() ?? []) {
    if (entry.streamId === streamId && entry.topicName.toLowerCase() === topic.toLowerCase()) {
      return entry.visibilityPolicy === VISIBILITY_POLICY.FOLLOWED;
    }
  }
  return false;
}

function newThreadText(world: World, user: User, plan: StreamEditPlan, changedIds: readonly number[], movedAll: boolean): string {
  const old = topicLinkSyntax(plan.origStream.id, plan.origStream.name, plan.origTopic);
  const who = silentMention(user);
  const moved = new Set(changedIds);
  const preexisting = topicMessages(world, plan.targetStream.id, plan.targetTopic).some(
    (m) =>
      !moved.has(m.id) &&
      m.recipient.kind === 'stream' &&
      m.recipient.streamId === plan.targetStream.id &&
      m.recipient.topic.toLowerCase() === plan.targetTopic.toLowerCase() &&
      canReadMessage(world, user, m),
  );
  if (!preexisting && movedAll) return `This topic was moved here from ${old} by ${who}.`;
  if (changedIds.length === 1) {
    const link = streamMessageUrl(plan.realmUrl, plan.targetStream.id, plan.targetStream.name, plan.targetTopic, plan.message.id);
    return `[A message](${link}) was moved here from ${old} by ${who}.`;
  }
  return `${changedIds.length} messages were moved here from ${old} by ${who}.`;
}

function oldThreadText(user: User, plan: StreamEditPlan, count: number, movedAll: boolean): string {
  const target = topicLinkSyntax(plan.targetStream.id, plan.targetStream.name, plan.targetTopic);
  const who = silentMention(user);
  if (movedAll) return `This topic was moved to ${target} by ${who}.`;
  if (count === 1) return `A message was moved from this topic to ${target} by ${who}.`;
  return `${count} messages were moved from this topic to ${target} by ${who}.`;
}

/** Resolve notice for a pure topic (un)resolve; breadcrumbs in the new and old topics. */
export function sendMoveNotifications(world: World, user: User, plan: StreamEditPlan, changedIds: readonly number[], movedAll: boolean): void {
  const topicOnly = plan.topicEdited && plan.newContent === undefined && !plan.streamEdited;
  const undone = topicOnly && (plan.resolved || plan.unresolved) && undoRecentResolveNotice(world, user, plan.origStream.id, plan.targetTopic);
  if (topicOnly && (plan.resolved || plan.unresolved) && !undone) {
    const text = `${silentMention(user)} has marked this topic as ${plan.resolved ? 'resolved' : 'unresolved'}.`;
    sendNotificationBotMessage(world, { kind: 'stream', streamId: plan.origStream.id, topic: plan.targetTopic }, text, {
      readBy: resolveNoticeReaders(world, user, plan),
    });
  }
  // Before FL 152 both breadcrumb flags applied to channel moves only.
  if (!plan.streamEdited && !world.has(FEATURES.OLD_THREAD_NOTICE_OFF_BY_DEFAULT)) return;
  const notifyNew = plan.notifyNewThread && (plan.streamEdited || (plan.topicEdited && !plan.resolved && !plan.unresolved));
  if (notifyNew) {
    const text = newThreadText(world, user, plan, changedIds, movedAll);
    sendNotificationBotMessage(world, { kind: 'stream', streamId: plan.targetStream.id, topic: plan.targetTopic }, text, { readBy: [user.id] });
  }
  if (plan.notifyOldThread) {
    const text = oldThreadText(user, plan, changedIds.length, movedAll);
    sendNotificationBotMessage(world, { kind: 'stream', streamId: plan.origStream.id, topic: plan.origTopic }, text, { readBy: [user.id] });
  }
}
