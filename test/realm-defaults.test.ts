/**
 * The development realm's defaults, as the real server's models and `populate_db` make them
 * (zerver/models/realms.py `Realm` field defaults, zerver/models/streams.py
 * `stream_permission_group_settings`, zilencer/management/commands/populate_db.py `do_create_realm`
 * for the `zulip` realm: a business, invitations not required, read receipts and spectators on).
 */
import t from 'tap';
import { bad, errorOf, testServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';

t.test('register reports the development realm’s defaults', async (t) => {
  const s = testServer();
  const state = (await s.as(HAMLET).post('/register', { fetch_event_types: ['realm'] })).body;
  const expected: Record<string, unknown> = {
    realm_org_type: 10,
    realm_message_content_delete_limit_seconds: 600,
    realm_message_content_edit_limit_seconds: 600,
    realm_invite_required: false,
    realm_enable_read_receipts: true,
    realm_enable_spectator_access: true,
    realm_disallow_disposable_email_addresses: true,
    realm_emails_restricted_to_domains: false,
    realm_require_unique_names: false,
    realm_name_changes_disabled: false,
    realm_email_changes_disabled: false,
    realm_avatar_changes_disabled: false,
    realm_topics_policy: 'allow_empty_topic',
    realm_waiting_period_threshold: 0,
    realm_move_messages_within_stream_limit_seconds: 604800,
    realm_move_messages_between_streams_limit_seconds: 604800,
  };
  for (const [name, value] of Object.entries(expected)) t.same(state[name], value, name);
});

t.test('own messages may be deleted for 600 seconds by default (DEFAULT_MESSAGE_CONTENT_DELETE_LIMIT_SECONDS)', async (t) => {
  const s = testServer();
  const send = async () => (await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'limits', content: 'x' })).body.id as number;
  const early = await send();
  const late = await send();
  s.clock.advance(600_000);
  t.equal((await s.as(HAMLET).delete(`/messages/${early}`)).status, 200, 'at the limit');
  s.clock.advance(1000);
  t.same(errorOf(await s.as(HAMLET).delete(`/messages/${late}`)), bad('The time limit for deleting this message has passed'));
});

t.test('a new channel’s can_delete_own_message_group is role:nobody', async (t) => {
  const s = testServer();
  t.equal((await s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: [{ name: 'fresh' }] })).status, 200);
  const stream = (await s.as(HAMLET).get(`/streams/${s.streamId('fresh')}`)).body.stream;
  t.equal(stream.can_delete_own_message_group, s.world.systemGroupId('role:nobody'));
  t.equal(stream.can_delete_any_message_group, s.world.systemGroupId('role:nobody'));
});

t.test('server_supported_permission_settings carries the real models’ defaults and limits (Realm.REALM_PERMISSION_GROUP_SETTINGS, Stream.stream_permission_group_settings)', async (t) => {
  const s = testServer();
  const settings = (await s.as(HAMLET).post('/register', { fetch_event_types: ['realm'] })).body.server_supported_permission_settings;
  t.match(settings.realm.can_set_topics_policy_group, { default_group_name: 'role:members', allow_everyone_group: true, allow_nobody_group: true });
  t.match(settings.realm.can_manage_all_groups, { allow_nobody_group: false, allow_everyone_group: false });
  t.match(settings.realm.can_manage_billing_group, { allow_nobody_group: false, allow_everyone_group: false });
  t.match(settings.realm.can_create_web_public_channel_group, { require_system_group: true, allowed_system_groups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'] });
  t.equal(settings.stream.can_delete_own_message_group.default_group_name, 'role:nobody');
  const refused = await s.as('desdemona@zulip.com').patch('/realm', { can_manage_billing_group: { new: s.world.systemGroupId('role:nobody') } });
  t.same(errorOf(refused), bad("'can_manage_billing_group' setting cannot be set to 'role:nobody' group."));
});
