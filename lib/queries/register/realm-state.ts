/**
 * The `realm` register state: the organization's settings (`realm_*`), its permission groups,
 * and the server's limits and configuration (server-limits-state.ts). Values come from
 * `world.realm` where the world models them, otherwise from a stock development realm.
 */
import { seconds } from '../../state/clock.js';
import type { User } from '../../entities/user.js';
import { type Feature, FEATURES } from '../../features/feature-levels.js';
import { realmProperty } from '../../settings/realm-properties.js';
import { communityTopicEditingLimit } from '../messages/message-permissions.js';
import type { World } from '../../state/world.js';
import { addRealmPermissionFields, supportedPermissionSettings } from './realm-permission-state.js';
import { addLegacyPolicyFields } from './legacy-policy-state.js';
import { addLimitFields, addServerFields } from './server-limits-state.js';
import { Fields, type RegisterOptions } from './state-fields.js';

const AUTH_BACKENDS = ['Google', 'Email', 'GitHub', 'LDAP', 'Dev', 'RemoteUser', 'AzureAD', 'SAML', 'GitLab', 'Apple', 'OpenID Connect'];
const REALM_ICON = 'https://secure.gravatar.com/avatar/62429d594b6ffc712f54aee976a18b44?d=identicon';
const DEFAULT_LOGO = '/static/images/logo/zulip-org-logo.svg?version=0';

/** -1 for "unset", as every `*_stream_id` / `*_channel_id` register field reports it. */
const idOrMinusOne = (id: number | null): number => id ?? -1;

function authenticationMethods(world: World, options: RegisterOptions): Record<string, unknown> {
  const enabled = (name: string): boolean =>
    (name === 'Email' && world.realm.emailAuthEnabled) || (name === 'Dev' && options.server.devEndpoints);
  // FL 241 turned the values from booleans into {enabled, available} objects.
  const value = (name: string): unknown => (world.has(FEATURES.ANNOUNCEMENT_RENAMES) ? { enabled: enabled(name), available: true } : enabled(name));
  return Object.fromEntries(AUTH_BACKENDS.map((name) => [name, value(name)]));
}

