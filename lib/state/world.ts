/**
 * The one in-memory state container. Everything the server knows lives here; actions
 * (lib/actions) are the only code that writes to it, queries (lib/queries) only read.
 */
import type { Clock } from './clock.js';
import type { BotProfile } from '../entities/bot.js';
import type { SystemGroupName, UserGroup } from '../entities/group.js';
import type { EmailInvite, MultiuseInvite } from '../entities/invite.js';
import type { Message } from '../entities/message.js';
import type {
  Draft,
  LegacyPushToken,
  NavigationView,
  Presence,
  PushRegistration,
  SavedSnippet,
  UserStatus,
  UserTopic,
} from '../entities/personal.js';
import type { Realm } from '../entities/realm.js';
import type { RealmExport } from '../entities/realm-export.js';
import type { Attachment, CustomProfileField, Linkifier, RealmDomain, RealmEmoji, RealmPlayground, Reminder } from '../entities/realm-records.js';
import type { ScheduledMessage } from '../entities/scheduled-message.js';
import type { ChannelFolder, DefaultStreamGroup, Stream, Subscription } from '../entities/stream.js';
import type { SettingValue, User } from '../entities/user.js';
import { DeliveryPipeline } from './delivery-delay.js';
import { EventHub } from './event-hub.js';
import { MessageMap } from './message-map.js';
import { type Feature, MAX_FEATURE_LEVEL } from '../features/feature-levels.js';
import { SubscriberMap, type SubscriptionsByUser, subscriptionsIn } from './subscriber-map.js';

export { SubscriberMap } from './subscriber-map.js';

export type IdKind =
  | 'user'
  | 'group'
  | 'stream'
  | 'message'
  | 'draft'
  | 'linkifier'
  | 'reminder'
  | 'attachment'
  | 'profileField'
  | 'emoji'
  | 'playground'
  | 'invite'
  | 'multiuseInvite'
  | 'realmExport'
  | 'savedSnippet'
  | 'defaultStreamGroup'
  | 'channelFolder'
  | 'scheduledMessage'
  | 'realmDomain';

/**
 * Kinds the real server keeps in one table, so they draw from one ID sequence: a reminder is a
 * `ScheduledMessage` row there (`delivery_type` REMIND), and a client may see both kinds of ID.
 */
const SHARED_SEQUENCES: ReadonlyMap<IdKind, readonly IdKind[]> = new Map(
  [['reminder', 'scheduledMessage'] as const].flatMap((kinds) => kinds.map((kind) => [kind, kinds] as const)),
);

/** Hands out increasing IDs per kind, starting above whatever the fixture used. */
export class IdAllocator {
  private readonly last = new Map<IdKind, number>();

  next(kind: IdKind): number {
    const sequence = SHARED_SEQUENCES.get(kind) ?? [kind];
    const id = Math.max(...sequence.map((k) => this.last.get(k) ?? 0)) + 1;
    for (const k of sequence) this.last.set(k, id);
    return id;
  }

  /** Records an ID taken by the fixture so later ones come after it. */
  reserve(kind: IdKind, id: number): void {
    if (id > (this.last.get(kind) ?? 0)) this.last.set(kind, id);
  }
}

/**
 * An email the server would have sent (deactivation notices, ...). Sending mail is out of scope,
 * so messages are recorded in `World.outbox` where tests and operators can read them.
 */
export interface OutgoingEmail {
  /** Which message: `deactivate` for the account-deactivation notice. */
  readonly template: string;
  readonly toUserIds: readonly number[];
  readonly to: readonly string[];
  readonly subject: string;
  readonly context: Readonly<Record<string, string>>;
  /** Milliseconds since the epoch. */
  readonly sentAt: number;
}

/** Channels by ID, indexed by lower-cased name as they are added, removed and renamed. */
export class StreamMap extends Map<number, Stream> {
  private byName: Map<string, Stream> | undefined = new Map();

