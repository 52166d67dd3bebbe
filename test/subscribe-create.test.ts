import t from 'tap';
import { bad, channelState, DESDEMONA, HAMLET, IAGO, recordEvents, SHIVA, sub } from './support/channels.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const create = (s: TestServer, email: string, name: string, extra: Record<string, unknown> = {}) =>
  sub(s, email, { subscriptions: [{ name }], ...extra });

/** The channel's entry in the creator's `GET /users/me/subscriptions`. */
async function listed(s: TestServer, email: string, name: string): Promise<Record<string, unknown>> {
  const reply = await s.as(email).get('/users/me/subscriptions');
  return reply.body.subscriptions.find((x: { name: string }) => x.name === name);
}

const group = (s: TestServer, name: Parameters<TestServer['world']['systemGroupId']>[0]) => s.world.systemGroupId(name);

t.test('a new public channel gets the request settings and the documented defaults', async (t) => {
  const s = testServer();
  const reply = await sub(s, HAMLET, { subscriptions: [{ name: 'brand new', description: 'line one\nline two' }], history_public_to_subscribers: false });
  t.same(reply.body.subscribed, { [String(s.id(HAMLET))]: ['brand new'] });
  const entry = await listed(s, HAMLET, 'brand new');
  const [channelEvents] = [...s.world.messages.values()].filter((m) => m.recipient.kind === 'stream' && m.recipient.streamId === entry.stream_id);
  t.match(entry, {
    description: 'line one line two',
    rendered_description: '<p>line one line two</p>',
    invite_only: false,
    is_web_public: false,
    history_public_to_subscribers: true,
    creator_id: s.id(HAMLET),
    date_created: Math.floor(s.clock.now() / 1000),
    message_retention_days: null,
    topics_policy: 'inherit',
    folder_id: null,
    is_archived: false,
    stream_weekly_traffic: null,
    subscriber_count: 1,
    stream_post_policy: 1,
    is_announcement_only: false,
  });
  t.equal(entry.first_message_id, channelEvents!.id, "Notification Bot's channel-events message comes first");
  t.same(entry.can_administer_channel_group, { direct_members: [s.id(HAMLET)], direct_subgroups: [] }, 'the creator administers it');
  t.equal(entry.can_add_subscribers_group, group(s, 'role:nobody'));
  t.equal(entry.can_subscribe_group, group(s, 'role:nobody'));
  t.equal(entry.can_remove_subscribers_group, group(s, 'role:administrators'));
  t.equal(entry.can_send_message_group, group(s, 'role:everyone'));
});

t.test('private channels keep protected history unless shared history is asked for', async (t) => {
  const s = testServer();
  await create(s, HAMLET, 'secret one', { invite_only: true });
  await create(s, HAMLET, 'secret two', { invite_only: true, history_public_to_subscribers: true });
  t.match(await listed(s, HAMLET, 'secret one'), { invite_only: true, history_public_to_subscribers: false });
  t.match(await listed(s, HAMLET, 'secret two'), { invite_only: true, history_public_to_subscribers: true });
});

t.test("creating needs the realm's create-public or create-private permission; existing channels need neither", async (t) => {
  const s = testServer();
  const admins = { kind: 'group' as const, groupId: group(s, 'role:administrators') };
  s.world.realm.settings.set('can_create_public_channel_group', admins);
  const before = channelState(s);
  t.same(errorOf(await create(s, HAMLET, 'brand new')), bad('Insufficient permission'));
  t.equal(channelState(s), before);
  t.equal((await create(s, HAMLET, 'brand new', { invite_only: true })).status, 200, 'private creation is a separate permission');
  s.world.realm.settings.set('can_create_private_channel_group', admins);
  t.same(errorOf(await create(s, HAMLET, 'other new', { invite_only: true })), bad('Insufficient permission'));
  t.equal((await create(s, HAMLET, 'Scotland')).status, 200, 'subscribing to an existing channel is not creating');
  t.equal((await create(s, IAGO, 'admin made')).status, 200);
});

