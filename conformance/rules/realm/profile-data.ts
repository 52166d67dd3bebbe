/**
 * A user's own custom profile field values: `PATCH /users/me/profile_data` (each type's value
 * checks, all entries before any is stored) and `DELETE /users/me/profile_data`, fields not
 * editable by users (level 296), and the `realm_user` update each change sends. The fields are
 * created for the rule (realm-wide) and deleted afterwards with every value.
 */
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { awaitEvent, draftSentinel, expectNoEventBefore } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import type { Rule } from '../types.js';
import { choices, customAccount, FIELD_LEVELS, FIELD_TYPE, fieldParams, profileFieldRule, profileValues, type RuleFields, typesAt, valueOf } from './profile-fields-support.js';

const PATH = '/users/me/profile_data';
const SECTION = 'api/update-user-custom-profile-data';

/** Creates one field per type of the level; returns their IDs by type. */
async function fieldPerType(fields: RuleFields, name: (label: string) => string, level: number): Promise<Map<number, number>> {
  const byType = new Map<number, number>();
  for (const type of typesAt(level)) {
    const data =
      type === FIELD_TYPE.SELECT ? [['field_data', Object.fromEntries(choices(['k1', 'One'], ['k2', 'Two']))] as const] : type === FIELD_TYPE.EXTERNAL_ACCOUNT ? [['field_data', customAccount] as const] : [];
    byType.set(type, await fields.create(fieldParams(name(`pf-v${type}`), type, data)));
  }
  return byType;
}

/** A far-away user ID no account has. */
const NO_SUCH_USER = 2_000_000_000;

