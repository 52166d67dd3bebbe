/**
 * The schema of every World field a snapshot saves (lib/state/world-snapshot.ts): each entity's
 * fields with their types, and which IDs refer to which tables. `entity<T>` is typed by the
 * entity, so a field added to an entity without a line here does not compile; a World field
 * without an entry here is refused on load, which the snapshot round-trip test catches.
 */
import type { BotProfile, BotService } from '../entities/bot.js';
import { GROUP_PERMISSION_SETTINGS, SYSTEM_GROUP_NAMES, type UserGroup } from '../entities/group.js';
import type { EmailInvite, MultiuseInvite } from '../entities/invite.js';
import type { EditEvent, Message, Reaction } from '../entities/message.js';
import type { Draft, LegacyPushToken, NavigationView, Presence, PushRegistration, SavedSnippet, UserStatus, UserTopic } from '../entities/personal.js';
import { REALM_PERMISSION_SETTINGS, type Realm } from '../entities/realm.js';
import type { RealmExport } from '../entities/realm-export.js';
import type { Attachment, CustomProfileField, Linkifier, RealmEmoji, RealmPlayground, Reminder } from '../entities/realm-records.js';
import { CHANNEL_PERMISSION_SETTINGS, type Subscription, TOPICS_POLICIES, type Stream } from '../entities/stream.js';
import { ROLES, type User } from '../entities/user.js';
import {
  array, boolean, bytes, complete, defines, entity, integer, literal, map, nullable, number, optional, pastRef, perUser, record, ref, scalar, type Schema, set, string, table, variant,
} from './snapshot-schema.js';
import type { OutgoingEmail } from './world.js';

const time = number;
const userRef = ref('user');
const streamRef = ref('stream');
const groupRef = ref('group');

const groupSetting = variant('group setting', 'kind', {
  group: entity<{ kind: string; groupId: number }>('named group setting', { kind: literal('group'), groupId: groupRef }),
  anonymous: entity<{ kind: string; members: unknown; subgroups: unknown }>('anonymous group setting', { kind: literal('anonymous'), members: set(userRef), subgroups: set(groupRef) }),
});

const realm = entity<Realm>('realm', {
  id: integer,
  name: string,
  description: string,
  fakeEmailDomain: string,
  url: nullable(string),
  dateCreated: time,
  moderationRequestChannelId: nullable(streamRef),
  newStreamAnnouncementsStreamId: nullable(streamRef),
  signupAnnouncementsStreamId: nullable(streamRef),
  zulipUpdateAnnouncementsStreamId: nullable(streamRef),
  editHistoryVisibilityPolicy: literal('all', 'moves', 'none'),
  allowMessageEditing: boolean,
  messageContentEditLimitSeconds: nullable(number),
  moveMessagesWithinStreamLimitSeconds: optional(nullable(number)),
  moveMessagesBetweenStreamsLimitSeconds: optional(nullable(number)),
  presenceDisabled: boolean,
  enableSpectatorAccess: boolean,
  waitingPeriodThreshold: number,
  topicsPolicy: literal('allow_empty_topic', 'disable_empty_topic'),
  messageRetentionDays: number,
  maxFileUploadSizeMib: number,
  emailAuthEnabled: boolean,
  canCreateUsers: boolean,
  settings: complete(REALM_PERMISSION_SETTINGS, groupSetting),
  deactivated: optional(boolean),
});

const user = entity<User>('user', {
  id: integer,
  deliveryEmail: string,
  fullName: string,
  role: literal(...ROLES),
  isActive: boolean,
  isBot: boolean,
  botType: nullable(literal(1, 2, 3, 4)),
  botOwnerId: nullable(userRef),
  apiKey: string,
  password: nullable(string),
  timezone: string,
  dateJoined: time,
  avatarSource: literal('G', 'U'),
  avatarVersion: integer,
  settings: map(string, scalar),
  profileData: map(ref('profileField'), string),
  isSystemBot: boolean,
});

const group = entity<UserGroup>('user group', {
  id: integer,
  name: string,
  description: string,
  members: set(userRef),
  subgroups: set(groupRef),
  isSystemGroup: boolean,
  creatorId: nullable(userRef),
  dateCreated: nullable(time),
  deactivated: boolean,
  settings: map(literal(...GROUP_PERMISSION_SETTINGS), groupSetting),
});

