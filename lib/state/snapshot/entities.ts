/**
 * Schemas of the people and conversations of a saved world (lib/state/snapshot/fields.ts has the
 * rest and the table of World fields): the realm, users, groups, channels, subscriptions and
 * messages. Typed by their entities, so an entity field without a schema does not compile.
 */
import { GROUP_PERMISSION_SETTINGS, type UserGroup } from '../../entities/group.js';
import type { EditEvent, Message, Reaction } from '../../entities/message.js';
import { REALM_PERMISSION_SETTINGS, type Realm } from '../../entities/realm.js';
import { CHANNEL_PERMISSION_SETTINGS, type Subscription, TOPICS_POLICIES, type Stream } from '../../entities/stream.js';
import { ROLES, type User } from '../../entities/user.js';
import { array, boolean, complete, entity, integer, literal, map, nullable, number, optional, pastRef, ref, scalar, set, string, variant } from './schema.js';

export const time = number;
export const userRef = ref('user');
export const streamRef = ref('stream');
export const groupRef = ref('group');

export const groupSetting = variant('group setting', 'kind', {
  group: entity<{ kind: string; groupId: number }>('named group setting', { kind: literal('group'), groupId: groupRef }),
  anonymous: entity<{ kind: string; members: unknown; subgroups: unknown }>('anonymous group setting', { kind: literal('anonymous'), members: set(userRef), subgroups: set(groupRef) }),
});

export const realm = entity<Realm>('realm', {
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
  // Absent from files saved before the option existed: read as off.
  canChangeUserEmails: optional(boolean),
  settings: complete(REALM_PERMISSION_SETTINGS, groupSetting),
  deactivated: optional(boolean),
});

export const user = entity<User>('user', {
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

export const group = entity<UserGroup>('user group', {
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

export const stream = entity<Stream>('channel', {
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
  folderId: nullable(ref('channelFolder')),
  // Kept true by deletions, but a moved first message leaves it naming a message elsewhere.
  firstMessageId: nullable(pastRef('message')),
  settings: map(literal(...CHANNEL_PERMISSION_SETTINGS), groupSetting),
});

const notification = nullable(boolean);
export const subscription = entity<Subscription>('subscription', {
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

export const recipient = variant('recipient', 'kind', {
  stream: entity<{ kind: string; streamId: number; topic: string }>('channel recipient', { kind: literal('stream'), streamId: streamRef, topic: string }),
  direct: entity<{ kind: string; userIds: unknown }>('direct recipient', { kind: literal('direct'), userIds: array(userRef) }),
});

export const editEvent = entity<EditEvent>('edit', {
  userId: nullable(userRef),
  timestamp: time,
  prevContent: optional(string),
  prevRenderedContent: optional(string),
  prevTopic: optional(string),
  topic: optional(string),
  prevStream: optional(streamRef),
  stream: optional(streamRef),
});

export const reaction = entity<Reaction>('reaction', { userId: userRef, emojiName: string, emojiCode: string, reactionType: literal('unicode_emoji', 'realm_emoji', 'zulip_extra_emoji') });

export const message = entity<Message>('message', {
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

