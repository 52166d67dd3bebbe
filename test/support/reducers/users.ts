/**
 * `realm_user` events on `realm_users` / `realm_non_active_users` (and the client's own
 * identity fields), as the web app's user_events.update_person applies them: `is_active` moves
 * a person between the lists and a deactivated user leaves every group's member list; other
 * keys overwrite the person's fields. `realm_bot` is in bots.ts.
 */
import { ascending, defineReducer, listOf, type State, unknownOp } from './registry.js';

const ROLE = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, GUEST: 600 };
const DEACTIVATED_USERS_HIDDEN_IN_GROUPS = 303;
const TOP_LEVEL_ONLY_KEYS = new Set(['avatar_source', 'avatar_url_medium']);

function findPerson(state: State, userId: unknown): { list: State[]; index: number } | undefined {
  for (const key of ['realm_users', 'realm_non_active_users', 'cross_realm_bots']) {
    const list = listOf(state, key);
    const index = list?.findIndex((person) => person.user_id === userId) ?? -1;
    if (list && index >= 0) return { list, index };
  }
  return undefined;
}

const isSettingObject = (value: unknown): value is { direct_members: number[] } =>
  typeof value === 'object' && value !== null && Array.isArray((value as State).direct_members);

/** Drops the user from the `direct_members` of every group-setting value in `holder`. */
function dropFromSettings(holder: State, userId: number, keys: Iterable<string>): void {
  for (const key of keys) {
    const value = holder[key];
    if (isSettingObject(value)) value.direct_members = value.direct_members.filter((id) => id !== userId);
  }
}

/**
 * What a client forgets about a deactivated user, as the real server's apply_event does (no
 * event says it): group membership (from level 303), the user in anonymous group-setting values
 * of the realm, of groups and of channels, and (register lists active users only) its presence.
 * Channel subscriber lists follow the `peer_remove` events the server sends.
 */
function forgetDeactivated(state: State, userId: number, email: unknown): void {
  const groups = listOf(state, 'realm_user_groups') ?? [];
  if ((state.zulip_feature_level as number) >= DEACTIVATED_USERS_HIDDEN_IN_GROUPS) {
    for (const group of groups) group.members = (group.members as number[]).filter((id) => id !== userId);
  }
  dropFromSettings(state, userId, Object.keys(state).filter((key) => key.startsWith('realm_')));
  for (const group of groups) dropFromSettings(group, userId, Object.keys(group));
  for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed']) {
    for (const channel of listOf(state, key) ?? []) dropFromSettings(channel, userId, Object.keys(channel));
  }
  const presences = state.presences as State | undefined;
  if (presences) {
    delete presences[String(userId)];
    if (typeof email === 'string') delete presences[email];
  }
}

function setActive(state: State, userId: number, active: boolean): void {
  const found = findPerson(state, userId);
  if (!found) return;
  const [person] = found.list.splice(found.index, 1);
  listOf(state, active ? 'realm_users' : 'realm_non_active_users')?.push(person as State);
  if (!active) forgetDeactivated(state, userId, (person as State).email);
}

function applyRole(person: State, role: number): void {
  person.role = role;
  person.is_owner = role === ROLE.OWNER;
  person.is_admin = role === ROLE.OWNER || role === ROLE.ADMINISTRATOR;
  person.is_guest = role === ROLE.GUEST;
}

defineReducer('realm_user', (state, event, { userId: self }) => {
  const person = event.person as State;
  const userId = person.user_id as number;
  switch (event.op) {
    case 'add': {
      const { is_active: active, ...shown } = person;
      findPerson(state, userId)?.list.splice(findPerson(state, userId)!.index, 1);
      listOf(state, active === false ? 'realm_non_active_users' : 'realm_users')?.push(shown);
      return;
    }
    case 'remove':
      setActive(state, userId, false);
      return;
    case 'update': {
      if ('is_active' in person) {
        setActive(state, userId, person.is_active as boolean);
        return;
      }
      const found = findPerson(state, userId);
      const target = found ? (found.list[found.index] as State) : undefined;
      for (const [key, value] of Object.entries(person)) {
        if (key === 'user_id') continue;
        if (key === 'role') {
          if (target) applyRole(target, value as number);
          if (userId === self && 'is_admin' in state) {
            applyRole(state, value as number);
            delete state.role;
            if ('is_moderator' in state) state.is_moderator = (value as number) <= ROLE.MODERATOR;
          }
        } else if (key === 'custom_profile_field') {
          const { id, ...data } = value as State;
          const profile = (target?.profile_data ?? {}) as State;
          if (data.value === null) delete profile[String(id)];
          else profile[String(id)] = data;
          if (target) target.profile_data = profile;
        } else if (key === 'new_email') {
          // The API email changed (email_address_visibility entered or left "everyone").
          if (target) target.email = value;
          if (userId === self && 'email' in state) state.email = value;
        } else {
          // Register's user objects carry no avatar_source / avatar_url_medium (only the
          // client's own top-level fields do).
          if (target && !TOP_LEVEL_ONLY_KEYS.has(key)) target[key] = value;
          if (userId === self && key in state && key !== 'profile_data') state[key] = value;
        }
      }
      return;
    }
    default:
      unknownOp(event);
  }
});

defineReducer('user_group', (state, event) => {
  const groups = listOf(state, 'realm_user_groups');
  if (!groups) return;
  const group = groups.find((g) => g.id === event.group_id);
  const ids = (key: string) => ascending((group?.[key] as number[] | undefined) ?? []);
  switch (event.op) {
    case 'add':
      groups.push(event.group as State);
      return;
    case 'remove':
      if (group) groups.splice(groups.indexOf(group), 1);
      return;
    case 'update':
      if (group) Object.assign(group, event.data as State);
      return;
    case 'add_members':
      if (group) group.members = ascending([...ids('members'), ...(event.user_ids as number[])]);
      return;
    case 'remove_members':
      if (group) group.members = ids('members').filter((id) => !(event.user_ids as number[]).includes(id));
      return;
    case 'add_subgroups':
      if (group) group.direct_subgroup_ids = ascending([...ids('direct_subgroup_ids'), ...(event.direct_subgroup_ids as number[])]);
      return;
    case 'remove_subgroups':
      if (group) group.direct_subgroup_ids = ids('direct_subgroup_ids').filter((id) => !(event.direct_subgroup_ids as number[]).includes(id));
      return;
    default:
      unknownOp(event);
  }
});