const valuesByType = profileFieldRule({
  id: 'profile-data/values-checked-by-type',
  title: 'each field type takes exactly its values (text up to 50 or 500 code points, a choice key, a YYYY-MM-DD date, a URL, a list of users) and refuses others with 400 BAD_REQUEST; a request with one bad entry stores none of them',
  endpoint: 'PATCH /users/me/profile_data',
  section: SECTION,
  needs: ['member', 'second-member'],
}, async (ctx, { fields, reader }) => {
  const ids = await fieldPerType(fields, (label) => ctx.name(label), ctx.featureLevel);
  const member = ctx.as('member');
  const me = ctx.identity('member').userId;
  const rows: Array<[number, unknown, boolean]> = [
    [FIELD_TYPE.SHORT_TEXT, 's'.repeat(50), true],
    [FIELD_TYPE.SHORT_TEXT, '😀'.repeat(50), true],
    [FIELD_TYPE.SHORT_TEXT, 's'.repeat(51), false],
    [FIELD_TYPE.SHORT_TEXT, [me], false],
    [FIELD_TYPE.LONG_TEXT, 'l'.repeat(500), true],
    [FIELD_TYPE.LONG_TEXT, 'l'.repeat(501), false],
    [FIELD_TYPE.SELECT, 'k2', true],
    [FIELD_TYPE.SELECT, 'Two', false],
    [FIELD_TYPE.SELECT, 'k3', false],
    [FIELD_TYPE.DATE, '2001-02-03', true],
    [FIELD_TYPE.DATE, '2001-02-30', false],
    [FIELD_TYPE.DATE, '03/02/2001', false],
    [FIELD_TYPE.URL, 'https://example.com/page', true],
    [FIELD_TYPE.URL, 'example.com', false],
    [FIELD_TYPE.URL, 'not a url', false],
    [FIELD_TYPE.USER, [me, ctx.identity('second-member').userId], true],
    [FIELD_TYPE.USER, [NO_SUCH_USER], false],
    [FIELD_TYPE.USER, 'someone', false],
    [FIELD_TYPE.EXTERNAL_ACCOUNT, 'someone', true],
    [FIELD_TYPE.EXTERNAL_ACCOUNT, 'e'.repeat(51), false],
    [FIELD_TYPE.PRONOUNS, 'they/them', true],
    [FIELD_TYPE.PRONOUNS, 'p'.repeat(51), false],
  ];
  const stored = new Map<number, unknown>();
  for (const [type, value, accepted] of rows) {
    const id = ids.get(type);
    if (id === undefined) continue;
    const reply = await member.patch(PATH, { data: [{ id, value }] });
    const what = `${JSON.stringify(value).slice(0, 40)} for a field of type ${type}`;
    if (accepted) {
      check(reply.status === 200, `${what} should be accepted; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
      stored.set(id, value);
    } else expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  }
  const short = ids.get(FIELD_TYPE.SHORT_TEXT) as number;
  const date = ids.get(FIELD_TYPE.DATE) as number;
  expectError(await member.patch(PATH, { data: [{ id: short, value: 5 }] }), { status: 400, code: 'BAD_REQUEST' });
  expectError(await member.patch(PATH, { data: [{ id: short, value: 'batch' }, { id: date, value: 'not a date' }] }), { status: 400, code: 'BAD_REQUEST' });
  expectError(await member.patch(PATH, { data: [{ id: Math.max(...ids.values()) + 1_000_000, value: 'x' }] }), { status: 400, code: 'BAD_REQUEST' });
  const values = await profileValues(reader, me);
  for (const [id, value] of stored) expectEqual(valueOf(values.get(id)), value, `the member's value of field ${id} (the last accepted one)`);
}, 'admin');

const isUpdateOf = (userId: number, fieldId: number) => (event: JsonObject): boolean => {
  const person = event.person as JsonObject | undefined;
  return event.type === 'realm_user' && event.op === 'update' && person?.user_id === userId && (person.custom_profile_field as JsonObject | undefined)?.id === fieldId;
};

const updateEvent = profileFieldRule({
  id: 'profile-data/update-event-with-rendering',
  title: 'a changed value sends realm_user update {user_id, custom_profile_field: {id, value}} to other users, with rendered_value for text fields only; setting the same value again sends nothing; clearing sends value null',
  endpoint: 'PATCH /users/me/profile_data',
  section: `${SECTION}; api/get-events`,
  // The sentinel is a draft (level 87).
  levels: { min: 87 },
  needs: ['member', 'second-member'],
}, async (ctx, { fields }) => {
  const short = await fields.create(fieldParams(ctx.name('pf-text'), FIELD_TYPE.SHORT_TEXT));
  const date = await fields.create(fieldParams(ctx.name('pf-date'), FIELD_TYPE.DATE));
  const queue = await openStreamAs(ctx, 'second-member', ['realm_user', 'drafts']);
  const member = ctx.as('member');
  const me = ctx.identity('member').userId;
  expectSuccess(await member.patch(PATH, { data: [{ id: short, value: 'some **bold** text' }] }));
  const text = (await awaitEvent(queue, isUpdateOf(me, short), 'the text value')).person as JsonObject;
  const textField = text.custom_profile_field as JsonObject;
  expectEqual(textField.value, 'some **bold** text', 'value of the text field\'s event');
  check(typeof textField.rendered_value === 'string' && textField.rendered_value.includes('<strong>bold</strong>'), `rendered_value of the text field's event should hold <strong>bold</strong>: ${JSON.stringify(textField.rendered_value)}`);
  expectSuccess(await member.patch(PATH, { data: [{ id: date, value: '2001-02-03' }] }));
  const dateField = ((await awaitEvent(queue, isUpdateOf(me, date), 'the date value')).person as JsonObject).custom_profile_field as JsonObject;
  expectEqual(dateField, { id: date, value: '2001-02-03' }, 'custom_profile_field of the date field\'s event (no rendered_value)');
  expectSuccess(await member.patch(PATH, { data: [{ id: short, value: 'some **bold** text' }] }));
  const sentinel = draftSentinel(ctx.as('second-member'), 'profile data');
  await expectNoEventBefore(queue, isUpdateOf(me, short), sentinel, 'setting the same text value again');
  await sentinel.remove();
  expectSuccess(await member.delete(PATH, { data: [date] }));
  const cleared = ((await awaitEvent(queue, (event) => isUpdateOf(me, date)(event) && ((event.person as JsonObject).custom_profile_field as JsonObject).value === null, 'the cleared date')).person as JsonObject).custom_profile_field as JsonObject;
  expectEqual(cleared.value, null, 'value of the clearing event');
}, 'admin');

const removal = profileFieldRule({
  id: 'profile-data/delete-clears-values',
  title: 'DELETE /users/me/profile_data clears the named fields only; a field without a value is accepted, an unknown field ID is refused (400 BAD_REQUEST) and clears nothing',
  endpoint: 'DELETE /users/me/profile_data',
  section: 'api/remove-user-custom-profile-data',
  needs: ['member'],
}, async (ctx, { fields, reader }) => {
  const first = await fields.create(fieldParams(ctx.name('pf-first'), FIELD_TYPE.SHORT_TEXT));
  const second = await fields.create(fieldParams(ctx.name('pf-second'), FIELD_TYPE.SHORT_TEXT));
  const empty = await fields.create(fieldParams(ctx.name('pf-empty'), FIELD_TYPE.SHORT_TEXT));
  const member = ctx.as('member');
  const me = ctx.identity('member').userId;
  expectSuccess(await member.patch(PATH, { data: [{ id: first, value: 'one' }, { id: second, value: 'two' }] }));
  expectSuccess(await member.delete(PATH, { data: [first, empty] }));
  let values = await profileValues(reader, me);
  expectEqual([valueOf(values.get(first)) ?? null, valueOf(values.get(second))], [null, 'two'], 'the values after clearing the first field (and the empty one)');
  expectError(await member.delete(PATH, { data: [Math.max(first, second, empty) + 1_000_000] }), { status: 400, code: 'BAD_REQUEST' });
  values = await profileValues(reader, me);
  expectEqual(valueOf(values.get(second)), 'two', 'the second value after the refused request');
}, 'admin');

const notEditable = profileFieldRule({
  id: 'profile-data/not-editable-refused-to-members',
  title: 'a field whose editable_by_user is false cannot be set or cleared by a member (400 BAD_REQUEST, value kept), while an administrator still sets their own',
  endpoint: 'PATCH /users/me/profile_data',
  section: `${SECTION}; api/update-custom-profile-field`,
  levels: { min: FIELD_LEVELS.EDITABLE_BY_USER },
  needs: ['member'],
}, async (ctx, { admin, fields, reader }) => {
  const id = await fields.create(fieldParams(ctx.name('pf-locked'), FIELD_TYPE.SHORT_TEXT));
  const member = ctx.as('member');
  const me = ctx.identity('member').userId;
  expectSuccess(await member.patch(PATH, { data: [{ id, value: 'before' }] }));
  expectSuccess(await admin.patch(`/realm/profile_fields/${id}`, { editable_by_user: false }));
  expectError(await member.patch(PATH, { data: [{ id, value: 'after' }] }), { status: 400, code: 'BAD_REQUEST' });
  expectError(await member.delete(PATH, { data: [id] }), { status: 400, code: 'BAD_REQUEST' });
  expectEqual(valueOf((await profileValues(reader, me)).get(id)), 'before', 'the member\'s value of the locked field');
  expectSuccess(await admin.patch(PATH, { data: [{ id, value: 'set by an administrator' }] }));
  expectEqual(valueOf((await profileValues(admin, ctx.identity('admin').userId)).get(id)), 'set by an administrator', 'the administrator\'s own value of the locked field');
}, 'admin');

export const rules: readonly Rule[] = [valuesByType, updateEvent, removal, notEditable];
