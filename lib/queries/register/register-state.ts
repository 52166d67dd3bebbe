/**
 * The initial state `POST /register` returns, per event type (real-server notes on http-register-events 3.3).
 *
 * `STATE_FUNCTIONS` maps an event type to the function computing its fields; register calls
 * the ones the client wants (`fetch_event_types`, else `event_types`, else all), in this order.
 * A resource plugs in with one line: `['drafts', (world, user) => ({ drafts: draftsState(world, user) })]`.
 * Functions read the world and `RegisterOptions` (state-fields.ts) and return JSON-ready fields.
 */
import type { User } from '../../entities/user.js';
import { displayTopic } from '../../input/topic-names.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { realmBotsState } from '../users/bots.js';
import { draftsState } from '../personal/drafts.js';
import { linkifiersState, realmFiltersState } from '../realm/linkifiers.js';
import { messageState } from '../messages/message-state.js';
import { alertWordsOf, mutedUsersOf } from '../personal/muted-lists.js';
import { savedSnippetsOf } from '../personal/saved-snippets.js';
import { onboardingStepsState } from '../personal/onboarding-steps.js';
import { hotspotsState } from '../personal/hotspots.js';
import { navigationViewsState } from '../personal/navigation-views.js';
import { playgroundsState } from '../realm/playgrounds.js';
import { realmDomainsState } from '../realm/realm-domains.js';
import { presenceState } from '../users/presence.js';
import { pointerState } from '../users/pointer.js';
import { profileFieldsRegisterState } from '../realm/profile-fields.js';
import { pushDevicesState } from '../personal/push.js';
import { realmEmojiState } from '../realm/realm-emoji.js';
import { realmState } from './realm-state.js';
import { realmUserState } from './realm-user-state.js';
import { remindersState } from '../personal/reminders.js';
import { scheduledMessagesState } from '../messages/scheduled-messages.js';
import { legacyDisplaySettingsState, legacyNotificationSettingsState, realmUserSettingsDefaultsState, userSettingsState } from './settings-state.js';
import type { RegisterOptions, StateFunction } from './state-fields.js';
import { subscriptionsState } from '../channels/subscriptions.js';
import { listChannelFolders } from '../channels/channel-folders.js';
import { starredMessageIds, unreadMessagesState } from '../messages/unread.js';
import { userGroupsState } from '../groups/user-groups.js';
import { userStatusState } from '../users/user-status.js';
import { mutedTopicsState, userTopicsState } from '../personal/user-topics.js';
import { defaultStreamGroupsState, defaultStreamsState, streamsState } from './channel-state.js';
import { EMPTY_STATE_FUNCTIONS } from './empty-state.js';
import { STATIC_STATE_FUNCTIONS } from './static-state.js';
import { recentPrivateConversations } from '../messages/recent-conversations.js';

export type { RegisterOptions, ServerInfo, StateFunction } from './state-fields.js';

/** Channel notification settings a client without `notification_settings_null` gets as booleans. */
const NOTIFICATION_FALLBACKS: ReadonlyArray<readonly [string, string]> = [
  ['desktop_notifications', 'enable_stream_desktop_notifications'],
  ['email_notifications', 'enable_stream_email_notifications'],
  ['push_notifications', 'enable_stream_push_notifications'],
  ['audible_notifications', 'enable_stream_audible_notifications'],
  ['wildcard_mentions_notify', 'wildcard_mentions_notify'],
];

/** The real server's `post_process_state`: null (inherit) becomes the user's global setting. */
function fillNotificationSettings(user: User, subs: Record<string, unknown>[]): Record<string, unknown>[] {
  return subs.map((sub) => {
    const out = { ...sub };
    for (const [key, setting] of NOTIFICATION_FALLBACKS) if (out[key] === null) out[key] = user.settings.get(setting) === true;
    return out;
  });
}

function subscriptionFields(world: World, user: User, options: RegisterOptions): Record<string, unknown> {
  const include = options.includeSubscribers === 'partial' ? 'partial' : options.includeSubscribers === 'true';
  const state = subscriptionsState(world, user, { includeSubscribers: include, includeArchived: options.capabilities.archivedChannels });
  if (options.capabilities.notificationSettingsNull) return { ...state };
  return { ...state, subscriptions: fillNotificationSettings(user, state.subscriptions), unsubscribed: fillNotificationSettings(user, state.unsubscribed) };
}

function presenceFields(world: World, user: User, options: RegisterOptions): Record<string, unknown> {
  const slim = options.slimPresence || options.capabilities.simplifiedPresenceEvents;
  const state = presenceState(world, user, {
    slim,
    ...(options.presenceHistoryLimitDays === null ? {} : { historyLimitDays: options.presenceHistoryLimitDays }),
  });
  const out: Record<string, unknown> = { presences: state.presences };
  if (world.has(FEATURES.PRESENCE_LAST_UPDATE_ID)) out.presence_last_update_id = state.presence_last_update_id;
  out.server_timestamp = state.server_timestamp;
  return out;
}

/** From FL 176 only clients declaring `linkifier_url_template` get the list; others get `[]`. */
function linkifierFields(world: World, _user: User, options: RegisterOptions): Record<string, unknown> {
  if (!world.has(FEATURES.LINKIFIERS_ENDPOINT)) return {};
  const withheld = world.has(FEATURES.LINKIFIER_URL_TEMPLATE) && !options.capabilities.linkifierUrlTemplate;
  return { realm_linkifiers: withheld ? [] : linkifiersState(world) };
}