/** Settings of the organization itself. */
function addRealmSettingFields(world: World, fields: Fields, options: RegisterOptions): void {
  const realm = world.realm;
  const noLimit = (value: number | null, feature: Feature): number | null =>
    value === null && !world.has(feature) ? 0 : value;
  fields
    .since(FEATURES.REALM_DATE_CREATED, 'realm_date_created', seconds(realm.dateCreated))
    .since(FEATURES.EDIT_HISTORY_VISIBILITY_POLICY, 'realm_message_edit_history_visibility_policy', realm.editHistoryVisibilityPolicy)
    .set('realm_allow_edit_history', realm.editHistoryVisibilityPolicy !== 'none')
    .set('realm_default_language', realmProperty(world, 'default_language'))
    .set('realm_description', realm.description)
    .set('realm_digest_emails_enabled', realmProperty(world, 'digest_emails_enabled'))
    .set('realm_disallow_disposable_email_addresses', realmProperty(world, 'disallow_disposable_email_addresses'))
    .set('realm_email_changes_disabled', realmProperty(world, 'email_changes_disabled'))
    .set('realm_invite_required', realmProperty(world, 'invite_required'))
    .set('realm_inline_image_preview', realmProperty(world, 'inline_image_preview'))
    .set('realm_inline_url_embed_preview', realmProperty(world, 'inline_url_embed_preview'))
    .since(FEATURES.TOPICS_POLICY, 'realm_topics_policy', realm.topicsPolicy)
    .set('realm_mandatory_topics', realm.topicsPolicy === 'disable_empty_topic')
    .set('realm_message_retention_days', realm.messageRetentionDays === -1 && !world.has(FEATURES.RETENTION_MINUS_ONE) ? null : realm.messageRetentionDays)
    .set('realm_name', realm.name)
    .since(FEATURES.REQUIRE_E2EE_PUSH, 'realm_require_e2ee_push_notifications', realmProperty(world, 'require_e2ee_push_notifications'))
    .since(FEATURES.UNIQUE_NAMES, 'realm_require_unique_names', realmProperty(world, 'require_unique_names'))
    .set('realm_name_changes_disabled', realmProperty(world, 'name_changes_disabled'))
    .set('realm_avatar_changes_disabled', realmProperty(world, 'avatar_changes_disabled'))
    .set('realm_emails_restricted_to_domains', realmProperty(world, 'emails_restricted_to_domains'))
    .set('realm_send_welcome_emails', realmProperty(world, 'send_welcome_emails'))
    .set('realm_message_content_allowed_in_email_notifications', realmProperty(world, 'message_content_allowed_in_email_notifications'))
    .since(FEATURES.SPECTATOR_ACCESS, 'realm_enable_spectator_access', realm.enableSpectatorAccess)
    .since(FEATURES.COMMUNITIES_DIRECTORY, 'realm_want_advertise_in_communities_directory', realmProperty(world, 'want_advertise_in_communities_directory'))
    .set('realm_video_chat_provider', realmProperty(world, 'video_chat_provider'))
    .since(FEATURES.REALM_JITSI, 'realm_jitsi_server_url', null)
    .since(FEATURES.GIPHY_RATING, 'realm_giphy_rating', realmProperty(world, 'giphy_rating'))
    .set('realm_waiting_period_threshold', realm.waitingPeriodThreshold)
    .set('realm_digest_weekday', realmProperty(world, 'digest_weekday'))
    .set('realm_default_code_block_language', realmProperty(world, 'default_code_block_language'))
    .set('realm_message_content_delete_limit_seconds', noLimit(realmProperty(world, 'message_content_delete_limit_seconds') as number | null, FEATURES.DELETE_LIMIT_NULL))
    .set('realm_authentication_methods', authenticationMethods(world, options))
    .set('realm_allow_message_editing', realm.allowMessageEditing)
    .set('realm_message_content_edit_limit_seconds', noLimit(realm.messageContentEditLimitSeconds, FEATURES.EDIT_LIMIT_NULL))
    .between(FEATURES.COMMUNITY_TOPIC_EDIT_LIMIT, FEATURES.COMMUNITY_TOPIC_EDIT_LIMIT_REMOVED, 'realm_community_topic_editing_limit_seconds', communityTopicEditingLimit(world))
    .since(FEATURES.MOVE_LIMITS, 'realm_move_messages_within_stream_limit_seconds', realmProperty(world, 'move_messages_within_stream_limit_seconds'))
    .since(FEATURES.MOVE_LIMITS, 'realm_move_messages_between_streams_limit_seconds', realmProperty(world, 'move_messages_between_streams_limit_seconds'))
    .since(FEATURES.READ_RECEIPTS, 'realm_enable_read_receipts', realmProperty(world, 'enable_read_receipts'))
    .set('realm_icon_url', REALM_ICON)
    .set('realm_icon_source', 'G')
    .renamed(FEATURES.FILE_SIZE_MIB, 'max_icon_file_size', 'max_icon_file_size_mib', 5)
    .set('realm_logo_url', DEFAULT_LOGO)
    .set('realm_logo_source', 'D')
    .set('realm_night_logo_url', DEFAULT_LOGO)
    .set('realm_night_logo_source', 'D')
    .renamed(FEATURES.FILE_SIZE_MIB, 'max_logo_file_size', 'max_logo_file_size_mib', 5)
    .set('realm_bot_domain', realm.fakeEmailDomain)
    .set('realm_uri', options.realmUrl)
    .since(FEATURES.REALM_URL, 'realm_url', options.realmUrl)
    .set('realm_available_video_chat_providers', { disabled: { name: 'None', id: 0 }, jitsi_meet: { name: 'Jitsi Meet', id: 1 } })
    .set('realm_presence_disabled', realm.presenceDisabled)
    .set('settings_send_digest_emails', true)
    .set('realm_is_zephyr_mirror_realm', false)
    .set('realm_email_auth_enabled', realm.emailAuthEnabled)
    .set('realm_password_auth_enabled', realm.emailAuthEnabled)
    .set('realm_push_notifications_enabled', world.pushConfigured)
    .since(FEATURES.PUSH_END_TIMESTAMP, 'realm_push_notifications_enabled_end_timestamp', null)
    .renamed(FEATURES.FILE_SIZE_MIB, 'realm_upload_quota', 'realm_upload_quota_mib', null)
    .since(FEATURES.ORG_TYPE, 'realm_org_type', realmProperty(world, 'org_type'))
    .set('realm_plan_type', 1)
    .since(FEATURES.GUEST_DM_WARNING, 'realm_enable_guest_user_dm_warning', realmProperty(world, 'enable_guest_user_dm_warning'))
    .since(FEATURES.GUEST_INDICATOR, 'realm_enable_guest_user_indicator', realmProperty(world, 'enable_guest_user_indicator'));
}

/** Channels the realm designates; -1 when unset. Renamed at FL 241. */
function addChannelFields(world: World, fields: Fields): void {
  const realm = world.realm;
  fields
    .since(FEATURES.MODERATION_CHANNEL, 'realm_moderation_request_channel_id', idOrMinusOne(realm.moderationRequestChannelId))
    .renamed(FEATURES.ANNOUNCEMENT_RENAMES, 'realm_notifications_stream_id', 'realm_new_stream_announcements_stream_id', idOrMinusOne(realm.newStreamAnnouncementsStreamId))
    .renamed(FEATURES.ANNOUNCEMENT_RENAMES, 'realm_signup_notifications_stream_id', 'realm_signup_announcements_stream_id', idOrMinusOne(realm.signupAnnouncementsStreamId))
    .since(FEATURES.UPDATE_ANNOUNCEMENTS, 'realm_zulip_update_announcements_stream_id', idOrMinusOne(realm.zulipUpdateAnnouncementsStreamId));
}

/** The `realm` state function. */
export function realmState(world: World, _user: User, options: RegisterOptions): Record<string, unknown> {
  const fields = new Fields(world);
  addLimitFields(world, fields);
  addRealmSettingFields(world, fields, options);
  addRealmPermissionFields(world, fields);
  addLegacyPolicyFields(world, fields);
  addServerFields(world, fields, options);
  addChannelFields(world, fields);
  fields.since(FEATURES.PERMISSION_METADATA, 'server_supported_permission_settings', supportedPermissionSettings(world));
  return fields.build();
}