  override set(id: number, stream: Stream): this {
    const previous = this.get(id);
    if (previous) this.byName?.delete(previous.name.toLowerCase());
    super.set(id, stream);
    this.byName?.set(stream.name.toLowerCase(), stream);
    return this;
  }

  override delete(id: number): boolean {
    const previous = this.get(id);
    if (previous) this.byName?.delete(previous.name.toLowerCase());
    return super.delete(id);
  }

  override clear(): void {
    for (const id of [...this.keys()]) this.delete(id);
  }

  /** Case-insensitive lookup, archived channels included. */
  named(name: string): Stream | undefined {
    return this.byName?.get(name.toLowerCase());
  }

  /** The only way to change a channel's name, so the name index stays true. */
  rename(stream: Stream, name: string): void {
    if (this.byName?.get(stream.name.toLowerCase()) === stream) this.byName.delete(stream.name.toLowerCase());
    (stream as { name: string }).name = name;
    if (this.get(stream.id) === stream) this.byName?.set(name.toLowerCase(), stream);
  }
}

/** The old web tutorial's progress (`UserProfile.tutorial_status`: waiting, started, finished). */
export type TutorialStatus = 'waiting' | 'started' | 'finished';

export interface WorldOptions {
  readonly clock: Clock;
  readonly featureLevel?: number;
  /** Whether a push notification service is configured (section 4.12). */
  readonly pushConfigured?: boolean;
  /** Presence writes and event delivery happen a random 0..N ms after the answer (lib/state/delivery-delay.ts). */
  readonly deliveryDelayMs?: number;
  /** The server's navigation tour video (`NAVIGATION_TOUR_VIDEO_URL`); none by default, which hides that onboarding step. */
  readonly navigationTourVideoUrl?: string | null;
}

export class World {
  readonly clock: Clock;
  readonly featureLevel: number;
  readonly pushConfigured: boolean;
  readonly navigationTourVideoUrl: string | null;
  readonly ids = new IdAllocator();
  readonly events = new EventHub();
  /** The delivery delay's pipeline, when the world has one. */
  readonly delayed: DeliveryPipeline | undefined;