t.test('is_default_stream: administrators only, never private, ignored for existing channels', async (t) => {
  const s = testServer();
  const before = channelState(s);
  t.same(errorOf(await create(s, HAMLET, 'brand new', { is_default_stream: true })), bad('Insufficient permission'));
  t.same(errorOf(await create(s, IAGO, 'brand new', { is_default_stream: true, invite_only: true })), bad('A default channel cannot be private.'));
  t.equal(channelState(s), before);
  t.equal((await create(s, HAMLET, 'Scotland', { is_default_stream: true })).status, 200, 'no error when nothing is created');
  t.notOk(s.world.defaultStreamIds.has(s.streamId('Scotland')));
  const events = recordEvents(s);
  t.equal((await create(s, IAGO, 'brand new', { is_default_stream: true })).status, 200);
  const id = s.streamId('brand new');
  t.ok(s.world.defaultStreamIds.has(id));
  const event = events.find((e) => e.event.type === 'default_streams');
  t.same(event?.event.default_streams, [...s.world.defaultStreamIds].sort((a, b) => a - b), 'IDs from level 330');
  t.notOk(event?.userIds.includes(s.id('polonius@zulip.com')), 'not sent to guests');
});

t.test('is_default_stream exists from level 200; default_streams carried channel objects before 330', async (t) => {
  const old = testServer({ featureLevel: 199 });
  const reply = await create(old, IAGO, 'brand new', { is_default_stream: true });
  t.same(reply.body.ignored_parameters_unsupported, ['is_default_stream']);
  t.notOk(old.world.defaultStreamIds.has(old.streamId('brand new')));
  const mid = testServer({ featureLevel: 329 });
  const events = recordEvents(mid);
  await create(mid, IAGO, 'brand new', { is_default_stream: true });
  const payload = events.find((e) => e.event.type === 'default_streams')?.event.default_streams as Array<{ name: string }>;
  t.ok(payload.some((x) => x.name === 'brand new'));
  t.same(payload.map((x) => x.name), [...payload.map((x) => x.name)].sort(), 'sorted by name');
});

t.test('web-public channels need spectator access, the web-public creation permission and a public channel', async (t) => {
  const s = testServer();
  const before = channelState(s);
  t.same(errorOf(await create(s, HAMLET, 'open', { is_web_public: true })), bad('Insufficient permission'));
  t.same(errorOf(await create(s, IAGO, 'open', { is_web_public: true })), bad('Insufficient permission'), 'owners only by default');
  const mixed = await create(s, DESDEMONA, 'open', { is_web_public: true, invite_only: true });
  t.equal(mixed.status, 400, 'a private web-public channel is refused rather than failing as the real server does');
  s.world.realm.enableSpectatorAccess = false;
  t.same(errorOf(await create(s, DESDEMONA, 'open', { is_web_public: true })), bad('Web-public channels are not enabled.'));
  t.equal(channelState(s), before);
  s.world.realm.enableSpectatorAccess = true;
  t.equal((await create(s, DESDEMONA, 'open', { is_web_public: true })).status, 200);
  t.match(await listed(s, DESDEMONA, 'open'), { is_web_public: true, invite_only: false, history_public_to_subscribers: true });
  const old = testServer({ featureLevel: 97 });
  t.equal((await create(old, DESDEMONA, 'open', { is_web_public: true })).status, 200);
  t.equal(old.world.streamByName('open')?.isWebPublic, false, 'is_web_public does not exist before level 98');
});

t.test('message_retention_days needs an owner for new channels and takes the level-dependent special values', async (t) => {
  const s = testServer();
  t.same(errorOf(await create(s, IAGO, 'kept', { message_retention_days: 30 })), {
    status: 400,
    code: 'UNAUTHORIZED_PRINCIPAL',
    msg: 'Must be an organization owner',
  });
  t.equal((await create(s, HAMLET, 'Scotland', { message_retention_days: 30 })).status, 200, 'ignored for existing channels');
  await create(s, DESDEMONA, 'thirty', { message_retention_days: 30 });
  await create(s, DESDEMONA, 'forever', { message_retention_days: JSON.stringify('unlimited') });
  await create(s, HAMLET, 'default', { message_retention_days: JSON.stringify('realm_default') });
  t.equal(s.world.streamByName('thirty')?.messageRetentionDays, 30);
  t.equal(s.world.streamByName('forever')?.messageRetentionDays, -1);
  t.equal(s.world.streamByName('default')?.messageRetentionDays, null);
  for (const value of [0, -5, 'abc', 'forever']) {
    const reply = await create(s, DESDEMONA, 'bad', { message_retention_days: JSON.stringify(value) });
    t.same(errorOf(reply), { status: 400, code: 'REQUEST_VARIABLE_INVALID', msg: `Bad value for 'message_retention_days': ${value}` });
    t.same([reply.body.var_name, reply.body.bad_value], ['message_retention_days', value]);
  }
  const old = testServer({ featureLevel: 90 });
  await create(old, DESDEMONA, 'forever', { message_retention_days: JSON.stringify('forever') });
  t.equal(old.world.streamByName('forever')?.messageRetentionDays, -1, "'forever' before level 91");
  t.equal((await create(old, DESDEMONA, 'unlimited', { message_retention_days: JSON.stringify('unlimited') })).body.code, 'REQUEST_VARIABLE_INVALID');
});