const stream = entity<Stream>('channel', {
  id: integer,
  name: string,
  description: string,
  renderedDescription: nullable(string),
  inviteOnly: boolean,
  isWebPublic: boolean,
  historyPublicToSubscribers: boolean,
  messageRetentionDays: nullable(integer),
  creatorId: nullable(userRef),
  dateCreated: time,
  isArchived: boolean,
  topicsPolicy: literal(...TOPICS_POLICIES),
  folderId: nullable(integer),
  // Kept true by deletions, but a moved first message leaves it naming a message elsewhere.
  firstMessageId: nullable(pastRef('message')),
  settings: map(literal(...CHANNEL_PERMISSION_SETTINGS), groupSetting),
});

const notification = nullable(boolean);
const subscription = entity<Subscription>('subscription', {
  userId: integer,
  streamId: streamRef,
  active: boolean,
  color: string,
  pinToTop: boolean,
  isMuted: boolean,
  desktopNotifications: notification,
  emailNotifications: notification,
  pushNotifications: notification,
  audibleNotifications: notification,
  wildcardMentionsNotify: notification,
});

const recipient = variant('recipient', 'kind', {
  stream: entity<{ kind: string; streamId: number; topic: string }>('channel recipient', { kind: literal('stream'), streamId: streamRef, topic: string }),
  direct: entity<{ kind: string; userIds: unknown }>('direct recipient', { kind: literal('direct'), userIds: array(userRef) }),
});

const editEvent = entity<EditEvent>('edit', {
  userId: nullable(userRef),
  timestamp: time,
  prevContent: optional(string),
  prevRenderedContent: optional(string),
  prevTopic: optional(string),
  topic: optional(string),
  prevStream: optional(streamRef),
  stream: optional(streamRef),
});

const reaction = entity<Reaction>('reaction', { userId: userRef, emojiName: string, emojiCode: string, reactionType: literal('unicode_emoji', 'realm_emoji', 'zulip_extra_emoji') });

const message = entity<Message>('message', {
  id: integer,
  senderId: userRef,
  recipient,
  content: string,
  renderedContent: string,
  sentAt: time,
  editHistory: array(editEvent),
  lastEditAt: nullable(time),
  lastMovedAt: nullable(time),
  flags: map(userRef, set(string)),
  client: string,
  reactions: array(reaction),
});

const draft = entity<Draft>(
  'draft',
  { id: integer, userId: userRef, type: literal('', 'stream', 'private'), to: array(integer), topic: string, content: string, lastEditTime: time },
  (value, context) => {
    const kind = value.type === 'stream' ? 'stream' : 'user';
    for (const id of value.to as number[]) context.refer('to', kind, id);
  },
);

const userTopic = entity<UserTopic>('topic preference', { userId: userRef, streamId: streamRef, topicName: string, visibilityPolicy: literal(0, 1, 2, 3), lastUpdated: time });
const presence = entity<Presence>('presence', { userId: integer, lastActiveTime: nullable(time), lastConnectedTime: nullable(time), lastUpdateId: integer });
const status = entity<UserStatus>('status', { statusText: string, emojiName: string, emojiCode: string, reactionType: string, timestamp: time, away: optional(boolean) });
const navigationView = entity<NavigationView>('navigation view', { fragment: string, isPinned: boolean, name: nullable(string) });

const pushRegistration = entity<PushRegistration>('push registration', {
  userId: userRef,
  pushAccountId: integer,
  tokenKind: literal('fcm', 'apns'),
  pushPublicKey: string,
  bouncerPublicKey: string,
  encryptedPushRegistration: string,
  status: literal('pending', 'active', 'failed'),
  errorCode: optional(nullable(string)),
});

const linkifier = entity<Linkifier>('linkifier', { id: integer, pattern: string, urlTemplate: string, order: integer });

const reminder = entity<Reminder>('reminder', {
  id: integer,
  userId: userRef,
  // A reminder outlives its message (delivery then fails), so these may name deleted messages.
  targetMessageId: pastRef('message'),
  scheduledDeliveryTimestamp: time,
  note: string,
  content: string,
  renderedContent: string,
  delivered: boolean,
  failed: boolean,
  deliveredMessageId: nullable(pastRef('message')),
  realmUrl: optional(string),
});

const attachment = entity<Attachment>('attachment', {
  id: integer,
  ownerId: userRef,
  name: string,
  pathId: string,
  size: integer,
  createTime: time,
  contentType: string,
  bytes,
  messageIds: set(ref('message')),
});

const profileField = entity<CustomProfileField>('custom profile field', {
  id: defines('profileField'),
  name: string,
  hint: string,
  type: literal(1, 2, 3, 4, 5, 6, 7, 8),
  order: integer,
  fieldData: optional(string),
  displayInProfileSummary: optional(boolean),
  required: optional(boolean),
  editableByUser: optional(boolean),
});

