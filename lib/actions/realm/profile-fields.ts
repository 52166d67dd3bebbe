/**
 * Creating, changing, reordering and deleting the realm's custom profile fields, with the real
 * server's order of checks and texts. Every change sends the complete ordered list in a
 * `custom_profile_fields` event to every active account of the realm.
 */
import { badRequest } from '../../errors.js';
import type { CustomProfileField } from '../../entities/realm-records.js';
import { codePointLength } from '../../input/topic-names.js';
import {
  checkFieldData,
  DEFAULT_EXTERNAL_ACCOUNTS,
  defaultExternalSubtype,
  fieldDataJson,
  parseFieldData,
  type ProfileFieldData,
  sameFieldData,
} from '../../input/profile-field-data.js';
import { activeRealmUserIds } from '../../queries/users/access.js';
import { knownFieldTypes, PROFILE_FIELD_TYPE, profileFieldsState } from '../../queries/realm/profile-fields.js';
import { userIdsWhoCanAccess } from '../../queries/users/users-admin.js';
import type { World } from '../../state/world.js';

const NAME_MAX_LENGTH = 40;
const HINT_MAX_LENGTH = 80;
const MAX_SUMMARY_FIELDS = 2;

/** A new field as `POST /realm/profile_fields` takes it; `name` is already stripped. */
export interface ProfileFieldInput {
  readonly name: string;
  readonly hint: string;
  readonly fieldType: number;
  readonly fieldData: ProfileFieldData;
  readonly displayInProfileSummary: boolean;
  readonly required: boolean;
  readonly editableByUser: boolean;
}

/** What `PATCH /realm/profile_fields/{field_id}` changes; absent means unchanged. */
export interface ProfileFieldChanges {
  readonly name?: string;
  readonly hint?: string;
  readonly fieldData?: ProfileFieldData;
  readonly displayInProfileSummary?: boolean;
  readonly required?: boolean;
  readonly editableByUser?: boolean;
}

const fieldNotFound = (id: number) => badRequest(`Field id ${id} not found.`);
const duplicateLabel = () => badRequest('A field with that label already exists.');
const hasChoices = (type: number) => type === PROFILE_FIELD_TYPE.SELECT || type === PROFILE_FIELD_TYPE.EXTERNAL_ACCOUNT;

function notify(world: World): void {
  world.events.send({ type: 'custom_profile_fields', fields: profileFieldsState(world) }, activeRealmUserIds(world));
}

