import t from 'tap';
import type { ChatEvent } from '../lib/state/event-hub.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const iago = 'iago@zulip.com';
const desdemona = 'desdemona@zulip.com';

function record(s: TestServer): ChatEvent[] {
  const seen: ChatEvent[] = [];
  s.world.events.subscribe((event) => seen.push(event));
  return seen;
}

const group = (s: TestServer, name: Parameters<TestServer['world']['systemGroupId']>[0]) => s.world.systemGroupId(name);

t.test('PATCH /realm is for administrators, checked before parameters', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as('shiva@zulip.com').patch('/realm', { allow_message_editing: 'nope' })), {
    status: 400,
    code: 'UNAUTHORIZED_PRINCIPAL',
    msg: 'Must be an organization administrator',
  });
});

t.test('allow_message_editing and the edit limit use update_dict events and echo the changes', async (t) => {
  const s = testServer();
  const seen = record(s);
  const reply = await s.as(iago).patch('/realm', { allow_message_editing: false, message_content_edit_limit_seconds: 3600 });
  t.same(reply.body, { result: 'success', msg: '', allow_message_editing: false, message_content_edit_limit_seconds: 3600 });
  t.same(seen, [
    { type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
    { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 3600 } },
  ]);
  t.equal(s.world.realm.allowMessageEditing, false);
  const again = await s.as(iago).patch('/realm', { allow_message_editing: false });
  t.same(again.body, { result: 'success', msg: '' }, 'no change, no data');
  t.equal(seen.length, 2);
  const unlimited = await s.as(iago).patch('/realm', { message_content_edit_limit_seconds: '"unlimited"' });
  t.same(unlimited.body, { result: 'success', msg: '', message_content_edit_limit_seconds: null });
  t.equal(s.world.realm.messageContentEditLimitSeconds, null);
});

t.test('bad edit limits are REQUEST_VARIABLE_INVALID', async (t) => {
  const s = testServer();
  t.equal(
    (await s.as(iago).patch('/realm', { message_content_edit_limit_seconds: 'unlimited' })).body.msg,
    'message_content_edit_limit_seconds is not valid JSON',
    'the value is JSON: strings are quoted',
  );
  for (const value of ['forever', 0, -5]) {
    const reply = await s.as(iago).patch('/realm', { message_content_edit_limit_seconds: JSON.stringify(value) });
    t.same(reply.body, {
      result: 'error',
      msg: `Bad value for 'message_content_edit_limit_seconds': ${value}`,
      var_name: 'message_content_edit_limit_seconds',
      bad_value: value,
      code: 'REQUEST_VARIABLE_INVALID',
    });
  }
  t.equal(s.world.realm.messageContentEditLimitSeconds, 600);
});

t.test('message_edit_history_visibility_policy takes plain names from level 358', async (t) => {
  const s = testServer();
  const seen = record(s);
  const reply = await s.as(iago).patch('/realm', { message_edit_history_visibility_policy: 'moves' });
  t.same(reply.body, { result: 'success', msg: '', message_edit_history_visibility_policy: 2 });
  t.same(seen, [{ type: 'realm', op: 'update', property: 'message_edit_history_visibility_policy', value: 'moves' }]);
  t.equal(s.world.realm.editHistoryVisibilityPolicy, 'moves');
  t.same(errorOf(await s.as(iago).patch('/realm', { message_edit_history_visibility_policy: 'some' })), bad('Invalid message_edit_history_visibility_policy'));
  const old = testServer({ featureLevel: 357 });
  await old.as(iago).patch('/realm', { message_edit_history_visibility_policy: 'none' });
  t.equal(old.world.realm.editHistoryVisibilityPolicy, 'all');
});

t.test('waiting_period_threshold is for owners, non-negative, and re-evaluates full members', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(iago).patch('/realm', { waiting_period_threshold: 10 })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  t.same(errorOf(await s.as(desdemona).patch('/realm', { waiting_period_threshold: -1 })), bad('waiting_period_threshold is too small'));
  const seen = record(s);
  const hamlet = s.id('hamlet@zulip.com');
  const full = s.world.groups.get(group(s, 'role:fullmembers'));
  t.ok(full?.members.has(hamlet));
  const reply = await s.as(desdemona).patch('/realm', { waiting_period_threshold: 1000 });
  t.same(reply.body, { result: 'success', msg: '', waiting_period_threshold: 1000 });
  t.notOk(full?.members.has(hamlet), 'members who joined less than 1000 days ago are provisional');
  t.same(seen[0], { type: 'realm', op: 'update', property: 'waiting_period_threshold', value: 1000 });
  const removed = seen.find((e) => e.type === 'user_group' && e.op === 'remove_members');
  t.equal(removed?.group_id, group(s, 'role:fullmembers'));
  t.ok((removed?.user_ids as number[]).includes(hamlet));
});

t.test('moderation_request_channel_id must be a private channel; -1 disables', async (t) => {
  const s = testServer();
  const seen = record(s);
  const core = s.streamId('core team');
  t.same(errorOf(await s.as(iago).patch('/realm', { moderation_request_channel_id: s.streamId('Verona') })), bad('Moderation request channel must be private.'));
  t.same(errorOf(await s.as(iago).patch('/realm', { moderation_request_channel_id: 999 })), bad('Invalid channel ID'));
  t.equal(s.world.realm.moderationRequestChannelId, null);
  const reply = await s.as(iago).patch('/realm', { moderation_request_channel_id: core });
  t.same(reply.body, { result: 'success', msg: '', moderation_request_channel_id: core });
  t.equal(s.world.realm.moderationRequestChannelId, core);
  t.same(seen, [{ type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: core }]);
  await s.as(iago).patch('/realm', { moderation_request_channel_id: -1 });
  t.equal(s.world.realm.moderationRequestChannelId, null);
  t.same(seen[1], { type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: -1 });
});

