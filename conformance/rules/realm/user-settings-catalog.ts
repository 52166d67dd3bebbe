/**
 * The settings of `PATCH /realm/user_settings_defaults` (section 4.3) the suite exercises: type,
 * allowed values and the feature level each exists from, with arbitraries for valid and invalid
 * values. Levels the description states are marked `documentedSince` (the only ones the suite
 * checks in both directions); the others come from the real server's change notes and only
 * keep a setting out of runs at levels where it may not exist yet. `emojiset` has its own rule
 * (deviation `emojiset-names`), so it is not listed here.
 */
import fc from 'fast-check';
import { notJsonBoolean, printableText } from '../support/arbitraries.js';

export type SettingValue = boolean | number | string;

export interface SettingSpec {
  readonly name: string;
  readonly kind: 'bool' | 'enum-int' | 'int' | 'enum-string' | 'sound';
  /** Allowed values, for enums; for `int`, a plausible range [min, max]. */
  readonly values?: readonly SettingValue[];
  /** First level the suite uses the setting at. */
  readonly since?: number;
  /** True when section 4.3 states `since` (then the setting must be ignored below it). */
  readonly documentedSince?: boolean;
  /** Values that appeared later than the setting (`web_channel_default_view`). */
  readonly valueSince?: ReadonlyMap<SettingValue, number>;
  /** Whether refusals of out-of-range values are asserted (not when the description omits the values). */
  readonly refusesOthers: boolean;
}

const bool = (name: string, since?: number): SettingSpec => ({
  name,
  kind: 'bool',
  refusesOthers: true,
  ...(since === undefined ? {} : { since, documentedSince: true }),
});
const enumInt = (name: string, values: readonly number[], since?: number): SettingSpec => ({ name, kind: 'enum-int', values, refusesOthers: true, ...(since === undefined ? {} : { since }) });
const enumString = (name: string, values: readonly string[], since?: number, documented = false): SettingSpec => ({
  name,
  kind: 'enum-string',
  values,
  refusesOthers: true,
  ...(since === undefined ? {} : { since, documentedSince: documented }),
});

export const SETTINGS: readonly SettingSpec[] = [
  bool('starred_message_counts'),
  bool('receives_typing_notifications', 253),
  bool('web_suggest_update_timezone', 329),
  bool('fluid_layout_width'),
  bool('high_contrast_mode'),
  bool('enable_drafts_synchronization'),
  bool('translate_emoticons'),
  bool('display_emoji_reaction_users', 125),
  bool('web_escape_navigates_to_home_view', 219),
  bool('left_side_userlist'),
  bool('hide_ai_features', 350),
  bool('enable_stream_desktop_notifications'),
  bool('enable_stream_email_notifications'),
  bool('enable_stream_push_notifications'),
  bool('enable_stream_audible_notifications'),
  bool('enable_desktop_notifications'),
  bool('enable_sounds'),
  bool('enable_followed_topic_desktop_notifications', 189),
  bool('enable_followed_topic_email_notifications', 189),
  bool('enable_followed_topic_push_notifications', 189),
  bool('enable_followed_topic_audible_notifications', 189),
  bool('enable_offline_email_notifications'),
  bool('enable_offline_push_notifications'),
  bool('enable_online_push_notifications'),
  bool('enable_digest_emails'),
  bool('message_content_in_email_notifications'),
  bool('pm_content_in_desktop_notifications'),
  bool('wildcard_mentions_notify'),
  bool('enable_followed_topic_wildcard_mentions_notify', 189),
  bool('automatically_follow_topics_where_mentioned', 235),
  bool('presence_enabled'),
  bool('enter_sends'),
  bool('twenty_four_hour_time', 99),
  bool('send_private_typing_notifications', 105),
  bool('send_stream_typing_notifications', 105),
  bool('send_read_receipts', 105),
  bool('web_navigate_to_sent_message', 268),
  {
    ...enumInt('web_channel_default_view', [1, 2, 3, 4], 269),
    valueSince: new Map([
      [3, 383],
      [4, 401],
    ]),
  },
  enumInt('color_scheme', [1, 2, 3]),
  enumInt('demote_inactive_streams', [1, 2, 3]),
  enumInt('user_list_style', [1, 2, 3], 141),
  enumInt('web_stream_unreads_count_display_policy', [1, 2, 3], 210),
  // Three values before 227, four after: used only from 227.
  enumInt('desktop_icon_count_display', [1, 2, 3, 4], 227),
  enumInt('automatically_follow_topics_policy', [1, 2, 3, 4], 214),
  enumInt('automatically_unmute_topics_in_muted_streams_policy', [1, 2, 3, 4], 214),
  enumInt('email_address_visibility', [1, 2, 3, 4, 5], 163),
  { name: 'web_font_size_px', kind: 'int', values: [12, 20], since: 245, refusesOthers: true },
  { name: 'web_line_height_percent', kind: 'int', values: [120, 170], since: 245, refusesOthers: true },
  { name: 'email_notifications_batching_period_seconds', kind: 'int', values: [60, 86_400], refusesOthers: true },
  // The description omits the allowed values: only known-good ones are sent, refusals are not asserted.
  { name: 'realm_name_in_email_notifications_policy', kind: 'enum-int', values: [1, 2, 3], since: 168, refusesOthers: false },
  enumString('web_home_view', ['recent_topics', 'inbox', 'all_messages'], 219),
  enumString('web_animate_image_previews', ['always', 'on_hover', 'never'], 275),
  enumString('resolved_topic_notice_auto_read_policy', ['always', 'except_followed', 'never'], 385, true),
  { name: 'notification_sound', kind: 'sound', refusesOthers: false },
];