  realm!: Realm;
  readonly userSettingsDefaults = new Map<string, SettingValue>();
  readonly users = new Map<number, User>();
  /** Lower-cased delivery email to user, for authentication and lookups. */
  readonly usersByEmail = new Map<string, User>();
  readonly groups = new Map<number, UserGroup>();
  readonly systemGroups = new Map<SystemGroupName, number>();
  readonly streams = new StreamMap();
  /** The per-user view of `subscriptions`, kept by SubscriberMap (read with `subscriptionsOf`). */
  private readonly subscriptionsByUser: SubscriptionsByUser = new Map();
  private readonly subscriptionsByStream = new Map<number, SubscriberMap>();
  /** Stream ID to (user ID to subscription); inactive subscriptions are kept with `active: false`. */
  readonly subscriptions: ReadonlyMap<number, SubscriberMap> = this.subscriptionsByStream;
  readonly defaultStreamIds = new Set<number>();
  readonly defaultStreamGroups = new Map<number, DefaultStreamGroup>();
  readonly messages = new MessageMap();
  readonly drafts = new Map<number, Draft>();
  /** User ID to (stream ID and lower-cased topic) to preference. */
  readonly userTopics = new Map<number, Map<string, UserTopic>>();
  readonly presence = new Map<number, Presence>();
  /** Realm-wide counter stamped on every presence write (`presence_last_update_id`). */
  presenceSequence = 0;
  readonly statuses = new Map<number, UserStatus>();
  /** User ID to that user's views, in creation order. */
  readonly navigationViews = new Map<number, NavigationView[]>();
  readonly pushRegistrations: PushRegistration[] = [];
  readonly linkifiers = new Map<number, Linkifier>();
  readonly channelFolders = new Map<number, ChannelFolder>();
  readonly reminders = new Map<number, Reminder>();
  /** Messages to send later (`POST /scheduled_messages`), delivered ones kept as the real server keeps them. */
  readonly scheduledMessages = new Map<number, ScheduledMessage>();
  readonly attachments = new Map<number, Attachment>();
  readonly customProfileFields: CustomProfileField[] = [];
  /** Bot user ID to its default channels and services (bots without an entry have none). */
  readonly bots = new Map<number, BotProfile>();
  /** User ID to that user's alert words, in the order they were added. */
  readonly alertWords = new Map<number, string[]>();
  /** User ID to the users it muted, in muting order, with the time (seconds since the epoch). */
  readonly mutedUsers = new Map<number, Array<{ readonly id: number; readonly timestamp: number }>>();
  /** User ID to the onboarding steps that user has seen, in marking order. */
  readonly onboardingSteps = new Map<number, string[]>();
  /** User ID to that user's pointer (levels below 23); a user without an entry has the initial -1. */
  readonly pointers = new Map<number, number>();
  /** User ID to the old web tutorial's status (`tutorial_status`); users without one have finished it. */
  readonly tutorialStatus = new Map<number, TutorialStatus>();
  /** Saved snippets by ID. */
  readonly savedSnippets = new Map<number, SavedSnippet>();
  /** Legacy mobile push tokens (`/users/me/apns_device_token`, `/users/me/android_gcm_reg_id`). */
  readonly legacyPushTokens: LegacyPushToken[] = [];
  readonly realmEmoji = new Map<number, RealmEmoji>();
  readonly realmPlaygrounds = new Map<number, RealmPlayground>();
  /** The realm's email domains by domain name, in the order they were added. */
  readonly realmDomains = new Map<string, RealmDomain>();
  /** Organization settings set through `PATCH /realm` that have no field of `realm` (lib/settings/realm-properties.ts). */
  readonly realmProperties = new Map<string, string | number | boolean | null>();
  readonly invites = new Map<number, EmailInvite>();
  readonly multiuseInvites = new Map<number, MultiuseInvite>();
  readonly realmExports = new Map<number, RealmExport>();
  /** Emails "sent" by the server, oldest first (see OutgoingEmail). */
  readonly outbox: OutgoingEmail[] = [];

  constructor(options: WorldOptions) {
    this.clock = options.clock;
    this.featureLevel = options.featureLevel ?? MAX_FEATURE_LEVEL;
    this.pushConfigured = options.pushConfigured ?? false;
    this.navigationTourVideoUrl = options.navigationTourVideoUrl ?? null;
    if (options.deliveryDelayMs) {
      const pipeline = new DeliveryPipeline(options.deliveryDelayMs);
      this.delayed = pipeline;
      this.events.defer = (work) => pipeline.run(work);
    }
  }

  /** Work a production server does after answering (presence writes), delayed when asked, else now. */
  afterAnswer(work: () => void): void {
    if (this.delayed) this.delayed.run(work);
    else work();
  }

  /** Whether the emulated server has this feature. */
  has(feature: Feature): boolean {
    return this.featureLevel >= feature.level;
  }

  now(): number {
    return this.clock.now();
  }

  systemGroupId(name: SystemGroupName): number {
    const id = this.systemGroups.get(name);
    if (id === undefined) throw new Error(`system group ${name} missing from the world`);
    return id;
  }

  addUser(user: User): void {
    this.users.set(user.id, user);
    this.usersByEmail.set(user.deliveryEmail.toLowerCase(), user);
  }

  /** Channel by case-insensitive name, archived ones included. */
  streamByName(name: string): Stream | undefined {
    return this.streams.named(name);
  }

  subscribersOf(streamId: number): SubscriberMap {
    let subs = this.subscriptionsByStream.get(streamId);
    if (!subs) {
      subs = new SubscriberMap(streamId, this.subscriptionsByUser);
      this.subscriptionsByStream.set(streamId, subs);
    }
    return subs;
  }

  /** The user's subscriptions (active or not) by stream ID. */
  subscriptionsOf(userId: number): ReadonlyMap<number, Subscription> {
    return subscriptionsIn(this.subscriptionsByUser, userId);
  }
}
