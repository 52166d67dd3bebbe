/**
 * The subscription object of `GET /users/me/subscriptions` (`Subscription` of
 * the OpenAPI get-subscriptions description) for a feature level: each field from the level its "Changes"
 * note gives, removed fields absent, `subscribers` only when asked for.
 */
import { type Validator, v } from '../../expect/shape.js';

/** Levels of the subscription object's history (OpenAPI get-subscriptions). */
export const SUBSCRIPTION_LEVELS = {
  RETENTION: 17,
  DATE_CREATED: 30,
  ROLE: 31,
  ROLE_REMOVED: 133,
  CAN_REMOVE_SUBSCRIBERS: 142,
  CAN_REMOVE_SUBSCRIBERS_RENAMED: 197,
  EMAIL_ADDRESS_REMOVED: 226,
  CREATOR_ID: 254,
  IS_ARCHIVED: 315,
  ANY_GROUP_SETTING: 320,
  IS_RECENTLY_ACTIVE: 323,
  CAN_ADMINISTER: 325,
  CAN_SEND_MESSAGE: 333,
  CAN_ADD_SUBSCRIBERS: 342,
  CAN_SUBSCRIBE: 357,
  FOLDER_ID: 389,
  TOPICS_POLICY: 392,
  SUBSCRIBER_COUNT: 394,
  CAN_MOVE_MESSAGES: 396,
  CAN_RESOLVE_TOPICS: 402,
  CAN_DELETE_MESSAGES: 407,
} as const;

/** A group-setting value (section 1 convention 7): a group ID or an anonymous group. */
export const groupSettingValue = v.union(
  v.int({ min: 0 }),
  v.object({ direct_members: v.array(v.int({ min: 1 })), direct_subgroups: v.array(v.int({ min: 0 })) }, { exact: true }),
);

const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;

export type Field = Validator<unknown> | { readonly optional: Validator<unknown> };

/** Group settings by the level they appeared at (can_remove_subscribers_group is handled apart). */
export const CHANNEL_GROUP_SETTINGS: ReadonlyArray<readonly [string, number]> = [
  ['can_administer_channel_group', SUBSCRIPTION_LEVELS.CAN_ADMINISTER],
  ['can_send_message_group', SUBSCRIPTION_LEVELS.CAN_SEND_MESSAGE],
  ['can_add_subscribers_group', SUBSCRIPTION_LEVELS.CAN_ADD_SUBSCRIBERS],
  ['can_subscribe_group', SUBSCRIPTION_LEVELS.CAN_SUBSCRIBE],
  ['can_move_messages_out_of_channel_group', SUBSCRIPTION_LEVELS.CAN_MOVE_MESSAGES],
  ['can_move_messages_within_channel_group', SUBSCRIPTION_LEVELS.CAN_MOVE_MESSAGES],
  ['can_resolve_topics_group', SUBSCRIPTION_LEVELS.CAN_RESOLVE_TOPICS],
  ['can_delete_any_message_group', SUBSCRIPTION_LEVELS.CAN_DELETE_MESSAGES],
  ['can_delete_own_message_group', SUBSCRIPTION_LEVELS.CAN_DELETE_MESSAGES],
];

export interface SubscriptionView {
  /** `include_subscribers=true` was sent. */
  readonly includeSubscribers: boolean;
}

/**
 * The channel fields a level has (OpenAPI `BasicChannel`), shared by stream objects
 * (`GET /streams`) and subscription objects.
 */
export function channelFields(level: number): Record<string, Field> {
  const L = SUBSCRIPTION_LEVELS;
  const since = (min: number, field: Validator<unknown>): Field => (level >= min ? field : v.optional(field));
  const fields: Record<string, Field> = {
    stream_id: v.int({ min: 1 }),
    name: v.string({ nonEmpty: true }),
    description: v.string(),
    rendered_description: v.string(),
    invite_only: v.bool(),
    is_web_public: v.bool(),
    history_public_to_subscribers: v.bool(),
    first_message_id: v.nullable(v.int()),
    stream_weekly_traffic: v.nullable(v.int()),
    // Deprecated but still sent; optional so that their eventual removal is not a failure.
    is_announcement_only: v.optional(v.bool()),
    stream_post_policy: v.optional(v.literal(1, 2, 3, 4)),
    message_retention_days: since(L.RETENTION, v.nullable(v.int())),
    date_created: since(L.DATE_CREATED, v.int({ min: 0 })),
    creator_id: since(L.CREATOR_ID, v.nullable(v.int({ min: 1 }))),
    is_archived: since(L.IS_ARCHIVED, v.bool()),
    is_recently_active: since(L.IS_RECENTLY_ACTIVE, v.bool()),
    folder_id: since(L.FOLDER_ID, v.nullable(v.int())),
    topics_policy: since(L.TOPICS_POLICY, v.literal(...TOPICS_POLICIES)),
  };
  for (const [name, min] of CHANNEL_GROUP_SETTINGS) fields[name] = since(min, groupSettingValue);
  // Named `..._id` before 197; always a (system) group ID before 320.
  if (level >= L.CAN_REMOVE_SUBSCRIBERS_RENAMED) fields.can_remove_subscribers_group = level >= L.ANY_GROUP_SETTING ? groupSettingValue : v.int({ min: 0 });
  else if (level >= L.CAN_REMOVE_SUBSCRIBERS) fields.can_remove_subscribers_group_id = v.int({ min: 0 });
  return fields;
}

/** The subscription-object validator for a level (not exact: later servers add fields). */
export function subscriptionShape(level: number, view: SubscriptionView): Validator<Record<string, unknown>> {
  const L = SUBSCRIPTION_LEVELS;
  const notification = v.nullable(v.bool());
  const fields: Record<string, Field> = {
    ...channelFields(level),
    color: v.string({ nonEmpty: true }),
    pin_to_top: v.bool(),
    is_muted: v.bool(),
    in_home_view: v.optional(v.bool()),
    desktop_notifications: notification,
    email_notifications: notification,
    push_notifications: notification,
    audible_notifications: notification,
    wildcard_mentions_notify: notification,
    subscriber_count: level >= L.SUBSCRIBER_COUNT ? v.int({ min: 0 }) : v.optional(v.int({ min: 0 })),
    subscribers: view.includeSubscribers ? v.array(v.int({ min: 1 })) : v.optional(v.array(v.int())),
  };
  if (level < L.EMAIL_ADDRESS_REMOVED) fields.email_address = v.string();
  // The user's role in the channel, 31 to 132: 20 stream administrator, 50 subscriber.
  const hasRole = level >= L.ROLE && level < L.ROLE_REMOVED;
  if (hasRole) fields.role = v.literal(20, 50);
  const forbidden = [
    ...(hasRole ? [] : ['role']),
    ...(level >= L.EMAIL_ADDRESS_REMOVED ? ['email_address'] : []),
    ...(view.includeSubscribers ? [] : ['subscribers']),
    'partial_subscribers',
  ];
  return v.object(fields as Record<string, Validator<unknown>>, { forbidden }) as Validator<Record<string, unknown>>;
}