const botService = entity<BotService>('bot service', { name: string, baseUrl: string, interface: integer, token: string });
const botProfile = entity<BotProfile>('bot profile', {
  defaultSendingStreamId: nullable(streamRef),
  defaultEventsRegisterStreamId: nullable(streamRef),
  defaultAllPublicStreams: boolean,
  services: array(botService),
  config: map(string, string),
});

const mutedUser = entity<{ id: number; timestamp: number }>('muted user', { id: userRef, timestamp: time });
const savedSnippet = entity<SavedSnippet>('saved snippet', { id: integer, userId: userRef, title: string, content: string, dateCreated: time });
const legacyPushToken = entity<LegacyPushToken>('push token', { userId: userRef, kind: literal('apns', 'fcm'), token: string, appId: nullable(string) });

const realmEmoji = entity<RealmEmoji>('custom emoji', {
  id: integer,
  name: string,
  authorId: nullable(userRef),
  deactivated: boolean,
  fileName: optional(string),
  contentType: optional(string),
  bytes: optional(bytes),
});

const playground = entity<RealmPlayground>('code playground', { id: integer, name: string, pygmentsLanguage: string, urlTemplate: string });

const inviteTerms = {
  referrerId: userRef,
  invitedAs: literal(...ROLES),
  streamIds: array(streamRef),
  groupIds: array(groupRef),
  includeRealmDefaultSubscriptions: boolean,
  createdAt: time,
  expiresAt: nullable(time),
} as const;
const invite = entity<EmailInvite>('invitation', { ...inviteTerms, id: integer, email: string, notifyReferrerOnJoin: boolean, revoked: boolean });
const multiuseInvite = entity<MultiuseInvite>('invitation link', { ...inviteTerms, id: integer, linkUrl: string, revoked: boolean });

const realmExport = entity<RealmExport>('export', {
  id: integer,
  actingUserId: userRef,
  exportType: integer,
  requestedAt: time,
  status: literal('requested', 'succeeded', 'deleted'),
  exportPath: nullable(string),
  deletedAt: nullable(time),
});

const email = entity<OutgoingEmail>('email', { template: string, toUserIds: array(userRef), to: array(string), subject: string, context: record(string), sentAt: time });

/** Every World field a snapshot holds, by name. `realm` is required; a missing other field is empty. */
export const WORLD_FIELDS: ReadonlyMap<string, Schema> = new Map<string, Schema>([
  ['realm', realm],
  ['userSettingsDefaults', map(string, scalar)],
  ['users', table('user', user)],
  ['groups', table('group', group)],
  ['systemGroups', complete(SYSTEM_GROUP_NAMES, groupRef)],
  ['streams', table('stream', stream)],
  ['subscriptionsByStream', map(streamRef, perUser(subscription, 'userId'))],
  ['defaultStreamIds', set(streamRef)],
  ['messages', table('message', message)],
  ['drafts', table('draft', draft)],
  ['userTopics', perUser(map(string, userTopic))],
  ['presence', perUser(presence, 'userId')],
  ['presenceSequence', integer],
  ['statuses', perUser(status)],
  ['navigationViews', perUser(array(navigationView))],
  ['pushRegistrations', array(pushRegistration)],
  ['linkifiers', table('linkifier', linkifier)],
  ['reminders', table('reminder', reminder)],
  ['attachments', table('attachment', attachment)],
  ['customProfileFields', array(profileField)],
  ['bots', perUser(botProfile)],
  ['alertWords', perUser(array(string))],
  ['mutedUsers', perUser(array(mutedUser))],
  ['savedSnippets', table('savedSnippet', savedSnippet)],
  ['legacyPushTokens', array(legacyPushToken)],
  ['realmEmoji', table('emoji', realmEmoji)],
  ['realmPlaygrounds', table('playground', playground)],
  ['realmProperties', map(string, nullable(scalar))],
  ['invites', table('invite', invite)],
  ['multiuseInvites', table('multiuseInvite', multiuseInvite)],
  ['realmExports', table('realmExport', realmExport)],
  ['outbox', array(email)],
]);

export const REQUIRED_FIELDS: ReadonlySet<string> = new Set(['realm']);

/**
 * Fields that files of version 1 hold and loading skips: indexes rebuilt from other fields, and
 * the delivery pipeline (never state).
 */
export const SKIPPED_FIELDS: ReadonlySet<string> = new Set(['usersByEmail', 'subscriptionsByUser', 'subscriptions', 'delayed']);
