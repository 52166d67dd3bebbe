/**
 * The custom profile field and profile data rules prove their power: against deliberately broken
 * variants of our server (a value of the wrong kind accepted, a field not editable by users
 * editable by a member, the order not kept, a limit off by one, a missing or extra event...)
 * the named rule fails; against the unbroken server every one of them passes at several levels.
 */
import { ROLE } from '../lib/entities/user.js';
import { type Mutation } from './support/conformance.js';
import { type Breakage, caller, changeForm, codePoints, eachBreakageFailsItsRule, errorsSucceed, formOf, jsonParam, mapEvents, on, passesUnbroken } from './support/power-mutations.js';
import { actAs, alsoAnnounce } from './support/power-org.js';

const RULES = [
  'profile-fields/create-every-type',
  'profile-fields/field-data-and-type-refused',
  'profile-fields/name-and-hint-limits',
  'profile-fields/default-external-account-fixed',
  'profile-fields/changes-need-administrator',
  'profile-fields/update-changes-only-what-is-sent',
  'profile-fields/reorder-kept',
  'profile-fields/delete-removes-field-and-values',
  'profile-fields/summary-cap',
  'profile-data/values-checked-by-type',
  'profile-data/update-event-with-rendering',
  'profile-data/delete-clears-values',
  'profile-data/not-editable-refused-to-members',
];

const FIELDS = '/realm/profile_fields';
const FIELD = /^\/realm\/profile_fields\/\d+$/;
const DATA = '/users/me/profile_data';

interface Entry {
  id: number;
  value: unknown;
}

