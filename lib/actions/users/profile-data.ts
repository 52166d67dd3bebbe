/**
 * A user's own custom profile fields (`PATCH`/`DELETE /users/me/profile_data`), as the real
 * server's `update_user_custom_profile_data` and `remove_user_custom_profile_data` do them.
 * Every entry is checked before any is stored (fields not editable by users only by administrators); each changed field sends a `realm_user` update
 * with `custom_profile_field` to everyone who can access the user.
 */
import { badRequest } from '../../errors.js';
import type { CustomProfileField } from '../../entities/realm-records.js';
import { isAdministrator, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { userIdsWhoCanAccess } from '../../queries/users/users-admin.js';
import { render } from '../../rendering/render.js';
import type { World } from '../../state/world.js';
import { RENDERED_TYPES, validateFieldValue } from './user-profile-update.js';

export interface ProfileValue {
  readonly id: number;
  readonly value: string | number[];
}

/**
 * The field the user may change: it exists, and (from level 296) it is editable by users unless
 * the user is an administrator (`validate_user_custom_profile_data`).
 */
function editableField(world: World, user: User, id: number): CustomProfileField {
  const field = world.customProfileFields.find((f) => f.id === id);
  if (!field) throw badRequest(`Field id ${id} not found.`);
  if (field.editableByUser === false && world.has(FEATURES.PROFILE_FIELD_EDITABLE_BY_USER) && !isAdministrator(user)) {
    throw badRequest('You are not allowed to change this field. Contact an administrator to update it.');
  }
  return field;
}

function notify(world: World, user: User, field: CustomProfileField, value: string | null): void {
  const data: Record<string, unknown> = { id: field.id, value };
  if (value !== null && value !== '' && RENDERED_TYPES.has(field.type)) data.rendered_value = render(world, value);
  world.events.send({ type: 'realm_user', op: 'update', person: { user_id: user.id, custom_profile_field: data } }, userIdsWhoCanAccess(world, user));
}

/**
 * Sets each field (in order; a later entry for the same field wins). Values are stored as
 * given, an empty text included; unchanged values send nothing.
 */
export function updateOwnProfileData(world: World, user: User, entries: readonly ProfileValue[]): void {
  const planned = entries.map((entry) => {
    const field = editableField(world, user, entry.id);
    return { field, value: validateFieldValue(world, field, entry.value) };
  });
  for (const { field, value } of planned) {
    if (user.profileData.get(field.id) === value) continue;
    user.profileData.set(field.id, value);
    notify(world, user, field, value);
  }
}

/** Clears each field; fields without a value are skipped silently, unknown IDs refused. */
export function removeOwnProfileData(world: World, user: User, fieldIds: readonly number[]): void {
  const fields = fieldIds.map((id) => editableField(world, user, id));
  for (const field of fields) {
    if (!user.profileData.has(field.id)) continue;
    user.profileData.delete(field.id);
    notify(world, user, field, null);
  }
}
