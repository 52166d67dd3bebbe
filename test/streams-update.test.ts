import t from 'tap';
import { DESDEMONA, HAMLET, IAGO, OTHELLO, POLONIUS, SHIVA } from './support/channels.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const patch = (s: TestServer, email: string, name: string, params: Record<string, unknown>) => s.as(email).patch(`/streams/${s.streamId(name)}`, params);
const channel = (s: TestServer, name: string) => s.world.streamByName(name)!;
const privateChannel = async (s: TestServer, name: string) =>
  s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: [{ name }], invite_only: true, principals: [s.id(HAMLET)] });

t.test('who may change a channel: administrators, channel administrators; others see a permission error or an invalid ID', async (t) => {
  const s = testServer();
  await privateChannel(s, 'hidden');
  const cases: Array<[string, string, Record<string, unknown>, ReturnType<typeof bad> | null]> = [
    [OTHELLO, 'Denmark', { description: 'x' }, bad('You do not have permission to administer this channel.')],
    [SHIVA, 'Denmark', { description: 'x' }, bad('You do not have permission to administer this channel.')],
    [POLONIUS, 'Denmark', { description: 'x' }, bad('Invalid channel ID')],
    [OTHELLO, 'hidden', { description: 'x' }, bad('Invalid channel ID')],
    [IAGO, 'hidden', { description: 'by an administrator' }, null],
    [DESDEMONA, 'Denmark', { description: 'by the owner' }, null],
    [HAMLET, 'hidden', { description: 'by its creator, a channel administrator' }, null],
  ];
  for (const [email, name, params, expected] of cases) {
    const reply = await patch(s, email, name, params);
    if (expected) t.same(errorOf(reply), expected, `${email} on ${name}`);
    else t.equal(reply.status, 200, `${email} on ${name}`);
  }
  t.same(errorOf(await s.as(IAGO).patch('/streams/9999', { description: 'x' })), bad('Invalid channel ID'));
});

t.test('a member made channel administrator through can_administer_channel_group may change it (from level 325)', async (t) => {
  const s = testServer();
  const value = JSON.stringify({ new: { direct_members: [s.id(OTHELLO)], direct_subgroups: [] } });
  t.equal((await patch(s, IAGO, 'Denmark', { can_administer_channel_group: value })).status, 200);
  t.equal((await patch(s, OTHELLO, 'Denmark', { new_name: 'Danmark' })).status, 200);
  t.equal(channel(s, 'Danmark').id, s.streamId('Danmark'));
  t.same(errorOf(await patch(s, OTHELLO, 'Danmark', { is_default_stream: true })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
});

t.test('before level 325 only organization administrators change channels', async (t) => {
  const s = testServer({ featureLevel: 324 });
  t.same(errorOf(await patch(s, OTHELLO, 'Denmark', { description: 'x' })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  t.same(errorOf(await patch(s, OTHELLO, 'core team', { description: 'x' })), bad('Invalid channel ID'), 'a private channel the member is not in');
});

t.test('new_name: stripped, checked like a new name, refused when unchanged or taken; case changes are allowed', async (t) => {
  const s = testServer();
  const cases: Array<[string, ReturnType<typeof bad> | { status: number; code: string; msg: string }]> = [
    ['Denmark', bad('Channel already has that name.')],
    ['  Denmark ', bad('Channel already has that name.')],
    ['verona', { status: 400, code: 'CHANNEL_ALREADY_EXISTS', msg: "Channel 'verona' already exists" }],
    ['   ', bad("Channel name can't be empty.")],
    ['x'.repeat(61), bad('Channel name too long (limit: 60 characters).')],
    ['a\u0000b', bad('Invalid character in channel name, at position 2.')],
  ];
  for (const [name, expected] of cases) t.same(errorOf(await patch(s, IAGO, 'Denmark', { new_name: name })), expected, JSON.stringify(name));
  t.equal((await patch(s, IAGO, 'Denmark', { new_name: 'DENMARK' })).status, 200);
  t.equal(channel(s, 'denmark').name, 'DENMARK');
});

t.test('description: at most 1024 characters, newlines become spaces, rendered', async (t) => {
  const s = testServer();
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { description: 'x'.repeat(1025) })), bad('description is too long (limit: 1024 characters)'));
  t.equal((await patch(s, IAGO, 'Denmark', { description: 'one\ntwo **bold**' })).status, 200);
  t.equal(channel(s, 'Denmark').description, 'one two **bold**');
  t.match(channel(s, 'Denmark').renderedDescription, /<strong>bold<\/strong>/);
});

t.test('privacy: the proposed state must be valid, and changing is_private needs content access and the creation permission', async (t) => {
  const s = testServer();
  await privateChannel(s, 'hidden');
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { history_public_to_subscribers: false })), bad('Invalid parameters'));
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { is_private: true, is_web_public: true })), bad('Invalid parameters'));
  t.same(errorOf(await patch(s, IAGO, 'Verona', { is_private: true })), bad('A default channel cannot be private.'));
  t.same(errorOf(await patch(s, IAGO, 'hidden', { is_private: false })), bad('Channel content access is required.'));
  t.equal((await patch(s, IAGO, 'Denmark', { is_private: true })).status, 200);
  t.match(channel(s, 'Denmark'), { inviteOnly: true, historyPublicToSubscribers: false }, 'private channels default to protected history');
  t.same(errorOf(await patch(s, HAMLET, 'hidden', { is_web_public: true, is_private: false })), bad('Insufficient permission'), 'members may not create web-public channels');
  t.equal((await patch(s, HAMLET, 'hidden', { is_private: false })).status, 200, 'a channel administrator with content access');
  t.match(channel(s, 'hidden'), { inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: true }, 'public channels get public history');
  t.same(errorOf(await patch(s, IAGO, 'hidden', { is_web_public: true })), bad('Insufficient permission'), 'web-public channels are for owners by default');
  t.equal((await patch(s, DESDEMONA, 'hidden', { is_web_public: true })).status, 200);
  t.equal(channel(s, 'hidden').isWebPublic, true);
  s.world.realm.enableSpectatorAccess = false;
  t.same(errorOf(await patch(s, IAGO, 'Scotland', { is_web_public: true })), bad('Web-public channels are not enabled.'));
});