/** Rewrites each `{id, value}` entry of a profile data request. */
const rewriteEntries = (change: (entry: Entry, type: number | undefined) => Entry): Mutation =>
  on('PATCH', DATA, (request, next, app) =>
    next(
      changeForm(request, (form) => {
        const entries = jsonParam<Entry[]>(form, 'data');
        if (!Array.isArray(entries)) return;
        const typeOf = (id: number) => app.world.customProfileFields.find((field) => field.id === id)?.type;
        form.set('data', JSON.stringify(entries.map((entry) => change(entry, typeOf(entry.id)))));
      }),
    ),
  );

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'a list of user IDs is accepted for a text field (stored as its JSON)',
    rule: 'profile-data/values-checked-by-type',
    mutate: rewriteEntries((entry, type) => (type === 1 && Array.isArray(entry.value) ? { ...entry, value: JSON.stringify(entry.value) } : entry)),
  },
  {
    what: 'short text is limited to 51 code points',
    rule: 'profile-data/values-checked-by-type',
    mutate: rewriteEntries((entry, type) => (type === 1 && typeof entry.value === 'string' && codePoints(entry.value) === 51 ? { ...entry, value: [...entry.value].slice(0, 50).join('') } : entry)),
  },
  {
    what: 'a day the month does not have is accepted (rolled into the next month)',
    rule: 'profile-data/values-checked-by-type',
    mutate: rewriteEntries((entry, type) => (type === 4 && entry.value === '2001-02-30' ? { ...entry, value: '2001-03-02' } : entry)),
  },
  {
    what: 'a field not editable by users is editable by a member',
    rule: 'profile-data/not-editable-refused-to-members',
    mutate: on('PATCH', DATA, (request, next, app) => {
      app.world.customProfileFields.forEach((field, index) => (app.world.customProfileFields[index] = { ...field, editableByUser: true }));
      return next(request);
    }),
  },
  { what: 'realm_user updates of text fields lack rendered_value', rule: 'profile-data/update-event-with-rendering', mutate: mapEvents('realm_user', (event) => delete ((event.person as { custom_profile_field?: Record<string, unknown> }).custom_profile_field ?? {}).rendered_value) },
  {
    what: 'setting the same value again is announced again',
    rule: 'profile-data/update-event-with-rendering',
    mutate: alsoAnnounce('PATCH', /^\/users\/me\/profile_data$/, (request, app) => {
      const [entry] = jsonParam<Entry[]>(formOf(request), 'data') ?? [];
      return { type: 'realm_user', op: 'update', person: { user_id: caller(app, request)?.id, custom_profile_field: { id: entry?.id, value: entry?.value } } };
    }),
  },
  { what: 'clearing an unknown field ID succeeds', rule: 'profile-data/delete-clears-values', mutate: errorsSucceed('DELETE', /^\/users\/me\/profile_data$/) },
  { what: 'an order missing a field is accepted (and changes nothing)', rule: 'profile-fields/reorder-kept', mutate: errorsSucceed('PATCH', /^\/realm\/profile_fields$/) },
  { what: 'custom_profile_fields events list the fields in reverse order', rule: 'profile-fields/reorder-kept', mutate: mapEvents('custom_profile_fields', (event) => (event.fields as unknown[]).reverse()) },
  {
    what: 'new fields sort first',
    rule: 'profile-fields/create-every-type',
    mutate: on('POST', FIELDS, async (request, next, app) => {
      const response = await next(request);
      const fields = app.world.customProfileFields;
      fields.forEach((field, index) => (fields[index] = index === fields.length - 1 ? { ...field, order: -index } : field));
      return response;
    }),
  },
  { what: 'unknown field types are created as short text', rule: 'profile-fields/field-data-and-type-refused', mutate: on('POST', FIELDS, (request, next) => next(changeForm(request, (form) => !['1', '2', '3', '4', '5', '6', '7', '8'].includes(form.get('field_type') ?? '') && form.set('field_type', '1')))) },
  {
    what: 'names of 41 code points are cut to 40',
    rule: 'profile-fields/name-and-hint-limits',
    mutate: on('POST', FIELDS, (request, next) => next(changeForm(request, (form) => codePoints(form.get('name') ?? '') === 41 && form.set('name', [...(form.get('name') ?? '')].slice(0, 40).join(''))))),
  },
  {
    what: 'a default external account keeps the name it was sent',
    rule: 'profile-fields/default-external-account-fixed',
    mutate: on('POST', FIELDS, async (request, next, app) => {
      const response = await next(request);
      const name = formOf(request).get('name') ?? '';
      const fields = app.world.customProfileFields;
      const last = fields[fields.length - 1];
      if (response.status === 200 && last && last.type === 7 && last.name !== name) fields[fields.length - 1] = { ...last, name };
      return response;
    }),
  },
  {
    what: 'moderators may create and change fields',
    rule: 'profile-fields/changes-need-administrator',
    mutate: actAs(/^\/realm\/profile_fields/, ROLE.MODERATOR, ROLE.ADMINISTRATOR),
  },
  { what: 'an omitted hint is reset (as before level 252)', rule: 'profile-fields/update-changes-only-what-is-sent', mutate: on('PATCH', FIELD, (request, next) => next(changeForm(request, (form) => !form.has('hint') && form.set('hint', '')))) },
  { what: 'deleting a deleted field succeeds', rule: 'profile-fields/delete-removes-field-and-values', mutate: errorsSucceed('DELETE', FIELD) },
  {
    what: 'three fields may be shown in the profile summary',
    rule: 'profile-fields/summary-cap',
    mutate: on('POST', FIELDS, async (request, next, app) => {
      const fields = app.world.customProfileFields;
      const shown = fields.filter((field) => field.displayInProfileSummary === true);
      const hidden = formOf(request).get('display_in_profile_summary') === 'true' && shown.length === 2 ? shown[0] : undefined;
      const flag = (value: boolean) => {
        const at = fields.findIndex((field) => field.id === hidden?.id);
        if (at >= 0) fields[at] = { ...fields[at]!, displayInProfileSummary: value };
      };
      flag(false);
      const response = await next(request);
      flag(true);
      return response;
    }),
  },
];

passesUnbroken('every custom profile field and profile data rule', RULES, [415, 289, 207], 5, 10);

eachBreakageFailsItsRule(BREAKAGES, 5);