/** `dense_mode` exists until level 363 (section 4.3: removed at 364). */
export const DENSE_MODE_REMOVED_AT = 364;

/** Settings the suite uses at `level`. */
export function settingsAt(level: number): SettingSpec[] {
  return SETTINGS.filter((spec) => spec.since === undefined || level >= spec.since);
}

/**
 * Defaults that decide what people see of each other or receive (email visibility, presence,
 * typing and read receipts, notifications, sounds, digests and other email): never given random
 * values on a real deployment, where a user joining during the run would keep them.
 */
const REACHES_PEOPLE = /notification|notify|digest|email|presence|sound|push|audible|typing|read_receipts|desktop_icon_count/;

/** Whether a default is one of those (`REACHES_PEOPLE`). */
export const reachesPeople = (spec: SettingSpec): boolean => REACHES_PEOPLE.test(spec.name);

/**
 * The settings a rule may change at `level`: all of them on the embedded server (the run's own),
 * only those that reach nobody else elsewhere.
 */
export function changeableSettingsAt(level: number, targetKind: 'embedded' | 'url'): SettingSpec[] {
  return settingsAt(level).filter((spec) => targetKind === 'embedded' || !reachesPeople(spec));
}

/** Settings the description dates later than `level` (the server must not know them yet). */
export function documentedLaterThan(level: number): SettingSpec[] {
  return SETTINGS.filter((spec) => spec.documentedSince === true && spec.since !== undefined && level < spec.since);
}

/** The allowed values of an enum setting at `level`. */
export function valuesAt(spec: SettingSpec, level: number): readonly SettingValue[] {
  return (spec.values ?? []).filter((value) => (spec.valueSince?.get(value) ?? 0) <= level);
}

/** A valid value of the setting at `level` (`sounds` from `available_notification_sounds`). */
export function validValue(spec: SettingSpec, level: number, sounds: readonly string[]): fc.Arbitrary<SettingValue> {
  switch (spec.kind) {
    case 'bool':
      return fc.boolean();
    case 'int': {
      const [min, max] = spec.values as readonly [number, number];
      return fc.integer({ min, max });
    }
    case 'sound':
      return sounds.length > 0 ? fc.constantFrom(...sounds) : fc.constant('zulip');
    default:
      return fc.constantFrom(...valuesAt(spec, level));
  }
}

/** Wire text the setting must refuse; undefined when the suite asserts no refusal for it. */
export function invalidWire(spec: SettingSpec, level: number): fc.Arbitrary<string> | undefined {
  if (!spec.refusesOthers) return undefined;
  const notInteger = fc.constantFrom('1.5', '"1"', 'true', 'null', '[]', '{}', 'one', '', '1e400x');
  switch (spec.kind) {
    case 'bool':
      return notJsonBoolean();
    case 'int':
      return spec.name === 'email_notifications_batching_period_seconds'
        ? fc.oneof(notInteger, fc.constantFrom(0, -1, 604_801, 10_000_000).map(String))
        : notInteger;
    case 'enum-int': {
      const allowed = new Set(valuesAt(spec, level));
      return fc.oneof(notInteger, fc.integer({ min: -1000, max: 1000 }).filter((n) => !allowed.has(n)).map(String));
    }
    case 'enum-string': {
      const allowed = new Set<SettingValue>(valuesAt(spec, level));
      const nearMiss = fc.constantFrom(...valuesAt(spec, level)).map((value) => String(value).toUpperCase());
      return fc.oneof(nearMiss, printableText(12)).filter((text) => !allowed.has(text));
    }
    default:
      return undefined;
  }
}

/** How a value is sent: strings raw, everything else JSON (section 1, convention 2). */
export const wireOf = (value: SettingValue): string => (typeof value === 'string' ? value : JSON.stringify(value));