t.test('before level 136 history_public_to_subscribers alone is ignored', async (t) => {
  const s = testServer({ featureLevel: 135 });
  t.equal((await patch(s, IAGO, 'Denmark', { history_public_to_subscribers: false })).status, 200);
  t.equal(channel(s, 'Denmark').historyPublicToSubscribers, true);
});

t.test('message_retention_days: owners only; realm_default, unlimited or a positive number', async (t) => {
  const s = testServer();
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { message_retention_days: 30 })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  t.match(errorOf(await patch(s, DESDEMONA, 'Denmark', { message_retention_days: 0 })), { status: 400, code: 'REQUEST_VARIABLE_INVALID' });
  t.equal((await patch(s, DESDEMONA, 'Denmark', { message_retention_days: 30 })).status, 200);
  t.equal(channel(s, 'Denmark').messageRetentionDays, 30);
  t.equal((await patch(s, DESDEMONA, 'Denmark', { message_retention_days: JSON.stringify('unlimited') })).status, 200);
  t.equal(channel(s, 'Denmark').messageRetentionDays, -1);
});

t.test('topics_policy (392; empty_topic_only from 404) needs can_set_topics_policy_group', async (t) => {
  const s = testServer();
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { topics_policy: 'bogus' })), bad('Invalid topics_policy'));
  t.equal((await patch(s, IAGO, 'Denmark', { topics_policy: 'disable_empty_topic' })).status, 200);
  t.equal(channel(s, 'Denmark').topicsPolicy, 'disable_empty_topic');
  t.same(errorOf(await testServer({ featureLevel: 403 }).as(IAGO).patch(`/streams/${s.streamId('Denmark')}`, { topics_policy: 'empty_topic_only' })), bad('Invalid topics_policy'));
  const old = testServer({ featureLevel: 391 });
  t.same((await old.as(IAGO).patch(`/streams/${s.streamId('Denmark')}`, { topics_policy: 'inherit' })).body.ignored_parameters_unsupported, ['topics_policy']);
});

t.test('group settings: {new, old} from level 320, an old value that differs is EXPECTATION_MISMATCH, values checked as at creation', async (t) => {
  const s = testServer();
  const admins = s.world.systemGroupId('role:administrators');
  const everyone = s.world.systemGroupId('role:everyone');
  const members = s.world.systemGroupId('role:members');
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { can_send_message_group: JSON.stringify({ new: admins, old: members }) })), {
    status: 400,
    code: 'EXPECTATION_MISMATCH',
    msg: "'old' value does not match the expected value.",
  });
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { can_add_subscribers_group: JSON.stringify({ new: everyone }) })), bad("'can_add_subscribers_group' setting cannot be set to 'role:everyone' group."));
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { can_send_message_group: JSON.stringify(admins) })), bad('can_send_message_group is not a dict'));
  t.equal((await patch(s, IAGO, 'Denmark', { can_send_message_group: JSON.stringify({ new: admins, old: everyone }) })).status, 200);
  t.same(channel(s, 'Denmark').settings.get('can_send_message_group'), { kind: 'group', groupId: admins });
  const old = testServer({ featureLevel: 319 });
  t.equal((await old.as(IAGO).patch(`/streams/${s.streamId('Denmark')}`, { can_remove_subscribers_group: JSON.stringify(members) })).status, 200, 'a bare ID before 320');
});

t.test('folder_id: an unknown folder ID is invalid; an error changes nothing', async (t) => {
  const s = testServer();
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { folder_id: 5, description: 'changed?' })), bad('Invalid channel folder ID'));
  t.equal(channel(s, 'Denmark').description, 'A Scandinavian country');
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { description: 'changed?', new_name: 'Verona' })), { status: 400, code: 'CHANNEL_ALREADY_EXISTS', msg: "Channel 'Verona' already exists" });
  t.equal(channel(s, 'Denmark').description, 'A Scandinavian country');
});

