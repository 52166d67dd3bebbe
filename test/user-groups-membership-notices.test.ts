/** Membership notices (Notification Bot DMs) and group names that are not safe object keys. */
import t from 'tap';
import { membershipNotices } from '../lib/actions/groups/user-group-notices.js';
import { testServer, type TestServer } from './support/harness.js';
import { hamletsGroup, membersUpdate as update } from './support/user-groups.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const CORDELIA = 'cordelia@zulip.com';

t.test('groups named __proto__ work like any other', async (t) => {
  const s = testServer();
  const reply = await s.as(HAMLET).post('/user_groups/create', { name: '__proto__', description: 'constructor', members: [] });
  t.equal((await update(s, reply.body.group_id, { add: [s.id(OTHELLO)] })).status, 200);
  t.same((await s.as(HAMLET).get(`/user_groups/${reply.body.group_id}/members`)).body.members, [s.id(OTHELLO)]);
});

t.test('membership notices go to each changed human other than the actor, active and not a bot', async (t) => {
  const s = testServer();
  const hamlet = s.world.users.get(s.id(HAMLET));
  const group = [...s.world.groups.values()].find((g) => g.name === 'hamletcharacters');
  if (!hamlet || !group) throw new Error('fixture');
  const cordelia = s.world.users.get(s.id(CORDELIA));
  if (cordelia) cordelia.isActive = false;
  const notices = membershipNotices(s.world, hamlet, group, [s.id(HAMLET), s.id(OTHELLO), s.id(CORDELIA), s.id('default-bot@zulip.com')], 'added');
  t.same(notices, [{ recipientId: s.id(OTHELLO), content: `@_**King Hamlet|${s.id(HAMLET)}** added you to the group @_*hamletcharacters*.` }]);
  t.equal(membershipNotices(s.world, hamlet, group, [s.id(OTHELLO)], 'removed')[0]?.content, `@_**King Hamlet|${s.id(HAMLET)}** removed you from the group @_*hamletcharacters*.`);
});

/** Notification Bot's direct messages to `email`, as [content, read by the recipient]. */
function botDms(s: TestServer, email: string): Array<[string, boolean]> {
  const bot = s.id('notification-bot@zulip.com');
  const pair = JSON.stringify([bot, s.id(email)].sort((a, b) => a - b));
  return [...s.world.messages.values()]
    .filter((m) => m.senderId === bot && m.recipient.kind === 'direct' && JSON.stringify(m.recipient.userIds) === pair)
    .map((m) => [m.content, m.flags.get(s.id(email))?.has('read') === true]);
}

t.test('adding and removing members sends each changed user an unread Notification Bot DM', async (t) => {
  const s = testServer();
  const groupId = await hamletsGroup(s);
  const name = s.world.groups.get(groupId)!.name;
  t.equal((await update(s, groupId, { add: [s.id(OTHELLO), s.id(CORDELIA)] })).status, 200);
  const added = `@_**King Hamlet|${s.id(HAMLET)}** added you to the group @_*${name}*.`;
  t.same(botDms(s, OTHELLO), [[added, false]]);
  t.same(botDms(s, CORDELIA), [[added, false]]);
  t.equal((await update(s, groupId, { delete: [s.id(OTHELLO), s.id(HAMLET)] })).status, 200);
  t.same(botDms(s, OTHELLO), [[added, false], [`@_**King Hamlet|${s.id(HAMLET)}** removed you from the group @_*${name}*.`, false]]);
  t.same(botDms(s, HAMLET), [], 'the acting user is not told');
});