t.test('topics_policy: a JSON string from level 392, empty_topic_only from 404, non-inherit needs permission', async (t) => {
  const s = testServer();
  await create(s, HAMLET, 'chatty', { topics_policy: JSON.stringify('allow_empty_topic') });
  t.equal(s.world.streamByName('chatty')?.topicsPolicy, 'allow_empty_topic');
  await create(s, HAMLET, 'only', { topics_policy: JSON.stringify('empty_topic_only') });
  t.equal(s.world.streamByName('only')?.topicsPolicy, 'empty_topic_only');
  t.same(errorOf(await create(s, HAMLET, 'x', { topics_policy: JSON.stringify('nonsense') })), bad('Invalid topics_policy'));
  t.same(errorOf(await create(s, HAMLET, 'x', { topics_policy: 'inherit' })), bad('topics_policy is not valid JSON'));
  s.world.realm.settings.set('can_set_topics_policy_group', { kind: 'group', groupId: group(s, 'role:administrators') });
  t.same(errorOf(await create(s, HAMLET, 'x', { topics_policy: JSON.stringify('disable_empty_topic') })), bad('Insufficient permission'));
  t.equal((await create(s, HAMLET, 'y', { topics_policy: JSON.stringify('inherit') })).status, 200, 'inherit needs no permission');
  const level403 = testServer({ featureLevel: 403 });
  t.same(errorOf(await create(level403, HAMLET, 'x', { topics_policy: JSON.stringify('empty_topic_only') })), bad('Invalid topics_policy'));
  const level391 = testServer({ featureLevel: 391 });
  const ignored = await create(level391, HAMLET, 'x', { topics_policy: JSON.stringify('allow_empty_topic') });
  t.same(ignored.body.ignored_parameters_unsupported, ['topics_policy']);
});

t.test('group settings are validated against each setting rule and stored for every new channel', async (t) => {
  const s = testServer();
  const internet = group(s, 'role:internet');
  const everyone = group(s, 'role:everyone');
  t.same(
    errorOf(await create(s, HAMLET, 'x', { can_send_message_group: internet })),
    bad("'can_send_message_group' setting cannot be set to 'role:internet' group."),
  );
  t.same(
    errorOf(await create(s, HAMLET, 'x', { can_add_subscribers_group: everyone })),
    bad("'can_add_subscribers_group' setting cannot be set to 'role:everyone' group."),
  );
  t.same(errorOf(await create(s, HAMLET, 'x', { can_subscribe_group: 9999 })), bad('Invalid user group'));
  t.same(errorOf(await create(s, HAMLET, 'x', { can_subscribe_group: { direct_members: [9999], direct_subgroups: [] } })), bad('Invalid user ID: 9999'));
  t.equal(s.world.streamByName('x'), undefined);
  const anonymous = { direct_members: [s.id(HAMLET), s.id(IAGO)], direct_subgroups: [17] };
  const reply = await sub(s, HAMLET, {
    subscriptions: [{ name: 'one' }, { name: 'two' }],
    can_add_subscribers_group: anonymous,
    can_subscribe_group: { direct_members: [], direct_subgroups: [] },
    can_send_message_group: { direct_members: [], direct_subgroups: [group(s, 'role:moderators')] },
  });
  t.equal(reply.status, 200);
  for (const name of ['one', 'two']) {
    const entry = await listed(s, HAMLET, name);
    t.same(entry.can_add_subscribers_group, { direct_members: [s.id(HAMLET), s.id(IAGO)].sort((a, b) => a - b), direct_subgroups: [17] }, name);
    t.equal(entry.can_subscribe_group, group(s, 'role:nobody'), 'an empty value is role:nobody');
    t.equal(entry.can_send_message_group, group(s, 'role:moderators'), 'a single subgroup collapses to it');
    t.equal(entry.stream_post_policy, 4);
  }
});

