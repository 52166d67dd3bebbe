/** `PATCH /realm` parameters of the settings in lib/settings/realm-properties.ts, each from its level. */
import type { RealmPropertyInput } from '../../../lib/actions/realm/realm-properties.js';
import { FEATURES } from '../../../lib/features.js';
import { bool, int, oneOf, str as strSchema, union } from '../../../lib/input/schema.js';
import { json, literalStr, type Param, str } from '../../app/params.js';

/** The real server's `OrgTypeEnum` values. */
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];

const limit = () => json(union(int, strSchema));

export const REALM_PROPERTY_PARAMS = {
  avatar_changes_disabled: json(bool),
  default_language: str(),
  description: str({ maxLength: 1000 }),
  disallow_disposable_email_addresses: json(bool),
  email_changes_disabled: json(bool),
  emails_restricted_to_domains: json(bool),
  enable_read_receipts: json(bool).availableFrom(FEATURES.READ_RECEIPTS),
  enable_spectator_access: json(bool).availableFrom(FEATURES.SPECTATOR_ACCESS),
  invite_required: json(bool),
  mandatory_topics: json(bool).availableBefore(FEATURES.TOPICS_POLICY),
  message_content_delete_limit_seconds: limit(),
  message_retention_days: limit(),
  move_messages_between_streams_limit_seconds: limit().availableFrom(FEATURES.MOVE_LIMITS),
  move_messages_within_stream_limit_seconds: limit().availableFrom(FEATURES.MOVE_LIMITS),
  name: str({ maxLength: 40 }),
  name_changes_disabled: json(bool),
  org_type: json(oneOf(int, ORG_TYPES)).availableFrom(FEATURES.ORG_TYPE),
  require_unique_names: json(bool).availableFrom(FEATURES.UNIQUE_NAMES),
  // `Json[RealmTopicsPolicyEnum]`, taken by name as the edit-history policy is.
  topics_policy: literalStr('allow_empty_topic', 'disable_empty_topic').availableFrom(FEATURES.TOPICS_POLICY),
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
