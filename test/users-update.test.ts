/** `PATCH /users/{id}`: names, roles and custom profile fields, all checked before anything changes. */
import t from 'tap';
import { recordEvents } from './support/events.js';
import { errorOf, testServer } from './support/harness.js';

const iago = 'iago@zulip.com';
const hamlet = 'hamlet@zulip.com';
const desdemona = 'desdemona@zulip.com';

t.test('PATCH /users/{id} renames with a realm_user event; blank names are skipped', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const othello = s.id('othello@zulip.com');
  t.same((await s.as(iago).patch(`/users/${othello}`, { full_name: '  Othello the Moor ' })).body, { result: 'success', msg: '' });
  t.equal(s.world.users.get(othello)?.fullName, 'Othello the Moor');
  t.same(seen[0]?.event, { type: 'realm_user', op: 'update', person: { user_id: othello, full_name: 'Othello the Moor' } });
  await s.as(iago).patch(`/users/${othello}`, { full_name: '   ' });
  t.equal(s.world.users.get(othello)?.fullName, 'Othello the Moor');
  t.equal((await s.as(iago).patch(`/users/${othello}`, { full_name: 'x' })).body.msg, 'Name too short!');
  t.equal((await s.as(hamlet).patch(`/users/${othello}`, { full_name: 'Mine' })).body.msg, 'Insufficient permission');
});

t.test('PATCH /users/{id} changes roles and keeps role system groups in sync', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const othello = s.id('othello@zulip.com');
  await s.as(iago).patch(`/users/${othello}`, { role: 300 });
  t.equal(s.world.users.get(othello)?.role, 300);
  t.ok(s.world.groups.get(s.world.systemGroupId('role:moderators'))?.members.has(othello));
  t.notOk(s.world.groups.get(s.world.systemGroupId('role:members'))?.members.has(othello));
  t.notOk(s.world.groups.get(s.world.systemGroupId('role:fullmembers'))?.members.has(othello));
  t.same(seen[0]?.event, { type: 'realm_user', op: 'update', person: { user_id: othello, role: 300 } });
  t.ok(seen.some((e) => e.event.type === 'user_group' && e.event.op === 'add_members' && e.event.group_id === s.world.systemGroupId('role:moderators')));
  t.ok(seen.some((e) => e.event.type === 'user_group' && e.event.op === 'remove_members' && e.event.group_id === s.world.systemGroupId('role:members')));
});

t.test('role changes: owner role only by owners, never off the last owner, invalid values refused', async (t) => {
  const s = testServer();
  const othello = s.id('othello@zulip.com');
  t.same(errorOf(await s.as(iago).patch(`/users/${othello}`, { role: 100 })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  t.same(errorOf(await s.as(iago).patch(`/users/${s.id(desdemona)}`, { role: 200 })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  t.same(errorOf(await s.as(desdemona).patch(`/users/${s.id(desdemona)}`, { role: 200 })), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'The owner permission cannot be removed from the only organization owner.',
  });
  t.same(errorOf(await s.as(iago).patch(`/users/${othello}`, { role: 500 })), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid role: Value error, Not in the list of possible values' });
  t.equal((await s.as(desdemona).patch(`/users/${othello}`, { role: 100 })).status, 200);
  t.equal(s.world.users.get(othello)?.role, 100);
  t.ok(s.world.groups.get(s.world.systemGroupId('role:owners'))?.members.has(othello));
  t.equal((await s.as(desdemona).patch(`/users/${s.id(desdemona)}`, { role: 200 })).status, 200, 'no longer the last owner');
});

t.test('an error in one part of PATCH /users/{id} leaves every part unchanged', async (t) => {
  const s = testServer();
  const othello = s.world.users.get(s.id('othello@zulip.com'));
  const reply = await s.as(iago).patch(`/users/${othello?.id}`, { role: 300, full_name: 'Bad*Name' });
  t.equal(reply.body.msg, 'Invalid characters in name!');
  t.equal(othello?.role, 400);
  t.equal(othello?.fullName, 'Othello, the Moor of Venice');
});

t.test('PATCH /users/{id} sets and removes custom profile fields with events', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const othello = s.world.users.get(s.id('othello@zulip.com'));
  const reply = await s.as(iago).patch(`/users/${othello?.id}`, {
    profile_data: [
      { id: 1, value: '+1-555' },
      { id: 7, value: [s.id(hamlet)] },
    ],
  });
  t.equal(reply.status, 200);
  t.equal(othello?.profileData.get(1), '+1-555');
  t.equal(othello?.profileData.get(7), `[${s.id(hamlet)}]`);
  t.same(seen[0]?.event, {
    type: 'realm_user',
    op: 'update',
    person: { user_id: othello?.id, custom_profile_field: { id: 1, value: '+1-555', rendered_value: '<p>+1-555</p>' } },
  });
  await s.as(iago).patch(`/users/${othello?.id}`, { profile_data: [{ id: 1, value: null }] });
  t.notOk(othello?.profileData.has(1));
  const errors: Array<[unknown, string]> = [
    [[{ id: 99, value: 'x' }], 'Field id 99 not found.'],
    [[{ id: 1, value: 'x'.repeat(51) }], 'Phone number is too long (limit: 50 characters)'],
    [[{ id: 5, value: 'yesterday' }], 'Birthday is not a date'],
    [[{ id: 6, value: 'not a url' }], 'Favorite website is not a URL'],
    [[{ id: 7, value: [9999] }], 'Invalid user ID: 9999'],
    [[{ id: 1, value: [1] }], 'Phone number is not a string'],
  ];
  for (const [data, msg] of errors) {
    t.same(errorOf(await s.as(iago).patch(`/users/${othello?.id}`, { profile_data: data, full_name: 'Changed Name' })), { status: 400, code: 'BAD_REQUEST', msg }, msg);
    t.not(othello?.fullName, 'Changed Name');
  }
});
