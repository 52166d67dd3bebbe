/**
 * Changing a group's members and subgroups (sections 4.9, 4.18; behaviour reference §3.7, §3.9).
 * One request may combine several changes, applied in order as one transaction: each step sees
 * the previous steps' effects, and any error restores the group and sends nothing.
 */
import { badRequest } from '../../errors.js';
import type { UserGroup } from '../../entities/group.js';
import type { User } from '../../entities/user.js';
import { realmAudience  } from '../../queries/users/access.js';
import { groupClosure } from '../../queries/groups/groups.js';
import { accessUserGroupForUpdate, type GroupOperation } from '../../queries/groups/user-group-permissions.js';
import type { World } from '../../state/world.js';
import { notifyMembershipChange } from './user-group-notices.js';
import { groupUserIds, potentialSubgroupIds } from './user-groups.js';

/** Work deferred until every step succeeded (events, notices). */
type Outbox = Array<() => void>;
type Step = (outbox: Outbox) => void;

function transaction(world: World, groupId: number, steps: readonly Step[]): void {
  const group = world.groups.get(groupId);
  const saved = group && { members: [...group.members], subgroups: [...group.subgroups] };
  const outbox: Outbox = [];
  try {
    for (const step of steps) step(outbox);
  } catch (error) {
    if (group && saved) {
      group.members.clear();
      for (const id of saved.members) group.members.add(id);
      group.subgroups.clear();
      for (const id of saved.subgroups) group.subgroups.add(id);
    }
    throw error;
  }
  for (const send of outbox) send();
}

function announce(world: World, outbox: Outbox, event: Record<string, unknown> & { op: string }): void {
  outbox.push(() => world.events.send({ type: 'user_group', ...event }, realmAudience(world)));
}

const onlySelf = (actor: User, ids: readonly number[]): boolean => ids.length === 1 && ids[0] === actor.id;

function addMembers(world: World, actor: User, groupId: number, ids: readonly number[]): Step {
  return (outbox) => {
    if (ids.length === 0) return;
    // Joining tries can_join_group first; the group check comes before the user check.
    const operations: GroupOperation[] = onlySelf(actor, ids) ? ['join', 'add_members'] : ['add_members'];
    const group = accessUserGroupForUpdate(world, actor, groupId, operations);
    const userIds = groupUserIds(world, ids);
    for (const id of userIds) if (group.members.has(id)) throw badRequest(`User ${id} is already a member of this group`);
    for (const id of userIds) group.members.add(id);
    announce(world, outbox, { op: 'add_members', group_id: group.id, user_ids: userIds });
    outbox.push(() => notifyMembershipChange(world, actor, group, userIds, 'added'));
  };
}

function removeMembers(world: World, actor: User, groupId: number, ids: readonly number[]): Step {
  return (outbox) => {
    if (ids.length === 0) return;
    // Here the users are resolved before the group is accessed.
    const userIds = groupUserIds(world, ids);
    const operations: GroupOperation[] = onlySelf(actor, ids) ? ['leave', 'remove_members'] : ['remove_members'];
    const group = accessUserGroupForUpdate(world, actor, groupId, operations);
    for (const id of ids) if (!group.members.has(id)) throw badRequest(`There is no member '${id}' in this user group`);
    for (const id of userIds) group.members.delete(id);
    announce(world, outbox, { op: 'remove_members', group_id: group.id, user_ids: userIds });
    outbox.push(() => notifyMembershipChange(world, actor, group, userIds, 'removed'));
  };
}

/** Whether `groupId` is one of the groups or below one of them (adding them would close a cycle). */
const wouldCycle = (world: World, groupId: number, subgroupIds: readonly number[]): boolean =>
  subgroupIds.some((id) => groupClosure(world, id).has(groupId));

function addSubgroups(world: World, actor: User, groupId: number, ids: readonly number[]): Step {
  return (outbox) => {
    if (ids.length === 0) return;
    const group: UserGroup = accessUserGroupForUpdate(world, actor, groupId, ['add_subgroups']);
    const subgroupIds = potentialSubgroupIds(world, ids);
    for (const id of subgroupIds) {
      if (group.subgroups.has(id)) throw badRequest(`User group ${id} is already a subgroup of this group.`);
    }
    if (wouldCycle(world, group.id, subgroupIds)) {
      throw badRequest(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
    }
    for (const id of subgroupIds) group.subgroups.add(id);
    announce(world, outbox, { op: 'add_subgroups', group_id: group.id, direct_subgroup_ids: subgroupIds });
  };
}

function removeSubgroups(world: World, actor: User, groupId: number, ids: readonly number[]): Step {
  return (outbox) => {
    if (ids.length === 0) return;
    const group = accessUserGroupForUpdate(world, actor, groupId, ['remove_subgroups']);
    const subgroupIds = potentialSubgroupIds(world, ids);
    for (const id of subgroupIds) {
      if (!group.subgroups.has(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
    }
    for (const id of subgroupIds) group.subgroups.delete(id);
    announce(world, outbox, { op: 'remove_subgroups', group_id: group.id, direct_subgroup_ids: subgroupIds });
  };
}

export interface MemberChanges {
  readonly add: readonly number[];
  readonly delete: readonly number[];
  readonly addSubgroups: readonly number[];
  readonly deleteSubgroups: readonly number[];
}

/** `POST /user_groups/{id}/members`: add, delete, add_subgroups, delete_subgroups, in that order. The caller checks "nothing to do". */
export function updateUserGroupMembers(world: World, actor: User, groupId: number, changes: MemberChanges): void {
  transaction(world, groupId, [
    addMembers(world, actor, groupId, changes.add),
    removeMembers(world, actor, groupId, changes.delete),
    addSubgroups(world, actor, groupId, changes.addSubgroups),
    removeSubgroups(world, actor, groupId, changes.deleteSubgroups),
  ]);
}

/** `POST /user_groups/{id}/subgroups`: add, then delete. The caller checks "nothing to do". */
export function updateUserGroupSubgroups(world: World, actor: User, groupId: number, changes: { add: readonly number[]; delete: readonly number[] }): void {
  transaction(world, groupId, [addSubgroups(world, actor, groupId, changes.add), removeSubgroups(world, actor, groupId, changes.delete)]);
}
