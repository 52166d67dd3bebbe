/**
 * Changing custom profile fields: `PATCH /realm/profile_fields/{field_id}` (only what is sent
 * from level 252), reordering (`PATCH /realm/profile_fields`), deleting, the cap of two fields
 * shown in the profile summary (level 146), and the `custom_profile_fields` event each change
 * sends to every user with the whole ordered list.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import type { EventStream } from '../support/event-stream.js';
import { awaitEvent } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import { registerState } from '../support/state-fetch.js';
import type { Rule, RuleContext } from '../types.js';
import {
  type ApiField,
  choices,
  FIELD_LEVELS,
  FIELD_TYPE,
  fieldData,
  fieldParams,
  FIELDS_PATH,
  listFields,
  NAME_MAX,
  profileFieldRule,
  type RuleFields,
  SUMMARY_MAX,
} from './profile-fields-support.js';

const UPDATE = 'PATCH /realm/profile_fields/{field_id}';
const field = (path: string) => `${FIELDS_PATH}/${path}`;
const at = async (client: ApiClient, id: number): Promise<ApiField | undefined> => (await listFields(client)).find((entry) => entry.id === id);

const onlyWhatIsSent = profileFieldRule({
  id: 'profile-fields/update-changes-only-what-is-sent',
  title: 'PATCH changes exactly the name, hint, field_data, required (244) and editable_by_user (296) it is sent, never the type; a taken label, an over-long name and an unknown field ID are refused with 400 BAD_REQUEST',
  endpoint: UPDATE,
  section: 'api/update-custom-profile-field',
  levels: { min: FIELD_LEVELS.PATCH_KEEPS },
}, async (ctx, { admin, fields, reader }) => {
  const original = Object.fromEntries(choices(['a', 'Alpha'], ['b', 'Beta']));
  const id = await fields.create(fieldParams(ctx.name('pf'), FIELD_TYPE.SELECT, [['hint', 'first hint'], ['field_data', original]]));
  const other = await fields.create(fieldParams(ctx.name('pf-other'), FIELD_TYPE.SHORT_TEXT));
  let expected = { name: (await at(reader, id))?.name, hint: 'first hint', type: FIELD_TYPE.SELECT, data: original as unknown, required: false, editable: true };
  const readBack = async (after: string) => {
    const now = await at(reader, id);
    const seen = { name: now?.name, hint: now?.hint, type: now?.type, data: now ? fieldData(now) : undefined, required: now?.required ?? false, editable: now?.editable_by_user ?? true };
    expectEqual(seen, expected, `the field after ${after}`);
  };
  const changes: Array<[string, Record<string, unknown>, Partial<typeof expected>]> = [
    ['a hint alone', { hint: 'second hint' }, { hint: 'second hint' }],
    ['a name alone', { name: ctx.name('pf-renamed') }, {}],
    ['new choices alone', { field_data: Object.fromEntries(choices(['c', 'Gamma'])) }, { data: Object.fromEntries(choices(['c', 'Gamma'])) }],
  ];
  if (ctx.featureLevel >= FIELD_LEVELS.REQUIRED) changes.push(['required alone', { required: true }, { required: true }]);
  if (ctx.featureLevel >= FIELD_LEVELS.EDITABLE_BY_USER) changes.push(['editable_by_user alone', { editable_by_user: false }, { editable: false }]);
  for (const [what, params, effect] of changes) {
    expectSuccess(await admin.patch(field(String(id)), params));
    expected = { ...expected, ...effect, ...(typeof params.name === 'string' ? { name: params.name } : {}) };
    await readBack(what);
  }
  const otherName = (await at(reader, other))?.name;
  for (const [what, params] of [
    ['the label of another field', { name: otherName }],
    [`a name of ${NAME_MAX + 1} characters`, { name: 'n'.repeat(NAME_MAX + 1) }],
    ['a list without choices', { field_data: {} }],
  ] as const) {
    expectError(await admin.patch(field(String(id)), params), { status: 400, code: 'BAD_REQUEST' });
    await readBack(`the refused ${what}`);
  }
  const unknown = Math.max(id, other) + 1_000_000;
  expectError(await admin.patch(field(String(unknown)), { hint: 'x' }), { status: 400, code: 'BAD_REQUEST' });
});

/** Waits for the `custom_profile_fields` event that `reflects` the change and compares it with the listing. */
async function expectFieldsEvent(queue: EventStream, reader: ApiClient, change: string, reflects: (fields: readonly ApiField[]) => boolean): Promise<void> {
  const event = await awaitEvent(queue, (candidate) => candidate.type === 'custom_profile_fields' && Array.isArray(candidate.fields) && reflects(candidate.fields as unknown as ApiField[]), change);
  expectEqual(event.fields, await listFields(reader), `the fields of the custom_profile_fields event after ${change} (the ordered list GET /realm/profile_fields gives)`);
}

