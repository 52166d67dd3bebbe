/** The shape of a realm fixture (fixtures/*.json); see fixtures/README.md for the fields. */
import { bool, type Infer, int, list, literal, mapOf, nullable, object, type ObjectOf, optional, required, str, union } from './schema.js';

const userFields = {
  id: required(int),
  email: required(str),
  fullName: required(str),
  role: required(literal(100, 200, 300, 400, 600)),
  timezone: optional(str),
  apiKey: required(str),
  password: optional(nullable(str)),
  dateJoined: optional(str),
  isActive: optional(bool),
};

export const fixtureSchema = object({
  realm: required(
    object({
      id: required(int),
      name: required(str),
      description: required(str),
      fakeEmailDomain: required(str),
      url: optional(nullable(str)),
      dateCreated: optional(str),
      newStreamAnnouncementsChannel: optional(nullable(str)),
      signupAnnouncementsChannel: optional(nullable(str)),
      zulipUpdateAnnouncementsChannel: optional(nullable(str)),
      moderationRequestChannel: optional(nullable(str)),
      enableSpectatorAccess: optional(bool),
      waitingPeriodThreshold: optional(int),
      canCreateUsers: optional(bool),
    }),
  ),
  userSettingsDefaults: optional(mapOf(union(bool, union(int, str)))),
  dateJoined: optional(str),
  systemGroupIds: required(mapOf(int)),
  /** User IDs up to this one are taken by accounts the fixture does not list (see the development realm). */
  reservedUserIdsThrough: optional(int),
  systemBots: optional(
    list(object({ id: required(int), email: required(str), fullName: required(str), apiKey: required(str), role: optional(literal('notification')) })),
  ),
  users: required(list(object(userFields))),
  bots: optional(
    list(
      object({
        id: required(int),
        email: required(str),
        fullName: required(str),
        botType: required(literal(1, 2, 3, 4)),
        owner: optional(nullable(str)),
        apiKey: required(str),
      }),
    ),
  ),
  groups: optional(list(object({ id: required(int), name: required(str), description: required(str), members: required(list(str)) }))),
  channels: required(
    list(
      object({
        id: required(int),
        name: required(str),
        description: required(str),
        inviteOnly: optional(bool),
        isWebPublic: optional(bool),
        historyPublicToSubscribers: optional(bool),
        creator: optional(nullable(str)),
        subscribers: required(list(str)),
        canSendMessageGroup: optional(str),
      }),
    ),
  ),
  defaultChannels: optional(list(str)),
  linkifiers: optional(list(object({ pattern: required(str), urlTemplate: required(str) }))),
  customProfileFields: optional(
    list(
      object({
        id: required(int),
        name: required(str),
        hint: required(str),
        type: required(int),
        fieldData: optional(str),
        displayInProfileSummary: optional(bool),
      }),
    ),
  ),
  profileData: optional(list(object({ user: required(str), values: required(mapOf(str)) }))),
  customEmoji: optional(list(object({ id: required(int), name: required(str), author: optional(nullable(str)) }))),
  drafts: optional(
    list(
      object({
        user: required(str),
        type: required(literal('', 'stream', 'private')),
        to: required(list(str)),
        topic: required(str),
        content: required(str),
      }),
    ),
  ),
  presence: optional(literal('allHumans', 'none')),
  messages: optional(
    list(
      object({
        sender: required(str),
        type: required(literal('stream', 'direct')),
        to: required(list(str)),
        topic: optional(str),
        content: required(str),
        sentAt: required(str),
        reactions: optional(list(object({ emoji: required(str), users: required(list(str)) }))),
        starredBy: optional(list(str)),
        unreadBy: optional(list(str)),
      }),
    ),
  ),
});

export type Fixture = Infer<typeof fixtureSchema>;
export type FixtureUser = ObjectOf<typeof userFields>;
