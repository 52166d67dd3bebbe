/**
 * `PATCH /users/{user_id}` (OpenAPI update-user; the real server's `update_user_backend`): an
 * administrator changes another user's full name, role, custom profile fields and (level 313)
 * email.
 */
import { badRequest, mustBeAdministrator, mustBeOwner } from '../../errors.js';
import { parseFieldData } from '../../input/profile-field-data.js';
import type { CustomProfileField } from '../../entities/realm-records.js';
import { isAdministrator, isOwner, ROLE, type Role, type User } from '../../entities/user.js';
import { accessAudience, checkFullName, isLastHumanOwner } from '../../queries/users/users-admin.js';
import { realmAudience } from '../../queries/users/access.js';
import { botAudienceIds } from '../../queries/users/bots.js';
import { render } from '../../rendering/render.js';
import type { World } from '../../state/world.js';
import { syncRoleGroupsWithEvents } from '../groups/role-group-events.js';
import { accessUserForAdmin } from './users-admin.js';
import { changeDeliveryEmail, checkMayChangeUserEmails, planEmailChange } from './user-email-change.js';

export interface ProfileDataEntry {
  readonly id: number;
  readonly value: string | number[] | null;
}

export interface UserUpdate {
  readonly fullName?: string;
  readonly role?: Role;
  readonly profileData?: readonly ProfileDataEntry[];
  /** Level 313; needs the requester's permission to change emails. */
  readonly newEmail?: string;
}

/** Text field limits: short text, external account and pronouns 50; long text 500. */
const TEXT_LIMIT = new Map<number, number>([
  [1, 50],
  [2, 500],
  [3, 50],
  [7, 50],
  [8, 50],
]);
/** Types whose values are Markdown and get a `rendered_value` in events. */
export const RENDERED_TYPES = new Set([1, 2]);

function checkUserIds(world: World, value: string | number[]): string {
  if (!Array.isArray(value)) throw badRequest('User IDs is not a list');
  for (const id of value) {
    const user = world.users.get(id);
    if (!user || user.isSystemBot) throw badRequest(`Invalid user ID: ${id}`);
    if (!user.isActive) throw badRequest(`User with ID ${id} is deactivated`);
    if (user.isBot) throw badRequest(`User with ID ${id} is a bot`);
  }
  return JSON.stringify(value);
}

/** `check_date`: YYYY-MM-DD naming a day that exists (`strptime` refuses 2001-02-30, which `Date` rolls over). */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The stored form of a value, after the field type's validator (`validate_user_custom_profile_field`). */
export function validateFieldValue(world: World, field: CustomProfileField, value: string | number[]): string {
  if (field.type === 6) return checkUserIds(world, value);
  if (typeof value !== 'string') throw badRequest(`${field.name} is not a string`);
  const limit = TEXT_LIMIT.get(field.type);
  if (limit !== undefined && [...value].length > limit) throw badRequest(`${field.name} is too long (limit: ${limit} characters)`);
  if (field.type === 4 && !isCalendarDate(value)) throw badRequest(`${field.name} is not a date`);
  if (field.type === 5 && !/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value)) throw badRequest(`${field.name} is not a URL`);
  // `validate_select_field`: the value is one of the choices' keys.
  if (field.type === 3 && !parseFieldData(field.fieldData).has(value)) throw badRequest(`'${value}' is not a valid choice for '${field.name}'.`);
  return value;
}

interface PlannedField {
  readonly field: CustomProfileField;
  readonly value: string | null;
}

function planProfileData(world: World, entries: readonly ProfileDataEntry[]): PlannedField[] {
  const fieldById = (id: number): CustomProfileField => {
    const field = world.customProfileFields.find((f) => f.id === id);
    if (!field) throw badRequest(`Field id ${id} not found.`);
    return field;
  };
  const removals: PlannedField[] = [];
  const updates: PlannedField[] = [];
  // Like the real server: empty values are removals (checked first), the rest are validated in order.
  for (const entry of entries) {
    if (entry.value === null || entry.value.length === 0) removals.push({ field: fieldById(entry.id), value: null });
  }
  for (const entry of entries) {
    if (entry.value === null || entry.value.length === 0) continue;
    const field = fieldById(entry.id);
    updates.push({ field, value: validateFieldValue(world, field, entry.value) });
  }
  return [...removals, ...updates];
}

/** Validates every part first, then applies role, name and profile data with their events. */
export function updateUser(world: World, actor: User, userId: number, update: UserUpdate): void {
  const target = accessUserForAdmin(world, actor, userId, { allowDeactivated: true, allowBots: true });
  if (update.newEmail !== undefined) checkMayChangeUserEmails(world, actor);
  const role = update.role;
  const roleChanges = role !== undefined && role !== target.role;
  if (roleChanges) {
    if ((role === ROLE.OWNER || target.role === ROLE.OWNER) && !isOwner(actor)) throw mustBeOwner();
    if (!isAdministrator(actor)) throw mustBeAdministrator();
    if (target.role === ROLE.OWNER && isLastHumanOwner(world, target)) {
      throw badRequest('The owner permission cannot be removed from the only organization owner.');
    }
  }
  const raw = update.fullName;
  const fullName = raw !== undefined && raw !== target.fullName && raw.trim() !== '' ? checkFullName(raw, { world, exceptUserId: target.id }) : undefined;
  const fields = update.profileData === undefined ? [] : planProfileData(world, update.profileData);
  const newEmail = update.newEmail === undefined ? undefined : planEmailChange(world, target, update.newEmail);

  if (roleChanges) {
    target.role = role;
    world.events.send({ type: 'realm_user', op: 'update', person: { user_id: target.id, role } }, realmAudience(world));
    syncRoleGroupsWithEvents(world, [target]);
  }
  if (fullName !== undefined && fullName !== target.fullName) {
    target.fullName = fullName;
    world.events.send({ type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: fullName } }, accessAudience(world, target));
    // A bot's owner and the administrators keep bot records with the name too.
    if (target.isBot) world.events.send({ type: 'realm_bot', op: 'update', bot: { user_id: target.id, full_name: fullName } }, botAudienceIds(world, target));
  }
  if (newEmail !== undefined) changeDeliveryEmail(world, target, newEmail);
  for (const { field, value } of fields) {
    const previous = target.profileData.get(field.id) ?? null;
    if (previous === value) continue;
    if (value === null) target.profileData.delete(field.id);
    else target.profileData.set(field.id, value);
    const data: Record<string, unknown> = { id: field.id, value };
    if (RENDERED_TYPES.has(field.type)) data.rendered_value = value === null ? null : render(world, value);
    world.events.send({ type: 'realm_user', op: 'update', person: { user_id: target.id, custom_profile_field: data } }, accessAudience(world, target));
  }
}
