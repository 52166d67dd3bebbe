/**
 * The realm's custom profile fields in their API shape (`GET /realm/profile_fields`, register's
 * `custom_profile_fields`, the `custom_profile_fields` event), as the real server's `as_dict`.
 */
import type { CustomProfileField } from '../../entities/realm-records.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

/** The field types by number; `PRONOUNS` exists from FL 151. */
export const PROFILE_FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

/** Register's `custom_profile_field_types`, in the real server's order (by display name). */
const FIELD_TYPE_NAMES: ReadonlyArray<readonly [keyof typeof PROFILE_FIELD_TYPE, string]> = [
  ['DATE', 'Date'],
  ['EXTERNAL_ACCOUNT', 'External account'],
  ['URL', 'Link'],
  ['SELECT', 'List of options'],
  ['PRONOUNS', 'Pronouns'],
  ['LONG_TEXT', 'Text (long)'],
  ['SHORT_TEXT', 'Text (short)'],
  ['USER', 'Users'],
];

/** The field types the emulated level knows. */
export function knownFieldTypes(world: World): number[] {
  return FIELD_TYPE_NAMES.filter(([key]) => key !== 'PRONOUNS' || world.has(FEATURES.PRONOUNS_FIELD_TYPE)).map(([key]) => PROFILE_FIELD_TYPE[key]);
}

/** The fields in display order (`order`, then ID for ties, as a stable database sort would). */
export function orderedProfileFields(world: World): CustomProfileField[] {
  return [...world.customProfileFields].sort((a, b) => a.order - b.order || a.id - b.id);
}

/** One field as `as_dict` gives it at the emulated level. */
export function profileFieldToApi(world: World, field: CustomProfileField): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: field.id,
    name: field.name,
    type: field.type,
    hint: field.hint,
    field_data: field.fieldData ?? '',
    order: field.order,
  };
  if (world.has(FEATURES.PROFILE_FIELD_REQUIRED)) out.required = field.required ?? false;
  if (world.has(FEATURES.PROFILE_FIELD_EDITABLE_BY_USER)) out.editable_by_user = field.editableByUser ?? true;
  // Only present, and only `true`, when set (`display_in_profile_summary`, FL 146).
  if (world.has(FEATURES.PROFILE_FIELD_SUMMARY) && field.displayInProfileSummary === true) out.display_in_profile_summary = true;
  return out;
}

export function profileFieldsState(world: World): Record<string, unknown>[] {
  return orderedProfileFields(world).map((field) => profileFieldToApi(world, field));
}

/**
 * Register's `custom_profile_fields` and `custom_profile_field_types`. A client without the
 * `pronouns_field_type_supported` capability sees pronouns fields as short text fields and no
 * `PRONOUNS` type.
 */
export function profileFieldsRegisterState(world: World, pronounsSupported: boolean): Record<string, unknown> {
  const fields = profileFieldsState(world).map((field) =>
    !pronounsSupported && field.type === PROFILE_FIELD_TYPE.PRONOUNS ? { ...field, type: PROFILE_FIELD_TYPE.SHORT_TEXT } : field,
  );
  const known = new Set(knownFieldTypes(world));
  const types = FIELD_TYPE_NAMES.filter(([key]) => known.has(PROFILE_FIELD_TYPE[key]) && (pronounsSupported || key !== 'PRONOUNS')).map(
    ([key, name]) => [key, { id: PROFILE_FIELD_TYPE[key], name }] as const,
  );
  return { custom_profile_fields: fields, custom_profile_field_types: Object.fromEntries(types) };
}