t.test('who may delete messages can be set only by those allowed to set the delete policy (level 407)', async (t) => {
  const s = testServer();
  const admins = group(s, 'role:administrators');
  t.same(errorOf(await create(s, HAMLET, 'x', { can_delete_any_message_group: admins })), bad('Insufficient permission'));
  t.equal((await create(s, HAMLET, 'x', { can_delete_any_message_group: group(s, 'role:nobody') })).status, 200, 'nobody needs no permission');
  t.equal((await create(s, SHIVA, 'y', { can_delete_own_message_group: admins })).status, 200, 'moderators may');
  const old = testServer({ featureLevel: 406 });
  const reply = await create(old, HAMLET, 'x', { can_delete_any_message_group: admins });
  t.same(reply.body.ignored_parameters_unsupported, ['can_delete_any_message_group']);
});

t.test('each group setting exists from its own level', async (t) => {
  const cases: Array<[string, number]> = [
    ['can_add_subscribers_group', 342],
    ['can_administer_channel_group', 325],
    ['can_move_messages_out_of_channel_group', 396],
    ['can_move_messages_within_channel_group', 396],
    ['can_send_message_group', 333],
    ['can_subscribe_group', 357],
    ['can_resolve_topics_group', 402],
    ['can_remove_subscribers_group', 197],
  ];
  for (const [setting, level] of cases) {
    const before = testServer({ featureLevel: level - 1 });
    const ignored = await create(before, IAGO, 'x', { [setting]: 9 });
    t.same(ignored.body.ignored_parameters_unsupported, [setting], `${setting} below ${level}`);
    const at = testServer({ featureLevel: level });
    const used = await create(at, IAGO, 'x', { [setting]: 11 });
    t.notOk(used.body.ignored_parameters_unsupported, `${setting} at ${level}`);
  }
});

t.test('can_remove_subscribers_group: named _id before level 197 and an integer before 320', async (t) => {
  const old = testServer({ featureLevel: 196 });
  await create(old, IAGO, 'x', { can_remove_subscribers_group_id: 12 });
  const entry = await listed(old, IAGO, 'x');
  t.equal(entry.can_remove_subscribers_group_id, 12);
  t.notOk('can_remove_subscribers_group' in entry);
  const level319 = testServer({ featureLevel: 319 });
  t.same(
    errorOf(await create(level319, IAGO, 'x', { can_remove_subscribers_group: { direct_members: [11], direct_subgroups: [] } })),
    bad('can_remove_subscribers_group is not an integer'),
  );
  const level320 = testServer({ featureLevel: 320 });
  t.equal((await create(level320, IAGO, 'x', { can_remove_subscribers_group: { direct_members: [11], direct_subgroups: [] } })).status, 200);
  const current = testServer();
  t.same((await create(current, IAGO, 'x', { can_remove_subscribers_group_id: 12 })).body.ignored_parameters_unsupported, [
    'can_remove_subscribers_group_id',
  ]);
});

t.test('stream_post_policy and is_announcement_only set who may post before level 333', async (t) => {
  const old = testServer({ featureLevel: 332 });
  await create(old, IAGO, 'admins only', { stream_post_policy: 2 });
  await create(old, IAGO, 'announce only', { is_announcement_only: true });
  t.match(await listed(old, IAGO, 'admins only'), { stream_post_policy: 2, is_announcement_only: true });
  t.match(await listed(old, IAGO, 'announce only'), { stream_post_policy: 2 });
  t.same(errorOf(await create(old, IAGO, 'x', { stream_post_policy: 7 })), bad('Invalid stream_post_policy'));
  const current = testServer();
  const reply = await create(current, IAGO, 'x', { stream_post_policy: 2, is_announcement_only: true });
  t.same(reply.body.ignored_parameters_unsupported, ['is_announcement_only', 'stream_post_policy']);
});

t.test('an unknown folder_id is refused (level 389)', async (t) => {
  const s = testServer();
  t.same(errorOf(await create(s, HAMLET, 'x', { folder_id: 1 })), bad('Invalid channel folder ID'));
  t.same((await create(testServer({ featureLevel: 388 }), HAMLET, 'x', { folder_id: 1 })).body.ignored_parameters_unsupported, ['folder_id']);
});

t.test('repeating a new name in one request creates one channel', async (t) => {
  const s = testServer();
  const count = s.world.streams.size;
  const reply = await sub(s, HAMLET, { subscriptions: [{ name: 'twice' }, { name: 'TWICE' }, { name: 'twice' }] });
  t.same(reply.body.subscribed, { [String(s.id(HAMLET))]: ['twice'] });
  t.equal(s.world.streams.size, count + 1);
});
