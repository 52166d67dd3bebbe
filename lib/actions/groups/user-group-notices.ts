/**
 * The Notification Bot's direct messages about group membership changes (behaviour reference
 * §3.7). The real server tells each added or removed user, except the acting user, bots and
 * deactivated users (in their own language; here always English):
 *   "<silent mention of actor> added you to the group @_*<group name>*."
 *   "<silent mention of actor> removed you from the group @_*<group name>*."
 */
import type { UserGroup } from '../../entities/group.js';
import type { User } from '../../entities/user.js';
import { silentMention } from '../../rendering/message-links.js';
import type { World } from '../../state/world.js';
import { sendNotificationBotMessage } from '../messages/notification-bot.js';

export interface MembershipNotice {
  readonly recipientId: number;
  readonly content: string;
}

/** Who gets a notice and what it says. */
export function membershipNotices(world: World, actor: User, group: UserGroup, userIds: readonly number[], change: 'added' | 'removed'): MembershipNotice[] {
  const mention = silentMention(actor);
  const text = change === 'added' ? `${mention} added you to the group @_*${group.name}*.` : `${mention} removed you from the group @_*${group.name}*.`;
  const notices: MembershipNotice[] = [];
  for (const id of userIds) {
    const user = world.users.get(id);
    if (!user || id === actor.id || user.isBot || !user.isActive) continue;
    notices.push({ recipientId: id, content: text });
  }
  return notices;
}

/** Called after a committed membership change: one Notification Bot DM per notice. */
export function notifyMembershipChange(world: World, actor: User, group: UserGroup, userIds: readonly number[], change: 'added' | 'removed'): void {
  for (const notice of membershipNotices(world, actor, group, userIds, change)) {
    sendNotificationBotMessage(world, { kind: 'direct', userId: notice.recipientId }, notice.content);
  }
}
