/** `PATCH /realm` parameters of the settings in lib/settings/realm-properties.ts, each from its level. */
import type { RealmPropertyInput } from '../../../lib/actions/realm/realm-properties.js';
import { badRequest } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { bool, int, oneOf, str as strSchema, union } from '../../../lib/input/schema.js';
import { json, literalStr, type Param, str } from '../../app/params.js';

/** The real server's `OrgTypeEnum` values. */
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];

/** `Realm.GIPHY_RATING_OPTIONS` IDs (disabled, y, g, pg, pg-13, r). */
const GIPHY_RATINGS = [0, 1, 2, 3, 4, 5];

/** Far above any Pygments alias or playground language (40 characters on the real server). */
const DEFAULT_CODE_BLOCK_LANGUAGE_MAX_LENGTH = 1000;

const limit = () => json(union(int, strSchema));

export const REALM_PROPERTY_PARAMS = {
  avatar_changes_disabled: json(bool),
  // Any text, as the real view takes it (no language check), but capped: every code block without
  // a language carries it, so an unbounded one would multiply a message's rendering.
  default_code_block_language: str({ maxLength: DEFAULT_CODE_BLOCK_LANGUAGE_MAX_LENGTH }),
  default_language: str(),
  digest_emails_enabled: json(bool),
  digest_weekday: json(oneOf(int, [0, 1, 2, 3, 4, 5, 6])),
  description: str({ maxLength: 1000 }),
  disallow_disposable_email_addresses: json(bool),
  email_changes_disabled: json(bool),
  emails_restricted_to_domains: json(bool),
  enable_guest_user_dm_warning: json(bool).availableFrom(FEATURES.GUEST_DM_WARNING),
  enable_guest_user_indicator: json(bool).availableFrom(FEATURES.GUEST_INDICATOR),
  enable_read_receipts: json(bool).availableFrom(FEATURES.READ_RECEIPTS),
  enable_spectator_access: json(bool).availableFrom(FEATURES.SPECTATOR_ACCESS),
  giphy_rating: json(int).availableFrom(FEATURES.GIPHY_RATING).check((value) => {
    if (!GIPHY_RATINGS.includes(value)) throw badRequest(`Invalid giphy_rating ${value}`);
  }),
  inline_image_preview: json(bool),
  inline_url_embed_preview: json(bool),
  invite_required: json(bool),
  mandatory_topics: json(bool).availableBefore(FEATURES.TOPICS_POLICY),
  message_content_allowed_in_email_notifications: json(bool),
  message_content_delete_limit_seconds: limit(),
  message_retention_days: limit(),
  move_messages_between_streams_limit_seconds: limit().availableFrom(FEATURES.MOVE_LIMITS),
  move_messages_within_stream_limit_seconds: limit().availableFrom(FEATURES.MOVE_LIMITS),
  name: str({ maxLength: 40 }),
  name_changes_disabled: json(bool),
  org_type: json(oneOf(int, ORG_TYPES)).availableFrom(FEATURES.ORG_TYPE),
  require_e2ee_push_notifications: json(bool).availableFrom(FEATURES.REQUIRE_E2EE_PUSH),
  require_unique_names: json(bool).availableFrom(FEATURES.UNIQUE_NAMES),
  send_welcome_emails: json(bool),
  // `Json[RealmTopicsPolicyEnum]`, taken by name as the edit-history policy is.
  topics_policy: literalStr('allow_empty_topic', 'disable_empty_topic').availableFrom(FEATURES.TOPICS_POLICY),
  // Checked against the providers this server offers (none and Jitsi Meet), as the real view does.
  video_chat_provider: json(int).check((value) => {
    if (value !== 0 && value !== 1) throw badRequest(`Invalid video_chat_provider ${value}`);
  }),
  want_advertise_in_communities_directory: json(bool).availableFrom(FEATURES.COMMUNITIES_DIRECTORY),
} satisfies Record<string, Param<unknown, boolean, boolean>>;

/** The sent values of these parameters, by name. */
export function realmPropertyInput(args: Readonly<Record<string, unknown>>): RealmPropertyInput {
  const input = new Map<string, string | number | boolean>();
  for (const name of Object.keys(REALM_PROPERTY_PARAMS)) {
    const value = args[name];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') input.set(name, value);
  }
  return input;
}
