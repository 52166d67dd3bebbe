/**
 * Creating custom profile fields (`POST /realm/profile_fields`, the real server's
 * `create_realm_custom_profile_field`): every field type of the level with its `field_data`
 * rules, the name and hint limits (40 and 80 code points), duplicate labels, default external
 * accounts, and who may change fields at all. Every rule is realm-wide and removes its fields.
 */
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { filledTo } from '../channels/subscribe-support.js';
import { expectPrivilegeRefused } from '../support/org-checks.js';
import type { Rule } from '../types.js';
import {
  type ApiField,
  choices,
  customAccount,
  FIELD_LEVELS,
  FIELD_TYPE,
  fieldData,
  fieldParams,
  FIELDS_PATH,
  HINT_MAX,
  listFields,
  NAME_MAX,
  profileFieldRule,
  typesAt,
} from './profile-fields-support.js';

const CREATE = 'POST /realm/profile_fields';
const SECTION = 'api/create-custom-profile-field';

/** The `field_data` a type is created with (none for types without data). */
function dataFor(type: number): Record<string, unknown> | undefined {
  if (type === FIELD_TYPE.SELECT) return Object.fromEntries(choices(['k1', 'One'], ['k2', 'Two']));
  if (type === FIELD_TYPE.EXTERNAL_ACCOUNT) return customAccount;
  return undefined;
}

/** The flags every new field carries by default, at the level. */
function expectDefaultFlags(field: ApiField, level: number, what: string): void {
  expectEqual(field.required, level >= FIELD_LEVELS.REQUIRED ? false : undefined, `required of ${what} (present from level ${FIELD_LEVELS.REQUIRED})`);
  expectEqual(field.editable_by_user, level >= FIELD_LEVELS.EDITABLE_BY_USER ? true : undefined, `editable_by_user of ${what} (present from level ${FIELD_LEVELS.EDITABLE_BY_USER})`);
  check(field.display_in_profile_summary === undefined, `${what} carries display_in_profile_summary, which is listed only when true`);
}

const everyType = profileFieldRule({
  id: 'profile-fields/create-every-type',
  title: 'a field of every type of the level is created with its name, hint and field_data (empty for types without data), the default flags of the level, and sorts after the existing fields in creation order; guests list the same fields',
  endpoint: `${CREATE}, GET /realm/profile_fields`,
  section: SECTION,
  needs: ['guest'],
}, async (ctx, { fields, before, reader }) => {
  const created: Array<{ id: number; name: string; type: number; hint: string; data: unknown }> = [];
  for (const type of typesAt(ctx.featureLevel)) {
    const name = ctx.name(`pf-t${type}`);
    const hint = `hint of type ${type}`;
    const data = dataFor(type);
    const id = await fields.create(fieldParams(name, type, [['hint', hint], ...(data ? [['field_data', data] as const] : [])]));
    created.push({ id, name, type, hint, data: data ?? {} });
  }
  const listed = await listFields(reader);
  const positions = listed.map((field) => field.id);
  expectEqual(positions.filter((id) => created.some((field) => field.id === id)), created.map((field) => field.id), 'the new fields in the listing, in creation order');
  const lastBefore = Math.max(-1, ...before.map((field) => positions.indexOf(field.id)));
  check(created.every((field) => positions.indexOf(field.id) > lastBefore), 'new fields sort after every field that existed before');
  for (const want of created) {
    const field = listed.find((entry) => entry.id === want.id) as ApiField;
    expectEqual({ name: field.name, type: field.type, hint: field.hint, data: fieldData(field) }, { name: want.name, type: want.type, hint: want.hint, data: want.data }, `the field of type ${want.type} as listed`);
    expectDefaultFlags(field, ctx.featureLevel, `the field of type ${want.type}`);
  }
  expectEqual(await listFields(ctx.as('guest')), listed, 'GET /realm/profile_fields as the guest (the list is public to the organization)');
});

