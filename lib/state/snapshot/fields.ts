/**
 * The schema of every World field a snapshot saves (lib/state/world-snapshot.ts): each entity's
 * fields with their types, and which IDs refer to which tables. `entity<T>` is typed by the
 * entity, so a field added to an entity without a line here does not compile; a World field
 * without an entry here is refused on load, which the snapshot round-trip test catches.
 */
import type { BotProfile, BotService } from '../../entities/bot.js';
import { SYSTEM_GROUP_NAMES } from '../../entities/group.js';
import type { EmailInvite, MultiuseInvite } from '../../entities/invite.js';
import type { Draft, LegacyPushToken, NavigationView, Presence, PushRegistration, SavedSnippet, UserStatus, UserTopic } from '../../entities/personal.js';
import type { RealmExport } from '../../entities/realm-export.js';
import type { DefaultStreamGroup } from '../../entities/stream.js';
import type { Attachment, CustomProfileField, Linkifier, RealmDomain, RealmEmoji, RealmPlayground, Reminder } from '../../entities/realm-records.js';
import type { ScheduledMessage } from '../../entities/scheduled-message.js';
import type { ChannelFolder } from '../../entities/stream.js';
import { ROLES } from '../../entities/user.js';
import { domainError } from '../../entities/domain-names.js';
import { group, groupRef, message, realm, recipient, stream, streamRef, subscription, time, user, userRef } from './entities.js';
import {
  array, boolean, bytes, complete, defines, entity, integer, literal, map, nullable, number, optional, pastRef, perUser, record, ref, scalar, type Schema, set, string, table,
} from './schema.js';
import type { OutgoingEmail } from '../world.js';

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

const channelFolder = entity<ChannelFolder>('channel folder', {
  id: integer,
  name: string,
  description: string,
  renderedDescription: string,
  creatorId: nullable(userRef),
  dateCreated: time,
  isArchived: boolean,
  order: integer,
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

const scheduledMessage = entity<ScheduledMessage>('scheduled message', {
  id: integer,
  senderId: userRef,
  recipient,
  content: string,
  renderedContent: string,
  scheduledDeliveryTimestamp: time,
  readBySender: boolean,
  client: string,
  delivered: boolean,
  failed: boolean,
  failureMessage: nullable(string),
  deliveredMessageId: nullable(pastRef('message')),
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

/** Keyed by its domain, which must be one `POST /realm/domains` could have stored. */
const realmDomain = entity<RealmDomain>('realm domain', { id: defines('realmDomain'), domain: string, allowSubdomains: boolean }, (value, context) => {
  const error = domainError(String(value.domain));
  if (error !== undefined) context.problem('domain', `is not a valid domain (${error})`);
});

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

const defaultStreamGroup = entity<DefaultStreamGroup>('default channel group', { id: integer, name: string, description: string, streamIds: set(streamRef) });

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
  ['defaultStreamGroups', table('defaultStreamGroup', defaultStreamGroup)],
  ['messages', table('message', message)],
  ['drafts', table('draft', draft)],
  ['userTopics', perUser(map(string, userTopic))],
  ['presence', perUser(presence, 'userId')],
  ['presenceSequence', integer],
  ['statuses', perUser(status)],
  ['navigationViews', perUser(array(navigationView))],
  ['pushRegistrations', array(pushRegistration)],
  ['linkifiers', table('linkifier', linkifier)],
  ['channelFolders', table('channelFolder', channelFolder)],
  ['reminders', table('reminder', reminder)],
  ['scheduledMessages', table('scheduledMessage', scheduledMessage)],
  ['attachments', table('attachment', attachment)],
  ['customProfileFields', array(profileField)],
  ['bots', perUser(botProfile)],
  ['alertWords', perUser(array(string))],
  ['mutedUsers', perUser(array(mutedUser))],
  ['onboardingSteps', perUser(array(string))],
  ['pointers', perUser(pastRef('message'))],
  ['tutorialStatus', perUser(literal('waiting', 'started', 'finished'))],
  ['savedSnippets', table('savedSnippet', savedSnippet)],
  ['legacyPushTokens', array(legacyPushToken)],
  ['realmEmoji', table('emoji', realmEmoji)],
  ['realmPlaygrounds', table('playground', playground)],
  ['realmDomains', { type: 'map', key: string, value: realmDomain, keyField: 'domain' }],
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
