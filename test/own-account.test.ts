import t from 'tap';
import { DESDEMONA, HAMLET, IAGO, POLONIUS } from './support/channels.js';
import { ofType, recordEvents } from './support/events.js';
import { bad, basic, Client, errorOf, testServer, type TestServer } from './support/harness.js';

const field = (s: TestServer, name: string): number => {
  const found = s.world.customProfileFields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found.id;
};

t.test('PATCH /users/me/profile_data sets fields with realm_user updates to everyone who can access the user', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const phone = field(s, 'Phone number');
  const mentor = field(s, 'Mentor');
  const reply = await s.as(POLONIUS).patch('/users/me/profile_data', { data: [{ id: phone, value: '555' }, { id: mentor, value: [s.id(HAMLET)] }] });
  t.equal(reply.status, 200, reply.text);
  const user = s.world.users.get(s.id(POLONIUS));
  t.equal(user?.profileData.get(phone), '555');
  t.equal(user?.profileData.get(mentor), JSON.stringify([s.id(HAMLET)]));
  const updates = ofType(seen, 'realm_user', 'update').map((e) => e.event.person);
  t.same(updates, [
    { user_id: s.id(POLONIUS), custom_profile_field: { id: phone, value: '555', rendered_value: '<p>555</p>' } },
    { user_id: s.id(POLONIUS), custom_profile_field: { id: mentor, value: `[${s.id(HAMLET)}]` } },
  ]);
  await s.as(POLONIUS).patch('/users/me/profile_data', { data: [{ id: phone, value: '555' }] });
  t.equal(ofType(seen, 'realm_user').length, 2, 'an unchanged value sends nothing');
});

const invalid: ReadonlyArray<readonly [string, unknown, string]> = [
  ['an unknown field', [{ id: 99, value: 'x' }], 'Field id 99 not found.'],
  ['a short text over 50 characters', [{ id: 1, value: 'x'.repeat(51) }], 'Phone number is too long (limit: 50 characters)'],
  ['a date that is not one', [{ id: 5, value: '2020-13-45' }], 'Birthday is not a date'],
  ['a day the month does not have', [{ id: 5, value: '2001-02-30' }], 'Birthday is not a date'],
  ['a link that is not a URL', [{ id: 6, value: 'not a url' }], 'Favorite website is not a URL'],
  ['an unknown user in a user field', [{ id: 7, value: [9999] }], 'Invalid user ID: 9999'],
  ['a user list for a text field', [{ id: 1, value: [1] }], 'Phone number is not a string'],
  ['a value that is neither text nor IDs', [{ id: 1, value: 5 }], 'data[1]["value"] is not a string'],
  ['a list value that is not one of the choices', [{ id: 4, value: 'nano' }], "'nano' is not a valid choice for 'Favorite editor'."],
];

for (const [what, data, msg] of invalid) {
  t.test(`PATCH /users/me/profile_data refuses ${what} and changes nothing`, async (t) => {
    const s = testServer();
    const reply = await s.as(HAMLET).patch('/users/me/profile_data', { data: [{ id: 3, value: 'Pizza' }, ...(data as unknown[])] });
    t.same(errorOf(reply), bad(msg));
    t.not(s.world.users.get(s.id(HAMLET))?.profileData.get(3), 'Pizza');
  });
}