function checkSummaryLimit(world: World, exceptId?: number): void {
  const shown = world.customProfileFields.filter((field) => field.displayInProfileSummary === true && field.id !== exceptId);
  if (shown.length >= MAX_SUMMARY_FIELDS) {
    throw badRequest(`Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);
  }
}

/** `validate_custom_profile_field`: choices, then label and hint, then type, then summary support. */
function validateField(world: World, name: string, hint: string, type: number, data: ProfileFieldData, inSummary: boolean): void {
  checkFieldData(type, data);
  if (defaultExternalSubtype(type, data) === undefined) {
    if (name.trim() === '') throw badRequest('Label cannot be blank.');
    if (codePointLength(hint) > HINT_MAX_LENGTH) throw badRequest(`hint is too long (limit: ${HINT_MAX_LENGTH} characters)`);
    if (codePointLength(name) > NAME_MAX_LENGTH) throw badRequest(`name is too long (limit: ${NAME_MAX_LENGTH} characters)`);
  }
  if (!knownFieldTypes(world).includes(type)) throw badRequest('Invalid field type.');
  if (inSummary && (type === PROFILE_FIELD_TYPE.LONG_TEXT || type === PROFILE_FIELD_TYPE.USER)) {
    throw badRequest('Field type not supported for display in profile summary.');
  }
}

const labelTaken = (world: World, name: string, exceptId?: number): boolean =>
  world.customProfileFields.some((field) => field.name === name && field.id !== exceptId);

/**
 * Adds a field and returns its ID. A default external account (`subtype` `github`, ...) takes
 * its name and hint from the provider, whatever the client sent. New fields sort last: their
 * `order` is their ID, as on the real server.
 */
export function createProfileField(world: World, input: ProfileFieldInput): number {
  if (input.displayInProfileSummary) checkSummaryLimit(world);
  validateField(world, input.name, input.hint, input.fieldType, input.fieldData, input.displayInProfileSummary);
  const subtype = defaultExternalSubtype(input.fieldType, input.fieldData);
  const provider = subtype === undefined ? undefined : DEFAULT_EXTERNAL_ACCOUNTS.get(subtype);
  const name = provider?.name ?? input.name;
  if (labelTaken(world, name)) throw duplicateLabel();
  const id = world.ids.next('profileField');
  let fieldData: string | undefined;
  if (subtype !== undefined) fieldData = fieldDataJson(new Map([['subtype', subtype]]));
  else if (hasChoices(input.fieldType)) fieldData = fieldDataJson(input.fieldData);
  world.customProfileFields.push({
    id,
    name,
    hint: provider?.hint ?? input.hint,
    type: input.fieldType,
    order: id,
    ...(fieldData === undefined ? {} : { fieldData }),
    displayInProfileSummary: input.displayInProfileSummary,
    required: input.required,
    editableByUser: input.editableByUser,
  });
  notify(world);
  return id;
}

/** Whether a request on a default external account changes anything but the summary flag. */
function changesDefaultAccount(field: CustomProfileField, changes: ProfileFieldChanges): boolean {
  return (
    (changes.name !== undefined && changes.name !== field.name) ||
    (changes.hint !== undefined && changes.hint !== field.hint) ||
    (changes.fieldData !== undefined && !sameFieldData(changes.fieldData, parseFieldData(field.fieldData)))
  );
}

/** Users' values that name a choice the new list no longer has are removed, each announced. */
function removeDroppedChoices(world: World, field: CustomProfileField, data: ProfileFieldData): void {
  for (const user of world.users.values()) {
    const value = user.profileData.get(field.id);
    if (value === undefined || data.has(value) || !parseFieldData(field.fieldData).has(value)) continue;
    user.profileData.delete(field.id);
    const person = { user_id: user.id, custom_profile_field: { id: field.id, value: null } };
    world.events.send({ type: 'realm_user', op: 'update', person }, userIdsWhoCanAccess(world, user));
  }
}

/** Changes a field's configuration; its type never changes. An event follows even when nothing changed. */
export function updateProfileField(world: World, id: number, changes: ProfileFieldChanges): void {
  const index = world.customProfileFields.findIndex((field) => field.id === id);
  const field = world.customProfileFields[index];
  if (!field) throw fieldNotFound(id);
  if (changes.displayInProfileSummary === true) checkSummaryLimit(world, id);
  const stored = parseFieldData(field.fieldData);
  if (defaultExternalSubtype(field.type, stored) !== undefined && changesDefaultAccount(field, changes)) {
    throw badRequest('Default custom field cannot be updated.');
  }
  const name = changes.name ?? field.name;
  const hint = changes.hint ?? field.hint;
  const inSummary = changes.displayInProfileSummary ?? field.displayInProfileSummary ?? false;
  validateField(world, name, hint, field.type, changes.fieldData ?? stored, inSummary);
  if (labelTaken(world, name, id)) throw duplicateLabel();

  let fieldData = field.fieldData;
  if (hasChoices(field.type) && (changes.fieldData !== undefined || !fieldData)) {
    if (changes.fieldData !== undefined && field.type === PROFILE_FIELD_TYPE.SELECT) removeDroppedChoices(world, field, changes.fieldData);
    fieldData = fieldDataJson(changes.fieldData ?? new Map());
  }
  world.customProfileFields[index] = {
    ...field,
    name,
    hint,
    ...(fieldData === undefined ? {} : { fieldData }),
    displayInProfileSummary: inSummary,
    required: changes.required ?? field.required ?? false,
    editableByUser: changes.editableByUser ?? field.editableByUser ?? true,
  };
  notify(world);
}

/** Deletes a field and every user's value of it (without per-user events, as the real server). */
export function deleteProfileField(world: World, id: number): void {
  const index = world.customProfileFields.findIndex((field) => field.id === id);
  if (index < 0) throw fieldNotFound(id);
  world.customProfileFields.splice(index, 1);
  for (const user of world.users.values()) user.profileData.delete(id);
  notify(world);
}

/**
 * Sets each field's `order` to its position in `order`. Every field must be listed; IDs of no
 * field are ignored, and a repeated ID takes its last position (the real server's mapping).
 */
export function reorderProfileFields(world: World, order: readonly number[]): void {
  const position = new Map<number, number>();
  order.forEach((id, index) => position.set(id, index));
  if (world.customProfileFields.some((field) => !position.has(field.id))) throw badRequest('Invalid order mapping.');
  world.customProfileFields.forEach((field, index) => {
    world.customProfileFields[index] = { ...field, order: position.get(field.id) as number };
  });
  notify(world);
}