t.test('is_default_stream (200): administrators add and remove default channels', async (t) => {
  const s = testServer();
  t.equal((await patch(s, IAGO, 'Denmark', { is_default_stream: true })).status, 200);
  t.ok(s.world.defaultStreamIds.has(s.streamId('Denmark')));
  t.equal((await patch(s, IAGO, 'Denmark', { is_default_stream: false })).status, 200);
  t.notOk(s.world.defaultStreamIds.has(s.streamId('Denmark')));
  t.same((await testServer({ featureLevel: 199 }).as(IAGO).patch(`/streams/${s.streamId('Denmark')}`, { is_default_stream: true })).body.ignored_parameters_unsupported, ['is_default_stream']);
});

t.test('DELETE archives: administrators and channel administrators; twice is an error; the name and subscriptions stay (315)', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  const subscribed = [...s.world.subscribersOf(denmark).values()].filter((sub) => sub.active).length;
  t.same(errorOf(await s.as(OTHELLO).delete(`/streams/${denmark}`)), bad('You do not have permission to administer this channel.'));
  t.equal((await s.as(IAGO).delete(`/streams/${denmark}`)).status, 200);
  t.same(errorOf(await s.as(IAGO).delete(`/streams/${denmark}`)), bad('Channel is already deactivated'));
  t.match(channel(s, 'Denmark'), { isArchived: true, inviteOnly: false });
  t.equal([...s.world.subscribersOf(denmark).values()].filter((sub) => sub.active).length, subscribed);
  t.same(errorOf(await s.as(IAGO).delete('/streams/9999')), bad('Invalid channel ID'));
});

t.test('before level 315 archiving makes the channel private, unsubscribes everyone and frees its name', async (t) => {
  const s = testServer({ featureLevel: 314 });
  const denmark = s.streamId('Denmark');
  t.equal((await s.as(IAGO).delete(`/streams/${denmark}`)).status, 200);
  const archived = s.world.streams.get(denmark)!;
  t.match(archived.name, /^[0-9a-f]{7}!DEACTIVATED:Denmark$/);
  t.ok(archived.inviteOnly);
  t.equal([...s.world.subscribersOf(denmark).values()].filter((sub) => sub.active).length, 0);
  t.same(errorOf(await s.as(OTHELLO).delete(`/streams/${s.streamId('Verona')}`)), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
});

t.test('is_archived=false unarchives (388); only archived channels', async (t) => {
  const s = testServer();
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { is_archived: false })), bad('Channel is not currently deactivated'));
  await s.as(IAGO).delete(`/streams/${s.streamId('Denmark')}`);
  t.equal((await patch(s, IAGO, 'Denmark', { is_archived: false })).status, 200);
  t.equal(channel(s, 'Denmark').isArchived, false);
  const old = testServer({ featureLevel: 387 });
  t.same((await old.as(IAGO).patch(`/streams/${s.streamId('Denmark')}`, { is_archived: false })).body.ignored_parameters_unsupported, ['is_archived']);
});

t.test('before level 333 stream_post_policy (or is_announcement_only) sets who may post, with both legacy updates and a notice', async (t) => {
  const s = testServer({ featureLevel: 332 });
  const denmark = s.streamId('Denmark');
  t.same(errorOf(await patch(s, IAGO, 'Denmark', { stream_post_policy: 5 })), bad('Invalid stream_post_policy'));
  const updates: unknown[] = [];
  s.world.events.subscribe((event) => {
    if (event.type === 'stream' && event.op === 'update') updates.push([event.property, event.value]);
  });
  t.equal((await patch(s, IAGO, 'Denmark', { stream_post_policy: 4 })).status, 200);
  t.same(s.world.streams.get(denmark)!.settings.get('can_send_message_group'), { kind: 'group', groupId: s.world.systemGroupId('role:moderators') });
  t.same(updates, [['stream_post_policy', 4], ['is_announcement_only', false]]);
  t.match([...s.world.messages.values()].at(-1)?.content, /\* \*\*Old\*\*: All channel members can post\n\* \*\*New\*\*: Only organization administrators and moderators can post$/);
  t.equal((await patch(s, IAGO, 'Denmark', { is_announcement_only: true })).status, 200);
  t.same(s.world.streams.get(denmark)!.settings.get('can_send_message_group'), { kind: 'group', groupId: s.world.systemGroupId('role:administrators') });
  const modern = testServer({ featureLevel: 333 });
  t.same((await modern.as(IAGO).patch(`/streams/${denmark}`, { stream_post_policy: 2 })).body.ignored_parameters_unsupported, ['stream_post_policy']);
});

t.test('before level 349 an administrator without content access may only rename and re-describe a private channel', async (t) => {
  const s = testServer({ featureLevel: 348 });
  await privateChannel(s, 'hidden');
  t.equal((await patch(s, IAGO, 'hidden', { new_name: 'still hidden', description: 'x' })).status, 200);
  t.same(errorOf(await patch(s, IAGO, 'still hidden', { is_default_stream: false })), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  const modern = testServer();
  await privateChannel(modern, 'hidden');
  t.equal((await patch(modern, IAGO, 'hidden', { topics_policy: 'disable_empty_topic' })).status, 200, 'from 349 metadata access is enough');
});