t.test('DELETE /users/me/profile_data clears fields; unknown IDs are refused; bots may not edit', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const phone = field(s, 'Phone number');
  t.ok(s.world.users.get(s.id(HAMLET))?.profileData.has(phone));
  t.equal((await s.as(HAMLET).delete('/users/me/profile_data', { data: [phone, field(s, 'Pronouns')] })).status, 200);
  t.notOk(s.world.users.get(s.id(HAMLET))?.profileData.has(phone));
  t.same(ofType(seen, 'realm_user').map((e) => e.event.person), [
    { user_id: s.id(HAMLET), custom_profile_field: { id: phone, value: null } },
    { user_id: s.id(HAMLET), custom_profile_field: { id: field(s, 'Pronouns'), value: null } },
  ]);
  t.equal((await s.as(HAMLET).delete('/users/me/profile_data', { data: [phone] })).status, 200, 'an empty field is skipped');
  t.equal(ofType(seen, 'realm_user').length, 2);
  t.same(errorOf(await s.as(HAMLET).delete('/users/me/profile_data', { data: [77] })), bad('Field id 77 not found.'));
  const bot = s.world.usersByEmail.get('default-bot@zulip.com');
  const client = new Client(s.app, basic('default-bot@zulip.com', bot?.apiKey ?? ''));
  t.same(errorOf(await client.patch('/users/me/profile_data', { data: [] })), bad('This endpoint does not accept bot requests.'));
});

t.test('DELETE /users/me deactivates the caller and their bots; the old key stops working', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  t.equal((await s.as('ZOE@zulip.com').delete('/users/me')).status, 200);
  t.equal(s.world.users.get(s.id('ZOE@zulip.com'))?.isActive, false);
  t.equal(s.world.users.get(s.id('webhook-bot@zulip.com'))?.isActive, false, 'her bot');
  t.same(ofType(seen, 'realm_user', 'update').map((e) => e.event.person), [
    { user_id: s.id('webhook-bot@zulip.com'), is_active: false },
    { user_id: s.id('ZOE@zulip.com'), is_active: false },
  ]);
  const zoe = s.world.users.get(s.id('ZOE@zulip.com'));
  t.equal((await new Client(s.app, basic('ZOE@zulip.com', zoe?.apiKey ?? '')).get('/users/me')).status, 401);
});

t.test('DELETE /users/me refuses the only owner and the last active account with CANNOT_DEACTIVATE_LAST_USER', async (t) => {
  const s = testServer();
  const owner = await s.as(DESDEMONA).delete('/users/me');
  t.same(owner.body, { result: 'error', msg: 'Cannot deactivate the only organization owner.', is_last_owner: true, entity: 'organization owner', code: 'CANNOT_DEACTIVATE_LAST_USER' });
  t.equal(owner.status, 400);
  t.equal(s.world.users.get(s.id(DESDEMONA))?.isActive, true);
  for (const user of s.world.users.values()) if (!user.isSystemBot && user.id !== s.id(IAGO)) user.isActive = false;
  const last = await s.as(IAGO).delete('/users/me');
  t.same(last.body, { result: 'error', msg: 'Cannot deactivate the only user.', is_last_owner: false, entity: 'user', code: 'CANNOT_DEACTIVATE_LAST_USER' });
});

t.test('a field not editable by users is refused to members (PATCH and DELETE) from level 296, and administrators may still change their own', async (t) => {
  const s = testServer();
  const phone = field(s, 'Phone number');
  t.equal((await s.as(HAMLET).patch('/users/me/profile_data', { data: [{ id: phone, value: '555' }] })).status, 200);
  t.equal((await s.as(IAGO).patch(`/realm/profile_fields/${phone}`, { editable_by_user: false })).status, 200);
  const refused = bad('You are not allowed to change this field. Contact an administrator to update it.');
  t.same(errorOf(await s.as(HAMLET).patch('/users/me/profile_data', { data: [{ id: phone, value: '777' }] })), refused);
  t.same(errorOf(await s.as(HAMLET).delete('/users/me/profile_data', { data: [phone] })), refused);
  t.equal(s.world.users.get(s.id(HAMLET))?.profileData.get(phone), '555', 'the value is unchanged');
  t.equal((await s.as(IAGO).patch('/users/me/profile_data', { data: [{ id: phone, value: '888' }] })).status, 200, 'an administrator edits their own');
  const older = testServer({ featureLevel: 295 });
  older.world.customProfileFields[0] = { ...older.world.customProfileFields[0]!, editableByUser: false };
  t.equal((await older.as(HAMLET).patch('/users/me/profile_data', { data: [{ id: phone, value: '555' }] })).status, 200, 'before level 296 the flag does not exist');
});