const ids = (list: readonly ApiField[]) => list.map((entry) => entry.id);

const reorder = profileFieldRule({
  id: 'profile-fields/reorder-kept',
  title: 'PATCH /realm/profile_fields sets the order exactly (GET and register list it), ignores unknown IDs, refuses an order missing a field (400 BAD_REQUEST, order unchanged); each change sends custom_profile_fields with the ordered list',
  endpoint: 'PATCH /realm/profile_fields',
  section: 'api/reorder-custom-profile-fields',
  needs: ['member'],
}, async (ctx, { admin, fields, reader }) => {
  const queue = await openStreamAs(ctx, 'member', ['custom_profile_fields']);
  const ours: number[] = [];
  for (const label of ['pf-a', 'pf-b', 'pf-c']) {
    const id = await fields.create(fieldParams(ctx.name(label), FIELD_TYPE.SHORT_TEXT));
    ours.push(id);
    await expectFieldsEvent(queue, reader, `the creation of field ${id}`, (list) => ids(list).includes(id));
  }
  const current = ids(await listFields(reader));
  // Ours reversed in the places they hold; every other field keeps its place.
  const places = ours.map((id) => current.indexOf(id));
  const wanted = [...current];
  places.forEach((place, index) => (wanted[place] = ours[ours.length - 1 - index] as number));
  expectSuccess(await admin.patch(FIELDS_PATH, { order: wanted }));
  expectEqual(ids(await listFields(reader)), wanted, 'GET /realm/profile_fields after the reorder');
  await expectFieldsEvent(queue, reader, 'the reorder', (list) => JSON.stringify(ids(list)) === JSON.stringify(wanted));
  const { body: registered } = await registerState(ctx.as('member'), ['custom_profile_fields']);
  expectEqual(ids((registered.custom_profile_fields ?? []) as unknown as ApiField[]), wanted, 'custom_profile_fields of POST /register after the reorder');
  expectError(await admin.patch(FIELDS_PATH, { order: wanted.filter((id) => id !== ours[1]) }), { status: 400, code: 'BAD_REQUEST' });
  expectEqual(ids(await listFields(reader)), wanted, 'the order after an order missing a field');
  const back = [...wanted].reverse();
  expectSuccess(await admin.patch(FIELDS_PATH, { order: [...back, Math.max(...back) + 1_000_000] }));
  expectEqual(ids(await listFields(reader)), back, 'the order after a reorder naming an unknown ID too');
});

const remove = profileFieldRule({
  id: 'profile-fields/delete-removes-field-and-values',
  title: 'deleting a field removes it and every user\'s value of it and sends custom_profile_fields without it; deleting it again (or an unknown ID) answers 400 BAD_REQUEST',
  endpoint: 'DELETE /realm/profile_fields/{field_id}',
  section: 'api/delete-custom-profile-field',
  needs: ['member'],
}, async (ctx, { admin, fields, reader }) => {
  const queue = await openStreamAs(ctx, 'member', ['custom_profile_fields']);
  const id = await fields.create(fieldParams(ctx.name('pf'), FIELD_TYPE.SHORT_TEXT));
  // Events without the field after its creation's event can only come from its deletion.
  await expectFieldsEvent(queue, reader, `the creation of field ${id}`, (list) => ids(list).includes(id));
  const member = ctx.as('member');
  expectSuccess(await member.patch('/users/me/profile_data', { data: [{ id, value: 'a value' }] }));
  expectSuccess(await admin.delete(field(String(id))));
  check((await at(reader, id)) === undefined, `field ${id} is still listed after its deletion`);
  await expectFieldsEvent(queue, reader, `the deletion of field ${id}`, (list) => !ids(list).includes(id));
  const profile = await member.get(`/users/${ctx.identity('member').userId}`, { include_custom_profile_fields: true });
  const data = (expectSuccess(profile).user as JsonObject | undefined)?.profile_data as JsonObject | undefined;
  check(data === undefined || !Object.prototype.hasOwnProperty.call(data, String(id)), `the member's profile_data still holds the deleted field ${id}`, profile);
  expectError(await admin.delete(field(String(id))), { status: 400, code: 'BAD_REQUEST' });
});

