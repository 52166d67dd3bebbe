import t from 'tap';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventsConverge } from './support/apply-events.js';
import { bad, errorOf, type Params, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';
const OWNER = 'desdemona@zulip.com';

const invite = (s: TestServer, email: string, params: Params) => s.as(email).post('/invites', { stream_ids: [s.streamId('Verona')], ...params });
const listed = async (s: TestServer, email: string) => (await s.as(email).get('/invites')).body.invites as Array<Record<string, unknown>>;

t.test('a member invites addresses (names and newlines allowed); the invitations are listed and recorded as sent mail', async (t) => {
  const s = testServer();
  const reply = await invite(s, HAMLET, { invitee_emails: 'New One <new1@example.com>, new2@example.com\nnew2@example.com', invite_expires_in_minutes: 60 });
  t.same(reply.body, { result: 'success', msg: '' });
  const now = Math.floor(s.clock.now() / 1000);
  t.same(await listed(s, HAMLET), [
    { email: 'new1@example.com', invited_by_user_id: s.id(HAMLET), invited: now, expiry_date: now + 3600, id: 1, invited_as: 400, is_multiuse: false, notify_referrer_on_join: true },
    { email: 'new2@example.com', invited_by_user_id: s.id(HAMLET), invited: now, expiry_date: now + 3600, id: 2, invited_as: 400, is_multiuse: false, notify_referrer_on_join: true },
  ]);
  t.same(
    s.world.outbox.map((m) => [m.template, m.to]),
    [
      ['invitation', ['new1@example.com']],
      ['invitation', ['new2@example.com']],
    ],
  );
  t.equal((await listed(s, IAGO)).length, 2, 'administrators see everyone’s invitations');
  t.equal((await listed(s, 'othello@zulip.com')).length, 0, 'other members see only their own');
  s.clock.advance(3601_000);
  t.same(await listed(s, HAMLET), [], 'expired invitations are not listed');
});

t.test('null invite_expires_in_minutes never expires; notify_referrer_on_join is kept', async (t) => {
  const s = testServer();
  await invite(s, HAMLET, { invitee_emails: 'a@example.com', invite_expires_in_minutes: null, notify_referrer_on_join: false });
  t.match((await listed(s, HAMLET))[0], { expiry_date: null, notify_referrer_on_join: false });
});

const inviteErrors: Array<[string, string, Params, { status: number; code: string; msg: string }]> = [
  ['a guest', 'polonius@zulip.com', { invitee_emails: 'a@example.com' }, bad('Not allowed for guest users')],
  ['a bot', 'default-bot@zulip.com', { invitee_emails: 'a@example.com' }, bad('This endpoint does not accept bot requests.')],
  ['a member inviting an administrator', HAMLET, { invitee_emails: 'a@example.com', invite_as: 200 }, { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' }],
  ['a moderator inviting a moderator', 'shiva@zulip.com', { invitee_emails: 'a@example.com', invite_as: 300 }, { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' }],
  ['an administrator inviting an owner', IAGO, { invitee_emails: 'a@example.com', invite_as: 100 }, { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' }],
  ['an unknown role', IAGO, { invitee_emails: 'a@example.com', invite_as: 500 }, bad('Invalid invite_as: Value error, Not in the list of possible values')],
  ['no addresses', IAGO, { invitee_emails: '' }, bad('You must specify at least one email address.')],
  ['an unknown channel', IAGO, { invitee_emails: 'a@example.com', stream_ids: [999] }, bad('Invalid channel ID 999. No invites were sent.')],
  ['a private channel the inviter cannot read', HAMLET, { invitee_emails: 'a@example.com', stream_ids: [-1] }, bad('Invalid channel ID -1. No invites were sent.')],
  ['an unknown user group', IAGO, { invitee_emails: 'a@example.com', group_ids: [999] }, bad('Invalid user group')],
];

for (const [what, email, params, expected] of inviteErrors) {
  t.test(`POST /invites refuses ${what}`, async (t) => {
    const s = testServer();
    t.same(errorOf(await invite(s, email, params)), expected);
    t.equal(s.world.invites.size, 0);
  });
}

t.test('bad and existing addresses give INVITATION_FAILED with each address', async (t) => {
  const s = testServer();
  const some = await invite(s, IAGO, { invitee_emails: 'not-an-email, hamlet@zulip.com, fresh@example.com' });
  t.same(errorOf(some), { status: 400, code: 'INVITATION_FAILED', msg: "Some emails did not validate, so we didn't send any invitations." });
  t.same(some.body.errors, [
    ['not-an-email', 'Invalid address.', false],
    ['hamlet@zulip.com', 'Already has an account.', false],
  ]);
  t.same([some.body.sent_invitations, some.body.license_limit_reached, some.body.daily_limit_reached], [false, false, false]);
  t.equal(s.world.invites.size, 0);
  const none = await invite(s, IAGO, { invitee_emails: 'HAMLET@zulip.com' });
  t.equal(none.body.msg, "We weren't able to invite anyone.");
  const partial = await invite(s, IAGO, { invitee_emails: 'hamlet@zulip.com, fresh@example.com' });
  t.equal(partial.body.code, 'INVITATION_FAILED');
  t.equal(partial.body.sent_invitations, true);
  t.same((await listed(s, IAGO)).map((i) => i.email), ['fresh@example.com'], 'the others were invited');
  const disposable = await invite(s, IAGO, { invitee_emails: 'x@mailinator.com' });
  t.same(disposable.body.errors, [['x@mailinator.com', 'Please use your real email address.', false]]);
});

t.test('who may invite follows can_invite_users_group; new accounts may not invite in an open realm', async (t) => {
  const s = testServer();
  const admins = s.world.systemGroupId('role:administrators');
  t.equal((await s.as(OWNER).patch('/realm', { can_invite_users_group: { new: admins } })).status, 200);
  t.same(errorOf(await invite(s, HAMLET, { invitee_emails: 'a@example.com' })), bad('Insufficient permission'));
  t.equal((await invite(s, IAGO, { invitee_emails: 'a@example.com' })).status, 200);
  const young = testServer();
  const hamlet = young.world.usersByEmail.get(HAMLET);
  if (hamlet) (hamlet as { dateJoined: number }).dateJoined = young.clock.now();
  const reply = await invite(young, HAMLET, { invitee_emails: 'a@example.com' });
  t.same(errorOf(reply), { status: 400, code: 'INVITATION_FAILED', msg: 'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.' });
});

t.test('channels need permission to add subscribers, except default channels from level 342', async (t) => {
  for (const [level, status] of [
    [342, 200],
    [341, 400],
  ] as const) {
    const s = testServer({ featureLevel: level });
    const nobody = s.world.systemGroupId('role:administrators');
    await s.as(OWNER).patch('/realm', { can_add_subscribers_group: { new: nobody } });
    t.equal((await invite(s, HAMLET, { invitee_emails: 'a@example.com' })).status, status, `Verona is a default channel, level ${level}`);
    const other = await invite(s, HAMLET, { invitee_emails: 'b@example.com', stream_ids: [s.streamId('Denmark')] });
    t.same(errorOf(other), bad('You do not have permission to subscribe other users to channels.'));
  }
});

t.test('revoking and resending: the referrer, or an administrator (an owner for owner invitations)', async (t) => {
  const s = testServer();
  await invite(s, HAMLET, { invitee_emails: 'a@example.com' });
  await invite(s, OWNER, { invitee_emails: 'boss@example.com', invite_as: 100 });
  t.same(errorOf(await s.as('othello@zulip.com').delete('/invites/1')), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  t.same(errorOf(await s.as(IAGO).delete('/invites/2')), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  t.same(errorOf(await s.as(IAGO).delete('/invites/99')), bad('No such invitation'));
  t.equal((await s.as(HAMLET).post('/invites/1/resend')).status, 200);
  t.equal(s.world.outbox.length, 3, 'the resend is recorded as another email');
  t.equal((await s.as(IAGO).delete('/invites/1')).status, 200);
  t.same((await listed(s, IAGO)).map((i) => i.id), [2]);
  t.same(errorOf(await s.as(IAGO).delete('/invites/1')), bad('No such invitation'), 'a revoked invitation is gone');
  t.same(errorOf(await s.as(IAGO).post('/invites/1/resend')), bad('No such invitation'), 'and cannot be resent');
});

t.test('reusable links: create returns the link, listed for administrators, revoked once', async (t) => {
  const s = testServer();
  const reply = await s.as(IAGO).post('/invites/multiuse', { invite_as: 600, invite_expires_in_minutes: null });
  t.equal(reply.status, 200);
  t.match(reply.body.invite_link, /^http:\/\/localhost:9991\/join\/[0-9a-z]+\/$/);
  t.same((await listed(s, IAGO))[0], { invited_by_user_id: s.id(IAGO), invited: Math.floor(s.clock.now() / 1000), expiry_date: null, id: 1, link_url: reply.body.invite_link, invited_as: 600, is_multiuse: true });
  t.same(errorOf(await s.as(HAMLET).post('/invites/multiuse', {})), bad('Insufficient permission'), 'members lack create_multiuse_invite_group');
  t.same(errorOf(await s.as(HAMLET).delete('/invites/multiuse/1')), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  t.equal((await s.as(IAGO).delete('/invites/multiuse/1')).status, 200);
  t.same(errorOf(await s.as(IAGO).delete('/invites/multiuse/1')), bad('Invitation has already been revoked'));
  t.same(errorOf(await s.as(IAGO).delete('/invites/multiuse/7')), bad('No such invitation'));
});

t.test('levels: reusable links for administrators only before 209; days before 126; group_ids from 322', async (t) => {
  const old = testServer({ featureLevel: 208 });
  t.same(errorOf(await old.as(HAMLET).post('/invites/multiuse', {})), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  const days = testServer({ featureLevel: 125 });
  t.equal((await invite(days, HAMLET, { invitee_emails: 'a@example.com', invite_expires_in_days: 2, invite_expires_in_minutes: 5 })).status, 200);
  const now = Math.floor(days.clock.now() / 1000);
  t.equal((await listed(days, HAMLET))[0]?.expiry_date, now + 2 * 86400);
  t.notOk('notify_referrer_on_join' in ((await listed(days, HAMLET))[0] as object), 'notify_referrer_on_join appears at 267');
  const groups = testServer({ featureLevel: 321 });
  t.same((await invite(groups, IAGO, { invitee_emails: 'a@example.com', group_ids: [999] })).body.ignored_parameters_unsupported, ['group_ids']);
});

t.test('invites_changed goes to administrators and the referrer, and changes no register state', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  await checkEventsConverge(t, s.as(IAGO), { fetchEventTypes: ['invites_changed'], action: () => invite(s, HAMLET, { invitee_emails: 'a@example.com' }) });
  const admins = activeIds(s, (u) => u.role <= 200);
  checkRecipients(t, everyone.received(), isEvent('invites_changed'), [...admins, s.id(HAMLET)], 'invites_changed');
});
