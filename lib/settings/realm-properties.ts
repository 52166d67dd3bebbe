/**
 * Organization settings that `PATCH /realm` sets one by one (the real server's
 * `Realm.property_types` handled by `do_set_realm_property`), beyond the message-editing and
 * group settings of actions/realm-settings.ts. Each has its API name, the level it appeared
 * at, whether only owners may change it, and where its value lives.
 */
import { FEATURES, type Feature } from '../features/feature-levels.js';
import type { World } from '../state/world.js';

export type RealmPropertyValue = string | number | boolean | null;

export interface RealmPropertyDef {
  readonly name: string;
  readonly since?: Feature;
  readonly ownerOnly: boolean;
  /** Strings are answered as `"updated"` in the response data, as the real server does. */
  readonly isString: boolean;
  /** The value in the response data, when it differs from the event's (enums answer their number). */
  readonly responseValue?: (value: RealmPropertyValue) => unknown;
  get(world: World): RealmPropertyValue;
  set(world: World, value: RealmPropertyValue): void;
}

/**
 * Kept in `World.realmProperties`; absent means the development realm's default (the real
 * server's model default, or what `populate_db` sets for the development realm).
 */
function stored(name: string, fallback: RealmPropertyValue, options: { since?: Feature; ownerOnly?: boolean } = {}): RealmPropertyDef {
  return {
    name,
    ...(options.since ? { since: options.since } : {}),
    ownerOnly: options.ownerOnly ?? false,
    isString: typeof fallback === 'string',
    get: (world) => (world.realmProperties.has(name) ? (world.realmProperties.get(name) as RealmPropertyValue) : fallback),
    set: (world, value) => void world.realmProperties.set(name, value),
  };
}

const DEFAULT_MOVE_LIMIT = 604_800;
/** `Realm.DEFAULT_MESSAGE_CONTENT_DELETE_LIMIT_SECONDS`. */
const DEFAULT_DELETE_LIMIT = 600;
/** The development realm is created as a business (`populate_db`). */
const ORG_TYPE_BUSINESS = 10;

/** In parameter (alphabetical) order, the order the real server applies and reports them. */
export const REALM_PROPERTIES: readonly RealmPropertyDef[] = [
  stored('avatar_changes_disabled', false),
  {
    name: 'default_code_block_language',
    ownerOnly: false,
    isString: true,
    // The model's default was null until level 195 made it "" (a realm that set and then cleared
    // it already had "").
    get: (world) => {
      const value = world.realmProperties.get('default_code_block_language');
      if (value !== undefined) return value;
      return world.has(FEATURES.CODE_BLOCK_LANGUAGE_EMPTY) ? '' : null;
    },
    set: (world, value) => void world.realmProperties.set('default_code_block_language', value),
  },
  stored('default_language', 'en'),
  stored('digest_emails_enabled', false),
  stored('digest_weekday', 1),
  {
    name: 'description',
    ownerOnly: false,
    isString: true,
    get: (world) => world.realm.description,
    set: (world, value) => void (world.realm.description = String(value)),
  },
  stored('disallow_disposable_email_addresses', true, { ownerOnly: true }),
  stored('email_changes_disabled', false),
  stored('emails_restricted_to_domains', false, { ownerOnly: true }),
  stored('enable_guest_user_dm_warning', true, { since: FEATURES.GUEST_DM_WARNING }),
  stored('enable_guest_user_indicator', true, { since: FEATURES.GUEST_INDICATOR }),
  stored('enable_read_receipts', true, { since: FEATURES.READ_RECEIPTS }),
  {
    name: 'enable_spectator_access',
    since: FEATURES.SPECTATOR_ACCESS,
    ownerOnly: false,
    isString: false,
    get: (world) => world.realm.enableSpectatorAccess,
    set: (world, value) => void (world.realm.enableSpectatorAccess = value === true),
  },
  stored('giphy_rating', 2, { since: FEATURES.GIPHY_RATING }),
  stored('inline_image_preview', true),
  stored('inline_url_embed_preview', false),
  stored('invite_required', false, { ownerOnly: true }),
  {
    // Replaced by topics_policy at level 392.
    name: 'mandatory_topics',
    ownerOnly: false,
    isString: false,
    get: (world) => world.realm.topicsPolicy === 'disable_empty_topic',
    set: (world, value) => void (world.realm.topicsPolicy = value === true ? 'disable_empty_topic' : 'allow_empty_topic'),
  },
  stored('message_content_allowed_in_email_notifications', true),
  stored('message_content_delete_limit_seconds', DEFAULT_DELETE_LIMIT),
  {
    name: 'message_retention_days',
    ownerOnly: true,
    isString: false,
    get: (world) => world.realm.messageRetentionDays,
    set: (world, value) => void (world.realm.messageRetentionDays = Number(value)),
  },
  {
    name: 'move_messages_between_streams_limit_seconds',
    since: FEATURES.MOVE_LIMITS,
    ownerOnly: false,
    isString: false,
    get: (world) => (world.realm.moveMessagesBetweenStreamsLimitSeconds === undefined ? DEFAULT_MOVE_LIMIT : world.realm.moveMessagesBetweenStreamsLimitSeconds),
    set: (world, value) => void (world.realm.moveMessagesBetweenStreamsLimitSeconds = value === null ? null : Number(value)),
  },
  {
    name: 'move_messages_within_stream_limit_seconds',
    since: FEATURES.MOVE_LIMITS,
    ownerOnly: false,
    isString: false,
    get: (world) => (world.realm.moveMessagesWithinStreamLimitSeconds === undefined ? DEFAULT_MOVE_LIMIT : world.realm.moveMessagesWithinStreamLimitSeconds),
    set: (world, value) => void (world.realm.moveMessagesWithinStreamLimitSeconds = value === null ? null : Number(value)),
  },
  {
    name: 'name',
    ownerOnly: false,
    isString: true,
    get: (world) => world.realm.name,
    set: (world, value) => void (world.realm.name = String(value)),
  },
  stored('name_changes_disabled', false),
  stored('org_type', ORG_TYPE_BUSINESS, { since: FEATURES.ORG_TYPE }),
  stored('require_e2ee_push_notifications', false, { since: FEATURES.REQUIRE_E2EE_PUSH }),
  stored('require_unique_names', false, { since: FEATURES.UNIQUE_NAMES }),
  stored('send_welcome_emails', true),
  {
    name: 'topics_policy',
    since: FEATURES.TOPICS_POLICY,
    ownerOnly: false,
    isString: false,
    // `RealmTopicsPolicyEnum`: events carry the name, the response data the number.
    responseValue: (value) => (value === 'disable_empty_topic' ? 3 : 2),
    get: (world) => world.realm.topicsPolicy,
    set: (world, value) => void (world.realm.topicsPolicy = value === 'disable_empty_topic' ? 'disable_empty_topic' : 'allow_empty_topic'),
  },
  stored('video_chat_provider', 1),
  stored('want_advertise_in_communities_directory', false, { since: FEATURES.COMMUNITIES_DIRECTORY }),
];

const BY_NAME = new Map(REALM_PROPERTIES.map((def) => [def.name, def]));

/** The current value of a property (its default when never set). */
export function realmProperty(world: World, name: string): RealmPropertyValue {
  const def = BY_NAME.get(name);
  if (!def) throw new Error(`unknown realm property ${name}`);
  return def.get(world);
}
