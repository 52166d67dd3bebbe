/**
 * `user_group`, `realm_user` and `user_status` events, as the real server's apply_event applies
 * them to `realm_user_groups`, `realm_users` / `realm_non_active_users` and `user_status`.
 */
import type { Replay } from '../replay-state.js';
import { idsIn, listIn, objectIn, type QueueEvent, type State } from '../types.js';
import { UnmodelledEvent } from './unmodelled.js';

const numeric = (a: number, b: number) => a - b;

function userGroup(replay: Replay, event: QueueEvent): void {
  const groups = listIn(replay.state, 'realm_user_groups');
  if (!groups) return;
  const group = groups.find((g) => g.id === event.group_id);
  switch (event.op) {
    case 'add':
      groups.push(structuredClone(event.group as State));
      groups.sort((a, b) => (a.id as number) - (b.id as number));
      return;
    case 'update':
      if (group) Object.assign(group, structuredClone(event.data as State));
      return;
    // Members are extended and sorted, not merged: a member added twice shows twice, as it
    // would for the real server's own apply_event.
    case 'add_members':
      if (group) group.members = [...idsIn(group.members), ...idsIn(event.user_ids)].sort(numeric);
      return;
    case 'remove_members':
      if (group) group.members = idsIn(group.members).filter((id) => !idsIn(event.user_ids).includes(id));
      return;
    case 'add_subgroups':
      if (group) group.direct_subgroup_ids = [...idsIn(group.direct_subgroup_ids), ...idsIn(event.direct_subgroup_ids)].sort(numeric);
      return;
    case 'remove_subgroups':
      if (group) group.direct_subgroup_ids = idsIn(group.direct_subgroup_ids).filter((id) => !idsIn(event.direct_subgroup_ids).includes(id));
      return;
    case 'remove':
      replay.state.realm_user_groups = groups.filter((g) => g.id !== event.group_id);
      return;
    default:
      throw new UnmodelledEvent(`user_group op ${String(event.op)}`);
  }
}

/** Where a user's object is: the list and index in `realm_users` or `realm_non_active_users`. */
function person(state: State, userId: unknown): { list: State[]; index: number } | undefined {
  for (const key of ['realm_users', 'realm_non_active_users']) {
    const list = listIn(state, key);
    const index = list?.findIndex((p) => p.user_id === userId) ?? -1;
    if (list && index >= 0) return { list, index };
  }
  return undefined;
}

const ROLE = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, GUEST: 600 };

function realmUser(replay: Replay, event: QueueEvent): void {
  const { state, view } = replay;
  if (!listIn(state, 'realm_users')) return;
  const data = event.person as State;
  const userId = data.user_id as number;
  switch (event.op) {
    case 'add': {
      const found = person(state, userId);
      if (found) found.list.splice(found.index, 1);
      const { is_active: _active, ...shown } = structuredClone(data);
      listIn(state, 'realm_users')?.push(shown);
      return;
    }
    case 'remove': {
      // The user is no longer accessible (or, before level 222, deactivated).
      const found = person(state, userId);
      if (found) found.list.splice(found.index, 1);
      return;
    }
    case 'update': {
      const found = person(state, userId);
      if ('is_active' in data && found) {
        const [moved] = found.list.splice(found.index, 1);
        listIn(state, data.is_active === true ? 'realm_users' : 'realm_non_active_users')?.push(moved as State);
      }
      const target = person(state, userId);
      const p = target ? (target.list[target.index] as State) : undefined;
      if (p) {
        for (const key of Object.keys(p)) if (key in data && key !== 'user_id') p[key] = data[key];
        if (typeof data.role === 'number') {
          p.is_admin = data.role === ROLE.OWNER || data.role === ROLE.ADMINISTRATOR;
          p.is_owner = data.role === ROLE.OWNER;
          p.is_guest = data.role === ROLE.GUEST;
        }
        if ('new_email' in data) p.email = data.new_email;
        const field = objectIn(data, 'custom_profile_field');
        if (field && objectIn(p, 'profile_data')) {
          const profile = p.profile_data as State;
          if (field.value === null) delete profile[String(field.id)];
          else profile[String(field.id)] = 'rendered_value' in field ? { value: field.value, rendered_value: field.rendered_value } : { value: field.value };
        }
      }
      if (userId === view.userId) {
        for (const key of ['delivery_email', 'email', 'full_name', 'avatar_url', 'avatar_source', 'avatar_url_medium']) if (key in data && key in state) state[key] = data[key];
        if ('new_email' in data && 'email' in state) state.email = data.new_email;
      }
      return;
    }
    default:
      throw new UnmodelledEvent(`realm_user op ${String(event.op)}`);
  }
}

/** `user_status`: only the parts the event carries change; an empty value clears its part. */
function userStatus(replay: Replay, event: QueueEvent): void {
  const statuses = objectIn(replay.state, 'user_status');
  if (!statuses) return;
  const key = String(event.user_id);
  const status: State = { ...(objectIn(statuses, key) ?? {}) };
  if (typeof event.away === 'boolean') {
    if (event.away) status.away = true;
    else delete status.away;
  }
  if (typeof event.status_text === 'string') {
    if (event.status_text === '') delete status.status_text;
    else status.status_text = event.status_text;
  }
  if (typeof event.emoji_name === 'string') {
    for (const field of ['emoji_name', 'emoji_code', 'reaction_type']) {
      const value = event[field];
      if (typeof value !== 'string') continue;
      // An empty emoji name clears the emoji; its reaction type goes with it.
      if (value === '' || event.emoji_name === '') delete status[field];
      else status[field] = value;
    }
  }
  if (Object.keys(status).length === 0) delete statuses[key];
  else statuses[key] = status;
}

export const GROUP_USER_REDUCERS: ReadonlyArray<readonly [string, (replay: Replay, event: QueueEvent) => void]> = [
  ['user_group', userGroup],
  ['realm_user', realmUser],
  ['user_status', userStatus],
  // Consent goes to administrators only; register holds no consent state (`apply_event` passes).
  ['realm_export_consent', () => undefined],
];