/** Fields of others shown in the summary: their flag is cleared for the rule and set again after it. */
async function clearOthersSummary(ctx: RuleContext, admin: ApiClient, fields: RuleFields, before: readonly ApiField[]): Promise<void> {
  const shown = before.filter((entry) => entry.display_in_profile_summary === true).map((entry) => entry.id);
  if (shown.length === 0) return;
  ctx.cleanup('show the other fields in the profile summary again', async (c) => {
    const client = c.as('owner');
    // Ours first: the cap would refuse the others while ours are shown.
    for (const id of fields.ids) await client.delete(field(String(id)));
    for (const id of shown) {
      const reply = await client.patch(field(String(id)), { display_in_profile_summary: true });
      if (reply.status !== 200) throw new Error(`showing field ${id} in the profile summary again answered HTTP ${reply.status}; it stays hidden from the summary`);
    }
  });
  for (const id of shown) expectSuccess(await admin.patch(field(String(id)), { display_in_profile_summary: false }));
}

const summaryCap = profileFieldRule({
  id: 'profile-fields/summary-cap',
  title: `at most ${SUMMARY_MAX} fields are shown in the profile summary: the next one is refused at creation and on update (400 BAD_REQUEST), as are long text and users fields; the flag is listed only when true`,
  endpoint: 'POST /realm/profile_fields',
  section: 'api/create-custom-profile-field',
  levels: { min: FIELD_LEVELS.SUMMARY },
}, async (ctx, { admin, fields, before, reader }) => {
  // Others' flags can be cleared without touching the rest of them from level 252 only.
  if (ctx.featureLevel >= FIELD_LEVELS.PATCH_KEEPS) await clearOthersSummary(ctx, admin, fields, before);
  const shown = () => listFields(reader).then((list) => list.filter((entry) => entry.display_in_profile_summary === true).length);
  const summary = ['display_in_profile_summary', true] as const;
  for (const type of [FIELD_TYPE.LONG_TEXT, FIELD_TYPE.USER]) {
    expectError((await fields.attempt(fieldParams(ctx.name('pf-summary-type'), type, [summary]))).reply, { status: 400, code: 'BAD_REQUEST' });
  }
  let room = SUMMARY_MAX - (await shown());
  for (; room > 0; room--) await fields.create(fieldParams(ctx.name('pf-summary'), FIELD_TYPE.SHORT_TEXT, [summary]));
  expectEqual(await shown(), SUMMARY_MAX, 'fields shown in the summary after filling it');
  const { reply, id } = await fields.attempt(fieldParams(ctx.name('pf-over'), FIELD_TYPE.SHORT_TEXT, [summary]));
  expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  check(id === undefined, `a field over the summary cap was created: ${String(id)}`, reply);
  const plain = await fields.create(fieldParams(ctx.name('pf-plain'), FIELD_TYPE.SHORT_TEXT));
  if (ctx.featureLevel >= FIELD_LEVELS.PATCH_KEEPS) expectError(await admin.patch(field(String(plain)), { display_in_profile_summary: true }), { status: 400, code: 'BAD_REQUEST' });
  expectEqual(await shown(), SUMMARY_MAX, 'fields shown in the summary after the refusals');
  check((await at(reader, plain))?.display_in_profile_summary === undefined, 'a field not in the summary carries display_in_profile_summary');
});

export const rules: readonly Rule[] = [onlyWhatIsSent, reorder, remove, summaryCap];
