/**
 * Custom profile fields: `GET /realm/profile_fields` (everyone), and for administrators
 * `POST /realm/profile_fields`, `PATCH /realm/profile_fields` (reorder),
 * `PATCH|DELETE /realm/profile_fields/{field_id}`. The administrator gate runs before any
 * parameter is read, as the real server's `require_realm_admin`.
 */
import { createProfileField, deleteProfileField, type ProfileFieldChanges, reorderProfileFields, updateProfileField } from '../../../lib/actions/realm/profile-fields.js';
import { mustBeAdministrator } from '../../../lib/errors.js';
import { isAdministrator } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { profileFieldDataSchema } from '../../../lib/input/profile-field-data.js';
import { profileFieldsState } from '../../../lib/queries/realm/profile-fields.js';
import { bool, int, list } from '../../../lib/input/schema.js';
import { type AuthedContext, authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

const adminOnly = ({ user }: AuthedContext): void => {
  if (!isAdministrator(user)) throw mustBeAdministrator();
};

const listFields = authed({
  reportsIgnored: false,
  params: {},
  run: ({ world }) => ({ custom_fields: profileFieldsState(world) }),
});

const createField = authed({
  gate: adminOnly,
  params: {
    name: str({ strip: true }).default(''),
    hint: str().default(''),
    field_data: json(profileFieldDataSchema).default(new Map()),
    field_type: json(int).required(),
    display_in_profile_summary: json(bool).default(false).availableFrom(FEATURES.PROFILE_FIELD_SUMMARY, { otherwise: false }),
    required: json(bool).default(false).availableFrom(FEATURES.PROFILE_FIELD_REQUIRED, { otherwise: false }),
    editable_by_user: json(bool).default(true).availableFrom(FEATURES.PROFILE_FIELD_EDITABLE_BY_USER, { otherwise: true }),
  },
  run: ({ world }, args) => ({
    id: createProfileField(world, {
      name: args.name,
      hint: args.hint,
      fieldType: args.field_type,
      fieldData: args.field_data,
      displayInProfileSummary: args.display_in_profile_summary,
      required: args.required,
      editableByUser: args.editable_by_user,
    }),
  }),
});

/**
 * Before FL 252 an omitted `name`, `hint`, `field_data`, `display_in_profile_summary` or
 * `required` took its default (`''`, `''`, `{}`, false, false) rather than keeping the
 * field's value, so clients had to send them all.
 */
const updateField = authed({
  gate: adminOnly,
  params: {
    name: str({ strip: true }),
    hint: str(),
    field_data: json(profileFieldDataSchema),
    required: json(bool).availableFrom(FEATURES.PROFILE_FIELD_REQUIRED),
    display_in_profile_summary: json(bool).availableFrom(FEATURES.PROFILE_FIELD_SUMMARY),
    editable_by_user: json(bool).availableFrom(FEATURES.PROFILE_FIELD_EDITABLE_BY_USER),
  },
  run({ world, path }, args) {
    const resets = !world.has(FEATURES.PROFILE_FIELD_UPDATE_OPTIONAL);
    const changes: ProfileFieldChanges = {
      ...pick('name', args.name, resets ? '' : undefined),
      ...pick('hint', args.hint, resets ? '' : undefined),
      ...pick('fieldData', args.field_data, resets ? new Map() : undefined),
      ...pick('displayInProfileSummary', args.display_in_profile_summary, resets ? false : undefined),
      ...pick('required', args.required, resets && world.has(FEATURES.PROFILE_FIELD_REQUIRED) ? false : undefined),
      ...pick('editableByUser', args.editable_by_user, undefined),
    };
    updateProfileField(world, Number(path.get('field_id')), changes);
    return {};
  },
});

/** `{ [key]: value }` when the value (or its fallback) is defined, else nothing. */
function pick<K extends string, T>(key: K, value: T | undefined, fallback: T | undefined): Partial<Record<K, T>> {
  const chosen = value ?? fallback;
  return chosen === undefined ? {} : ({ [key]: chosen } as Partial<Record<K, T>>);
}

const deleteField = authed({
  gate: adminOnly,
  reportsIgnored: false,
  params: {},
  run({ world, path }) {
    deleteProfileField(world, Number(path.get('field_id')));
    return {};
  },
});

const reorderFields = authed({
  gate: adminOnly,
  params: { order: json(list(int)).required() },
  run({ world }, { order }) {
    reorderProfileFields(world, order);
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/realm/profile_fields', methods: { GET: listFields, POST: createField, PATCH: reorderFields } },
  { path: '/realm/profile_fields/{field_id:int}', methods: { PATCH: updateField, DELETE: deleteField } },
];