t.test('group settings take {new, old} and announce update_dict with the API value', async (t) => {
  const s = testServer();
  const seen = record(s);
  const moderators = group(s, 'role:moderators');
  const reply = await s.as(iago).patch('/realm', { can_add_custom_emoji_group: { new: moderators, old: group(s, 'role:members') } });
  t.same(reply.body, { result: 'success', msg: '', can_add_custom_emoji_group: moderators });
  t.same(seen, [{ type: 'realm', op: 'update_dict', property: 'default', data: { can_add_custom_emoji_group: moderators } }]);
  const hamlet = s.id('hamlet@zulip.com');
  const anonymous = { direct_members: [hamlet], direct_subgroups: [moderators] };
  const second = await s.as(iago).patch('/realm', { can_add_custom_emoji_group: { new: anonymous } });
  t.same(second.body.can_add_custom_emoji_group, anonymous);
  t.same(seen[1]?.data, { can_add_custom_emoji_group: anonymous });
  const same = await s.as(iago).patch('/realm', { can_add_custom_emoji_group: { new: anonymous } });
  t.same(same.body, { result: 'success', msg: '' }, 'an unchanged value is skipped');
  const collapse = await s.as(iago).patch('/realm', { can_add_custom_emoji_group: { new: { direct_members: [], direct_subgroups: [] } } });
  t.equal(collapse.body.can_add_custom_emoji_group, group(s, 'role:nobody'), 'empty means role:nobody');
});

t.test('group setting errors have the real messages and change nothing', async (t) => {
  const s = testServer();
  const moderators = group(s, 'role:moderators');
  const cases: Array<[Record<string, unknown>, { status: number; code: string; msg: string }]> = [
    [{ can_add_custom_emoji_group: moderators }, bad('can_add_custom_emoji_group does not have the expected format')],
    [{ can_add_custom_emoji_group: { new: moderators, old: moderators } }, { status: 400, code: 'EXPECTATION_MISMATCH', msg: "'old' value does not match the expected value." }],
    [{ can_add_custom_emoji_group: { new: 999 } }, bad('Invalid user group')],
    [{ can_add_custom_emoji_group: { new: group(s, 'role:everyone') } }, bad("'can_add_custom_emoji_group' setting cannot be set to 'role:everyone' group.")],
    [{ can_add_custom_emoji_group: { new: group(s, 'role:internet') } }, bad("'can_add_custom_emoji_group' setting cannot be set to 'role:internet' group.")],
    [{ can_add_custom_emoji_group: { new: { direct_members: [999], direct_subgroups: [] } } }, bad('Invalid user ID: 999')],
    [{ can_access_all_users_group: { new: moderators } }, bad("'can_access_all_users_group' setting cannot be set to 'role:moderators' group.")],
    [
      { can_access_all_users_group: { new: { direct_members: [s.id(iago)], direct_subgroups: [] } } },
      { status: 400, code: 'SYSTEM_GROUP_REQUIRED', msg: "'can_access_all_users_group' must be a system user group." },
    ],
    [{ can_access_all_users_group: { new: 17 } }, { status: 400, code: 'SYSTEM_GROUP_REQUIRED', msg: "'can_access_all_users_group' must be a system user group." }],
    [{ can_create_groups: { new: moderators } }, { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' }],
    [{ allow_message_editing: false, moderation_request_channel_id: s.streamId('Verona') }, bad('Moderation request channel must be private.')],
  ];
  const before = JSON.stringify([...s.world.realm.settings].map(([k, v]) => [k, v.kind === 'group' ? v.groupId : [...v.members]]));
  for (const [params, expected] of cases) {
    t.same(errorOf(await s.as(iago).patch('/realm', params)), expected, expected.msg);
  }
  t.equal(JSON.stringify([...s.world.realm.settings].map(([k, v]) => [k, v.kind === 'group' ? v.groupId : [...v.members]])), before);
  t.equal(s.world.realm.allowMessageEditing, true, 'an error leaves earlier parameters unapplied');
});

t.test('owners change owner-only group settings; can_manage_all_groups refuses role:nobody', async (t) => {
  const s = testServer();
  const reply = await s.as(desdemona).patch('/realm', { can_create_groups: { new: group(s, 'role:moderators') } });
  t.equal(reply.body.can_create_groups, group(s, 'role:moderators'));
  t.same(errorOf(await s.as(desdemona).patch('/realm', { can_manage_all_groups: { new: group(s, 'role:nobody') } })), bad("'can_manage_all_groups' setting cannot be set to 'role:nobody' group."));
  t.equal((await s.as(desdemona).patch('/realm', { can_access_all_users_group: { new: group(s, 'role:members') } })).status, 200);
});

t.test('unknown realm settings are reported as ignored', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).patch('/realm', { presence_disabled: true, giphy_rating: 1 });
  t.same(reply.body.ignored_parameters_unsupported, ['giphy_rating', 'presence_disabled']);
  t.equal(s.world.realm.presenceDisabled, false);
});
