/**
 * The Notification Bot's direct messages about group membership changes (behaviour reference
 * §3.7). The real server tells each added or removed user, except the acting user, bots and
 * deactivated users, in their own language:
 *   "<silent mention of actor> added you to the group @_*<group name>*."
 *   "<silent mention of actor> removed you from the group @_*<group name>*."
 * The silent mention is `@_**<full name>|<user id>**`.
 *
 * NOT YET WIRED: sending messages belongs to the messages actions, written separately. Until
 * they exist this hook computes the notices and sends nothing; the messages engineer replaces
 * the body of `deliver` with the internal direct-message send (sender: the Notification Bot).
 */
import type { UserGroup } from '../entities/group.js';
import type { User } from '../entities/user.js';
import type { World } from '../world.js';

export interface MembershipNotice {
  readonly recipientId: number;
  readonly content: string;
}

/** Who gets a notice and what it says; exported so the messages side can test against it. */
export function membershipNotices(world: World, actor: User, group: UserGroup, userIds: readonly number[], change: 'added' | 'removed'): MembershipNotice[] {
  const mention = `@_**${actor.fullName}|${actor.id}**`;
  const text = change === 'added' ? `${mention} added you to the group @_*${group.name}*.` : `${mention} removed you from the group @_*${group.name}*.`;
  const notices: MembershipNotice[] = [];
  for (const id of userIds) {
    const user = world.users.get(id);
    if (!user || id === actor.id || user.isBot || !user.isActive) continue;
    notices.push({ recipientId: id, content: text });
  }
  return notices;
}

/** Called after a committed membership change. A no-op until the messages actions exist (see above). */
export function notifyMembershipChange(world: World, actor: User, group: UserGroup, userIds: readonly number[], change: 'added' | 'removed'): void {
  deliver(world, membershipNotices(world, actor, group, userIds, change));
}

function deliver(_world: World, _notices: readonly MembershipNotice[]): void {
  // Intentionally empty: see the module comment.
}