/** Field data the real server refuses, per type, with what is wrong. */
const BAD_DATA: ReadonlyArray<readonly [string, number, unknown]> = [
  ['a list without choices', FIELD_TYPE.SELECT, {}],
  ['a list with two choices of the same text', FIELD_TYPE.SELECT, Object.fromEntries(choices(['a', 'Same'], ['b', 'Same']))],
  ['a list choice with blank text', FIELD_TYPE.SELECT, { a: { text: ' ', order: '1' } }],
  ['a list choice without order', FIELD_TYPE.SELECT, { a: { text: 'A' } }],
  ['a list choice with an extra key', FIELD_TYPE.SELECT, { a: { text: 'A', order: '1', color: 'red' } }],
  ['a list choice that is text, not an object', FIELD_TYPE.SELECT, { a: 'A' }],
  ['an external account of an unknown provider', FIELD_TYPE.EXTERNAL_ACCOUNT, { subtype: 'no-such-provider' }],
  ['an external account without subtype', FIELD_TYPE.EXTERNAL_ACCOUNT, {}],
  ['a custom external account without URL pattern', FIELD_TYPE.EXTERNAL_ACCOUNT, { subtype: 'custom' }],
  ['a custom URL pattern without %(username)s', FIELD_TYPE.EXTERNAL_ACCOUNT, { subtype: 'custom', url_pattern: 'https://example.com/people' }],
  ['a custom URL pattern holding %(username)s twice', FIELD_TYPE.EXTERNAL_ACCOUNT, { subtype: 'custom', url_pattern: 'https://example.com/%(username)s/%(username)s' }],
  ['field_data that is a list', FIELD_TYPE.SELECT, [1]],
];

const fieldDataRules = profileFieldRule({
  id: 'profile-fields/field-data-and-type-refused',
  title: 'list choices (at least one, distinct non-blank texts, exactly text and order) and external accounts (a known provider, or custom with one %(username)s) are checked, and unknown field types refused, each with 400 BAD_REQUEST and no field created',
  endpoint: CREATE,
  section: SECTION,
}, async (ctx, { fields, reader }) => {
  const tried: string[] = [];
  const refuse = async (what: string, type: number, data: unknown) => {
    const name = ctx.name('pf-bad');
    tried.push(name);
    const { reply } = await fields.attempt(fieldParams(name, type, data === undefined ? [] : [['field_data', data]]));
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${what} should be refused with 400 BAD_REQUEST; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  };
  for (const [what, type, data] of BAD_DATA) await refuse(what, type, data);
  for (const type of [0, 9, 99, -1]) await refuse(`field type ${type}`, type, undefined);
  if (ctx.featureLevel < FIELD_LEVELS.PRONOUNS) await refuse('the pronouns type before level 151', FIELD_TYPE.PRONOUNS, undefined);
  const leaked = (await listFields(reader)).filter((field) => tried.includes(field.name));
  expectEqual(leaked.map((field) => field.name), [], 'fields created by refused requests');
});

const nameAndHint = profileFieldRule({
  id: 'profile-fields/name-and-hint-limits',
  title: `a name of ${NAME_MAX} code points and a hint of ${HINT_MAX} are accepted, one more of either is refused; names are stripped, blank names and a label another field has are refused (400 BAD_REQUEST)`,
  endpoint: CREATE,
  section: SECTION,
}, async (ctx, { fields, before, reader }) => {
  const astral = ['😀', '𝔘'];
  const longName = filledTo(ctx.name('pf'), NAME_MAX, astral);
  const hint = filledTo('hint ', HINT_MAX, ['h', 'é', '日']);
  const id = await fields.create(fieldParams(`  ${longName}  `, FIELD_TYPE.SHORT_TEXT, [['hint', hint]]));
  const stored = (await listFields(reader)).find((field) => field.id === id);
  expectEqual([stored?.name, stored?.hint], [longName, hint], `a ${NAME_MAX}-code-point name (sent with spaces around it) and a ${HINT_MAX}-code-point hint as listed`);
  const refusals: Array<[string, string, string]> = [
    [`a name of ${NAME_MAX + 1} code points`, filledTo(ctx.name('pf'), NAME_MAX + 1, astral), ''],
    [`a hint of ${HINT_MAX + 1} code points`, ctx.name('pf'), filledTo('hint ', HINT_MAX + 1, ['h'])],
    ['a blank name', '   ', ''],
    ['the label of the field just created', longName, ''],
    ...before.slice(0, 1).map((field): [string, string, string] => [`the label of the existing field ${field.id}`, field.name, '']),
  ];
  for (const [what, name, refusedHint] of refusals) {
    const { reply } = await fields.attempt(fieldParams(name, FIELD_TYPE.SHORT_TEXT, [['hint', refusedHint]]));
    expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    check(typeof reply.body?.id !== 'number', `${what} created a field`, reply);
  }
  expectEqual((await listFields(reader)).length, before.length + 1, 'the number of fields after the refusals');
});