const topicShown = (topic: string, options: RegisterOptions): string => displayTopic(topic, options.capabilities.emptyTopicName);

export const STATE_FUNCTIONS: ReadonlyMap<string, StateFunction> = new Map<string, StateFunction>([
  ['realm', realmState],
  ['realm_user', realmUserState],
  ['realm_user_settings_defaults', realmUserSettingsDefaultsState],
  ['realm_bot', (world, user) => ({ realm_bots: realmBotsState(world, user) })],
  ['alert_words', (world, user) => ({ alert_words: alertWordsOf(world, user) })],
  ['muted_users', (world, user) => (world.has(FEATURES.MUTED_USERS) ? { muted_users: mutedUsersOf(world, user) } : {})],
  ['onboarding_steps', onboardingStepsState],
  ['hotspots', hotspotsState],
  ['saved_snippets', (world, user) => (world.has(FEATURES.SAVED_SNIPPETS) ? { saved_snippets: savedSnippetsOf(world, user) } : {})],
  ['user_settings', userSettingsState],
  ['update_display_settings', legacyDisplaySettingsState],
  ['update_global_notifications', legacyNotificationSettingsState],
  ['message', messageState],
  ['pointer', pointerState],
  // Only with `message` too: new messages carry their flags in message events, not flag events.
  [
    'update_message_flags',
    (world, user, o) => (wantsState(o.fetchEventTypes, 'message') ? { unread_msgs: unreadMessagesState(world, user, o.capabilities.emptyTopicName) } : {}),
  ],
  ['starred_messages', (world, user) => ({ starred_messages: starredMessageIds(world, user) })],
  ['drafts', (world, user) => ({ drafts: draftsState(world, user) })],
  ['subscription', subscriptionFields],
  ['stream', streamsState],
  ['default_streams', defaultStreamsState],
  ['default_stream_groups', defaultStreamGroupsState],
  ['recent_private_conversations', (world, user) => ({ recent_private_conversations: recentPrivateConversations(world, user) })],
  ['presence', presenceFields],
  ['realm_user_groups', (world, user, o) => ({ realm_user_groups: userGroupsState(world, user, { includeDeactivated: o.capabilities.includeDeactivatedGroups }) })],
  // `muted_topics` only when the client did not explicitly ask for its replacement, `user_topic`.
  // Its topics stay raw (`""` too): the real server's `post_process_state` renames the empty
  // topic in `user_topics` only, and the `muted_topics` event carries raw names as well.
  ['muted_topics', (world, user, o) => (o.fetchEventTypes?.includes('user_topic') ? {} : { muted_topics: mutedTopicsState(world, user) })],
  [
    'user_topic',
    (world, user, o) =>
      world.has(FEATURES.USER_TOPICS_STATE) ? { user_topics: userTopicsState(world, user).map((t) => ({ ...t, topic_name: topicShown(t.topic_name, o) })) } : {},
  ],
  ['user_status', (world, user) => ({ user_status: userStatusState(world, user) })],
  ['channel_folders', (world) => (world.has(FEATURES.CHANNEL_FOLDERS) ? { channel_folders: listChannelFolders(world, true) } : {})],
  ['navigation_views', (world, user) => (world.has(FEATURES.NAVIGATION_VIEWS) ? { navigation_views: navigationViewsState(world, user) } : {})],
  ['scheduled_messages', (world, user) => (world.has(FEATURES.SCHEDULED_MESSAGES_STATE) ? { scheduled_messages: scheduledMessagesState(world, user) } : {})],
  ['reminders', (world, user) => (world.has(FEATURES.LIST_DELETE_REMINDERS) ? { reminders: remindersState(world, user) } : {})],
  ['push_device', (world, user) => (world.has(FEATURES.PUSH_REGISTER) ? { push_devices: pushDevicesState(world, user) } : {})],
  // The same object as `GET /realm/emoji`: every custom emoji by ID, deactivated ones marked so.
  ['realm_emoji', (world) => ({ realm_emoji: realmEmojiState(world) })],
  ['realm_linkifiers', linkifierFields],
  ['realm_domains', (world) => ({ realm_domains: realmDomainsState(world) })],
  ['realm_playgrounds', (world) => (world.has(FEATURES.PLAYGROUNDS) ? { realm_playgrounds: playgroundsState(world) } : {})],
  ['custom_profile_fields', (world, _user, o) => profileFieldsRegisterState(world, o.capabilities.pronounsFieldTypeSupported)],
  // The legacy tuple list; always empty since FL 176.
  ['realm_filters', (world) => ({ realm_filters: realmFiltersState(world) })],
  ...EMPTY_STATE_FUNCTIONS,
  ...STATIC_STATE_FUNCTIONS,
]);

/** Whether the client wants the state of `type`. */
export function wantsState(fetchEventTypes: readonly string[] | null, type: string): boolean {
  return fetchEventTypes === null || fetchEventTypes.includes(type);
}

/** The state fields for every wanted type, in registry order; unknown type names are ignored. */
export function initialState(world: World, user: User, options: RegisterOptions): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const [type, compute] of STATE_FUNCTIONS) {
    if (wantsState(options.fetchEventTypes, type)) Object.assign(state, compute(world, user, options));
  }
  return state;
}
