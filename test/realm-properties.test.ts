import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { bad, errorOf, type Params, testServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const OWNER = 'desdemona@zulip.com';
const OWNER_ONLY = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' };

/** [parameters, response data, register field and value after]. */
const changes: Array<[Params, Record<string, unknown>, string, unknown]> = [
  [{ name: 'New name' }, { name: 'updated' }, 'realm_name', 'New name'],
  [{ description: 'About us' }, { description: 'updated' }, 'realm_description', 'About us'],
  [{ default_language: 'de' }, { default_language: 'updated' }, 'realm_default_language', 'de'],
  [{ invite_required: true }, { invite_required: true }, 'realm_invite_required', true],
  [{ emails_restricted_to_domains: true }, { emails_restricted_to_domains: true }, 'realm_emails_restricted_to_domains', true],
  [{ disallow_disposable_email_addresses: false }, { disallow_disposable_email_addresses: false }, 'realm_disallow_disposable_email_addresses', false],
  [{ enable_read_receipts: false }, { enable_read_receipts: false }, 'realm_enable_read_receipts', false],
  [{ enable_spectator_access: false }, { enable_spectator_access: false }, 'realm_enable_spectator_access', false],
  [{ org_type: 20 }, { org_type: 20 }, 'realm_org_type', 20],
  [{ message_content_delete_limit_seconds: 900 }, { message_content_delete_limit_seconds: 900 }, 'realm_message_content_delete_limit_seconds', 900],
  [{ require_unique_names: true }, { require_unique_names: true }, 'realm_require_unique_names', true],
  [{ name_changes_disabled: true }, { name_changes_disabled: true }, 'realm_name_changes_disabled', true],
  [{ email_changes_disabled: true }, { email_changes_disabled: true }, 'realm_email_changes_disabled', true],
  [{ avatar_changes_disabled: true }, { avatar_changes_disabled: true }, 'realm_avatar_changes_disabled', true],
  // Stored and published: the real server acts on these only in emails, push payloads and its
  // own clients, none of which this server has.
  [{ digest_emails_enabled: true }, { digest_emails_enabled: true }, 'realm_digest_emails_enabled', true],
  [{ digest_weekday: 4 }, { digest_weekday: 4 }, 'realm_digest_weekday', 4],
  [{ enable_guest_user_dm_warning: false }, { enable_guest_user_dm_warning: false }, 'realm_enable_guest_user_dm_warning', false],
  [{ enable_guest_user_indicator: false }, { enable_guest_user_indicator: false }, 'realm_enable_guest_user_indicator', false],
  [{ giphy_rating: 0 }, { giphy_rating: 0 }, 'realm_giphy_rating', 0],
  [{ message_content_allowed_in_email_notifications: false }, { message_content_allowed_in_email_notifications: false }, 'realm_message_content_allowed_in_email_notifications', false],
  [{ require_e2ee_push_notifications: true }, { require_e2ee_push_notifications: true }, 'realm_require_e2ee_push_notifications', true],
  [{ send_welcome_emails: false }, { send_welcome_emails: false }, 'realm_send_welcome_emails', false],
  [{ video_chat_provider: 0 }, { video_chat_provider: 0 }, 'realm_video_chat_provider', 0],
  [{ want_advertise_in_communities_directory: true }, { want_advertise_in_communities_directory: true }, 'realm_want_advertise_in_communities_directory', true],
  // Rendering settings (`Realm.property_types`; realm-render-settings.test.ts has their effects).
  [{ inline_image_preview: false }, { inline_image_preview: false }, 'realm_inline_image_preview', false],
  [{ inline_url_embed_preview: true }, { inline_url_embed_preview: true }, 'realm_inline_url_embed_preview', true],
  [{ default_code_block_language: 'rust' }, { default_code_block_language: 'updated' }, 'realm_default_code_block_language', 'rust'],
  // `RealmTopicsPolicyEnum`: the event and register carry the name, the response the number.
  [{ topics_policy: 'disable_empty_topic' }, { topics_policy: 3 }, 'realm_topics_policy', 'disable_empty_topic'],
  [{ move_messages_within_stream_limit_seconds: '"unlimited"' }, { move_messages_within_stream_limit_seconds: null }, 'realm_move_messages_within_stream_limit_seconds', null],
  [{ move_messages_between_streams_limit_seconds: 60 }, { move_messages_between_streams_limit_seconds: 60 }, 'realm_move_messages_between_streams_limit_seconds', 60],
  [{ message_retention_days: 30 }, { message_retention_days: 30 }, 'realm_message_retention_days', 30],
  [{ message_retention_days: '"unlimited"' }, {}, 'realm_message_retention_days', -1],
];

for (const [params, data, field, value] of changes) {
  const [name] = Object.keys(params) as [string];
  t.test(`PATCH /realm ${name}: answers the change, sends realm/update to everyone, and register converges`, async (t) => {
    const s = testServer();
    const everyone = listenAll(s);
    let reply: { body: Record<string, unknown> } | undefined;
    const events = await checkEventsConverge(t, s.as('hamlet@zulip.com'), {
      fetchEventTypes: ['realm'],
      expectEvents: Object.keys(data).length > 0,
      action: async () => (reply = await s.as(OWNER).patch('/realm', params)),
    });
    t.same(reply?.body, { result: 'success', msg: '', ...data });
    checkEventShapes(t, events);
    if (Object.keys(data).length > 0) {
      t.same(events.map(({ id: _id, ...e }) => e), [{ type: 'realm', op: 'update', property: name, value: value }]);
      checkRecipients(t, everyone.received(), isEvent('realm', 'update'), activeIds(s), name);
    }
    t.equal((await s.as('hamlet@zulip.com').post('/register', { fetch_event_types: ['realm'] })).body[field], value);
  });
}

const errors: Array<[string, Params, { status: number; code: string; msg: string }]> = [
  ['an unknown language', { default_language: 'xx' }, bad("Invalid language 'xx'")],
  ['a zero delete limit', { message_content_delete_limit_seconds: 0 }, { status: 400, code: 'REQUEST_VARIABLE_INVALID', msg: "Bad value for 'message_content_delete_limit_seconds': 0" }],
  ['a bad retention text', { message_retention_days: '"forever"' }, { status: 400, code: 'REQUEST_VARIABLE_INVALID', msg: "Bad value for 'message_retention_days': forever" }],
  ['an unknown org_type', { org_type: 7 }, bad('Invalid org_type: Value error, Not in the list of possible values')],
  ['an unknown video chat provider', { video_chat_provider: 3 }, bad('Invalid video_chat_provider 3')],
  ['an unknown GIPHY rating', { giphy_rating: 9 }, bad('Invalid giphy_rating 9')],
  ['a name over 40 characters', { name: 'n'.repeat(41) }, bad('name is too long (limit: 40 characters)')],
];

for (const [what, params, expected] of errors) {
  t.test(`PATCH /realm refuses ${what} and changes nothing`, async (t) => {
    const s = testServer();
    t.same(errorOf(await s.as(OWNER).patch('/realm', { ...params, description: 'changed?' })), expected);
    t.not(s.world.realm.description, 'changed?');
  });
}

t.test('owner-only settings refuse administrators; other settings refuse moderators', async (t) => {
  const s = testServer();
  for (const params of [{ invite_required: true }, { emails_restricted_to_domains: true }, { disallow_disposable_email_addresses: false }, { message_retention_days: 10 }]) {
    t.same(errorOf(await s.as(IAGO).patch('/realm', params)), OWNER_ONLY, JSON.stringify(params));
  }
  t.equal((await s.as(IAGO).patch('/realm', { name: 'Admins may' })).status, 200);
  t.same(errorOf(await s.as('shiva@zulip.com').patch('/realm', { name: 'x' })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
});

t.test('levels: retention says forever before 91; read receipts exist from 137', async (t) => {
  const old = testServer({ featureLevel: 90 });
  t.equal((await old.as(OWNER).patch('/realm', { message_retention_days: '"forever"' })).status, 200);
  const level136 = testServer({ featureLevel: 136 });
  await level136.as(OWNER).patch('/realm', { enable_read_receipts: false });
  t.equal(level136.world.realmProperties.has('enable_read_receipts'), false, 'ignored below 137');
  const level137 = testServer({ featureLevel: 137 });
  await level137.as(OWNER).patch('/realm', { enable_read_receipts: false });
  t.equal(level137.world.realmProperties.get('enable_read_receipts'), false);
});

t.test('disallow_disposable_email_addresses false lets invitations go to disposable addresses', async (t) => {
  const s = testServer();
  await s.as(OWNER).patch('/realm', { disallow_disposable_email_addresses: false });
  t.equal((await s.as(IAGO).post('/invites', { invitee_emails: 'x@mailinator.com', stream_ids: [] })).status, 200);
});

t.test('the newer group settings are set through PATCH /realm; can_manage_billing_group needs an owner', async (t) => {
  const s = testServer();
  const moderators = s.world.systemGroupId('role:moderators');
  const reply = await s.as(IAGO).patch('/realm', { can_create_bots_group: { new: moderators } });
  t.same(reply.body, { result: 'success', msg: '', can_create_bots_group: moderators });
  t.equal((await s.as('hamlet@zulip.com').post('/register', { fetch_event_types: ['realm'] })).body.realm_can_create_bots_group, moderators);
  t.same(errorOf(await s.as(IAGO).patch('/realm', { can_manage_billing_group: { new: moderators } })), OWNER_ONLY);
  const everyone = s.world.systemGroupId('role:everyone');
  t.same(errorOf(await s.as(IAGO).patch('/realm', { can_delete_any_message_group: { new: everyone } })), bad("'can_delete_any_message_group' setting cannot be set to 'role:everyone' group."));
  t.equal((await s.as(IAGO).patch('/realm', { direct_message_initiator_group: { new: everyone } })).status, 200, 'role:everyone is allowed for this one');
});

t.test('PATCH /realm mandatory_topics before level 392 sets the topics policy that sending enforces; from 392 it is ignored', async (t) => {
  const old = testServer({ featureLevel: 391 });
  const reply = await old.as(IAGO).patch('/realm', { mandatory_topics: true });
  t.same(reply.body, { result: 'success', msg: '', mandatory_topics: true });
  t.equal(old.world.realm.topicsPolicy, 'disable_empty_topic');
  t.same(errorOf(await old.as('hamlet@zulip.com').post('/messages', { type: 'stream', to: 'Verona', topic: '', content: 'x' })).code, 'BAD_REQUEST');
  const current = testServer();
  const ignored = await current.as(IAGO).patch('/realm', { mandatory_topics: true });
  t.same(ignored.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['mandatory_topics'] });
  t.equal(current.world.realm.topicsPolicy, 'allow_empty_topic');
});

t.test('the realm topics_policy decides for channels that inherit it (test_topics_policy_realm_setting)', async (t) => {
  const s = testServer();
  const send = () => s.as('hamlet@zulip.com').post('/messages', { type: 'stream', to: 'Verona', topic: '', content: 'general chat' });
  t.equal((await send()).status, 200, 'allowed by default');
  t.equal((await s.as(IAGO).patch('/realm', { topics_policy: 'disable_empty_topic' })).status, 200);
  const refused = await send();
  t.equal(refused.status, 400);
  t.match(refused.body.msg, /general chat/);
  t.same(errorOf(await s.as(IAGO).patch('/realm', { topics_policy: 'inherit' })), bad('Invalid topics_policy'), 'inherit is a channel value only');
});