/** Subtypes of default external accounts, tried in turn (one may already exist on the target). */
const DEFAULT_SUBTYPES = ['github', 'twitter'];

const defaultAccount = profileFieldRule({
  id: 'profile-fields/default-external-account-fixed',
  title: 'a default external account (subtype github or twitter) takes its provider\'s name and an empty hint whatever was sent, cannot be created twice, and its name cannot be changed (400 BAD_REQUEST)',
  endpoint: CREATE,
  section: SECTION,
  levels: { min: FIELD_LEVELS.PATCH_KEEPS },
}, async (ctx, { admin, fields, reader }) => {
  const sentName = ctx.name('pf-sent-name');
  for (const subtype of DEFAULT_SUBTYPES) {
    const params = fieldParams(sentName, FIELD_TYPE.EXTERNAL_ACCOUNT, [['hint', 'a hint that is dropped'], ['field_data', { subtype }]]);
    const { reply, id } = await fields.attempt(params);
    if (reply.status !== 200 || id === undefined) continue;
    const field = (await listFields(reader)).find((entry) => entry.id === id) as ApiField;
    check(field.name !== sentName && field.name.trim() !== '', `the ${subtype} account kept the sent name ${sentName} instead of its provider's`);
    expectEqual({ hint: field.hint, data: fieldData(field) }, { hint: '', data: { subtype } }, `hint and field_data of the ${subtype} account`);
    expectError((await fields.attempt(params)).reply, { status: 400, code: 'BAD_REQUEST' });
    expectError(await admin.patch(`${FIELDS_PATH}/${id}`, { name: ctx.name('pf-renamed') }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual((await listFields(reader)).find((entry) => entry.id === id)?.name, field.name, `the ${subtype} account's name after the refused rename`);
    return;
  }
  ctx.skip(`the target already has (or refuses) every default external account tried (${DEFAULT_SUBTYPES.join(', ')})`);
});

const administratorsOnly = profileFieldRule({
  id: 'profile-fields/changes-need-administrator',
  title: 'creating, changing, reordering and deleting fields is refused to moderators, members and guests (400) and changes nothing',
  endpoint: CREATE,
  section: `${SECTION}; api/update-custom-profile-field`,
  needs: ['moderator', 'member', 'guest'],
}, async (ctx, { admin, fields, reader }) => {
  const id = await fields.create(fieldParams(ctx.name('pf'), FIELD_TYPE.SHORT_TEXT));
  const listed = await listFields(reader);
  for (const who of ['moderator', 'member', 'guest'] as const) {
    const client = ctx.as(who);
    const name = ctx.name(`pf-by-${who}`);
    expectPrivilegeRefused(await client.post(FIELDS_PATH, fieldParams(name, FIELD_TYPE.SHORT_TEXT)), `the ${who} creating a field`);
    expectPrivilegeRefused(await client.patch(`${FIELDS_PATH}/${id}`, { name }), `the ${who} renaming a field`);
    expectPrivilegeRefused(await client.patch(FIELDS_PATH, { order: [...listed.map((field) => field.id)].reverse() }), `the ${who} reordering the fields`);
    expectPrivilegeRefused(await client.delete(`${FIELDS_PATH}/${id}`), `the ${who} deleting a field`);
  }
  expectEqual(await listFields(reader), listed, 'the fields after the refused requests');
  expectSuccess(await admin.delete(`${FIELDS_PATH}/${id}`));
});

export const rules: readonly Rule[] = [everyType, fieldDataRules, nameAndHint, defaultAccount, administratorsOnly];
