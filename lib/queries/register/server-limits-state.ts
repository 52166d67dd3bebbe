/**
 * The server-wide part of the `realm` register state: limits (`max_*`), timings (`server_*`),
 * and server configuration a stock development server reports. Values are the real server's
 * defaults (real-server notes on http-register-events 3.3; the real OpenAPI register-queue description).
 */
import { EMPTY_TOPIC_DISPLAY_NAME } from '../../input/topic-names.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import type { Fields, RegisterOptions } from './state-fields.js';

export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;
export const MAX_TOPIC_LENGTH = 60;
export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;
/** `MAX_REMINDER_NOTE_LENGTH`; the stock value is unconfirmed (real-server notes on messages-reports-reminders-misc 4.1). */
export const MAX_REMINDER_NOTE_LENGTH = 1000;
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;
export const SERVER_TYPING_STARTED_EXPIRY_PERIOD_MS = 45_000;
export const SERVER_TYPING_STOPPED_WAIT_PERIOD_MS = 12_000;
export const SERVER_TYPING_STARTED_WAIT_PERIOD_MS = 30_000;
export const SERVER_PRESENCE_PING_INTERVAL_SECS = 60;
export const SERVER_PRESENCE_OFFLINE_THRESHOLD_SECS = 200;

const JITSI_URL = 'https://meet.jit.si';
const MAX_AVATAR_FILE_SIZE_MIB = 5;

const THUMBNAIL_FORMATS = [
  { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
  { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
];

const GIPHY_RATING_OPTIONS = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
};

/** Limits and timings every client should read instead of hard-coding. */
export function addLimitFields(world: World, fields: Fields): void {
  fields
    .since(FEATURES.LIMITS_IN_REALM, 'max_stream_name_length', MAX_STREAM_NAME_LENGTH)
    .since(FEATURES.LIMITS_IN_REALM, 'max_stream_description_length', MAX_STREAM_DESCRIPTION_LENGTH)
    .since(FEATURES.CHANNEL_FOLDER_LIMITS, 'max_channel_folder_name_length', MAX_CHANNEL_FOLDER_NAME_LENGTH)
    .since(FEATURES.CHANNEL_FOLDER_LIMITS, 'max_channel_folder_description_length', MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH)
    .since(FEATURES.LIMITS_IN_REALM, 'max_topic_length', MAX_TOPIC_LENGTH)
    .since(FEATURES.LIMITS_IN_REALM, 'max_message_length', MAX_MESSAGE_LENGTH)
    .since(FEATURES.REMINDER_NOTE, 'max_reminder_note_length', MAX_REMINDER_NOTE_LENGTH)
    .since(FEATURES.REALM_DELETION_DAYS, 'server_min_deactivated_realm_deletion_days', 14)
    .since(FEATURES.REALM_DELETION_DAYS, 'server_max_deactivated_realm_deletion_days', null)
    .since(FEATURES.PRESENCE_TUNING_IN_REGISTER, 'server_presence_ping_interval_seconds', SERVER_PRESENCE_PING_INTERVAL_SECS)
    .since(FEATURES.PRESENCE_TUNING_IN_REGISTER, 'server_presence_offline_threshold_seconds', SERVER_PRESENCE_OFFLINE_THRESHOLD_SECS)
    .since(FEATURES.TYPING_PERIODS, 'server_typing_started_expiry_period_milliseconds', SERVER_TYPING_STARTED_EXPIRY_PERIOD_MS)
    .since(FEATURES.TYPING_PERIODS, 'server_typing_stopped_wait_period_milliseconds', SERVER_TYPING_STOPPED_WAIT_PERIOD_MS)
    .since(FEATURES.TYPING_PERIODS, 'server_typing_started_wait_period_milliseconds', SERVER_TYPING_STARTED_WAIT_PERIOD_MS)
    .since(FEATURES.NEW_SUBSCRIPTION_MESSAGES, 'max_bulk_new_subscription_messages', MAX_BULK_NEW_SUBSCRIPTION_MESSAGES);
}

/** Server configuration: uploads, passwords, previews, integrations, the event queue. */
export function addServerFields(world: World, fields: Fields, options: RegisterOptions): void {
  const { server, realmUrl } = options;
  fields
    .set('zulip_plan_is_not_limited', true)
    .set('upgrade_text_for_wide_organization_logo', '')
    .set('realm_default_external_accounts', {
      github: { name: 'GitHub', text: 'GitHub username', hint: 'Enter your GitHub username', url_pattern: 'https://github.com/%(username)s' },
      twitter: { name: 'Twitter', text: 'Twitter username', hint: 'Enter your Twitter username', url_pattern: 'https://twitter.com/%(username)s' },
    })
    .set('jitsi_server_url', JITSI_URL)
    .set('development_environment', server.devEndpoints)
    .set('server_generation', server.serverGeneration)
    .set('password_min_length', 6)
    .since(FEATURES.PASSWORD_MAX_LENGTH, 'password_max_length', 100)
    .set('password_min_guesses', 10_000)
    .set('giphy_rating_options', GIPHY_RATING_OPTIONS)
    .set('max_file_upload_size_mib', world.realm.maxFileUploadSizeMib)
    .set('max_avatar_file_size_mib', MAX_AVATAR_FILE_SIZE_MIB)
    .set('server_inline_image_preview', true)
    .set('server_inline_url_embed_preview', true)
    .since(FEATURES.THUMBNAIL_FORMATS, 'server_thumbnail_formats', THUMBNAIL_FORMATS)
    .set('server_avatar_changes_disabled', false)
    .set('server_name_changes_disabled', false)
    .since(FEATURES.LONGPOLL_TIMEOUT, 'server_needs_upgrade', false)
    .since(FEATURES.SERVER_WEB_PUBLIC, 'server_web_public_streams_enabled', true)
    .since(FEATURES.EMOJI_DATA_URL, 'server_emoji_data_url', `${realmUrl}/static/generated/emoji/emoji_api.json`)
    .since(FEATURES.REALM_JITSI, 'server_jitsi_server_url', JITSI_URL)
    .since(FEATURES.SUMMARIZE_TOPICS, 'server_can_summarize_topics', false)
    .since(FEATURES.LONGPOLL_TIMEOUT, 'event_queue_longpoll_timeout_seconds', server.longpollTimeoutSecs)
    .since(FEATURES.EMPTY_TOPIC, 'realm_empty_topic_display_name', EMPTY_TOPIC_DISPLAY_NAME);
}
