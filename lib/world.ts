/**
 * The one in-memory state container. Everything the server knows lives here; actions
 * (lib/actions) are the only code that writes to it, queries (lib/queries) only read.
 */
import type { Clock } from './clock.js';
import type { BotProfile } from './entities/bot.js';
import type { SystemGroupName, UserGroup } from './entities/group.js';
import type { Message } from './entities/message.js';
import type {
  Draft,
  LegacyPushToken,
  NavigationView,
  Presence,
  PushRegistration,
  SavedSnippet,
  UserStatus,
  UserTopic,
} from './entities/personal.js';
import type { Realm } from './entities/realm.js';
import type { Attachment, CustomProfileField, Linkifier, RealmEmoji, Reminder } from './entities/realm-records.js';
import type { Stream, Subscription } from './entities/stream.js';
import type { SettingValue, User } from './entities/user.js';
import { EventHub } from './events/hub.js';
import { type Feature, MAX_FEATURE_LEVEL } from './features.js';

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
  | 'savedSnippet';

/** Hands out increasing IDs per kind, starting above whatever the fixture used. */
export class IdAllocator {
  private readonly last = new Map<IdKind, number>();

  next(kind: IdKind): number {
    const id = (this.last.get(kind) ?? 0) + 1;
    this.last.set(kind, id);
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

export interface WorldOptions {
  readonly clock: Clock;
  readonly featureLevel?: number;
  /** Whether a push notification service is configured (section 4.12). */
  readonly pushConfigured?: boolean;
}

export class World {
  readonly clock: Clock;
  readonly featureLevel: number;
  readonly pushConfigured: boolean;
  readonly ids = new IdAllocator();
  readonly events = new EventHub();

  realm!: Realm;
  readonly userSettingsDefaults = new Map<string, SettingValue>();
  readonly users = new Map<number, User>();
  /** Lower-cased delivery email to user, for authentication and lookups. */
  readonly usersByEmail = new Map<string, User>();
  readonly groups = new Map<number, UserGroup>();
  readonly systemGroups = new Map<SystemGroupName, number>();
  readonly streams = new Map<number, Stream>();
  /** Stream ID to (user ID to subscription); inactive subscriptions are kept with `active: false`. */
  readonly subscriptions = new Map<number, Map<number, Subscription>>();
  readonly defaultStreamIds = new Set<number>();
  readonly messages = new Map<number, Message>();
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
  readonly reminders = new Map<number, Reminder>();
  readonly attachments = new Map<number, Attachment>();
  readonly customProfileFields: CustomProfileField[] = [];
  /** Bot user ID to its default channels and services (bots without an entry have none). */
  readonly bots = new Map<number, BotProfile>();
  /** User ID to that user's alert words, in the order they were added. */
  readonly alertWords = new Map<number, string[]>();
  /** User ID to the users it muted, in muting order, with the time (seconds since the epoch). */
  readonly mutedUsers = new Map<number, Array<{ readonly id: number; readonly timestamp: number }>>();
  /** Saved snippets by ID. */
  readonly savedSnippets = new Map<number, SavedSnippet>();
  /** Legacy mobile push tokens (`/users/me/apns_device_token`, `/users/me/android_gcm_reg_id`). */
  readonly legacyPushTokens: LegacyPushToken[] = [];
  readonly realmEmoji = new Map<number, RealmEmoji>();
  /** Emails "sent" by the server, oldest first (see OutgoingEmail). */
  readonly outbox: OutgoingEmail[] = [];

  constructor(options: WorldOptions) {
    this.clock = options.clock;
    this.featureLevel = options.featureLevel ?? MAX_FEATURE_LEVEL;
    this.pushConfigured = options.pushConfigured ?? false;
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
    const lower = name.toLowerCase();
    for (const stream of this.streams.values()) if (stream.name.toLowerCase() === lower) return stream;
    return undefined;
  }

  subscribersOf(streamId: number): Map<number, Subscription> {
    let subs = this.subscriptions.get(streamId);
    if (!subs) {
      subs = new Map();
      this.subscriptions.set(streamId, subs);
    }
    return subs;
  }
}
