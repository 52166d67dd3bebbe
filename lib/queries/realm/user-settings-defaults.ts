/** The organization's defaults for new users' personal settings (sections 2.7 and 4.3). */
import type { SettingValue } from '../../entities/user.js';
import { type Feature, FEATURES } from '../../features/feature-levels.js';
import { EMOJISETS, NOTIFICATION_SOUNDS, type SettingDefinition, settingExistsAt, USER_SETTINGS } from '../../settings/user-settings.js';
import type { World } from '../../state/world.js';

/** Display names of the emoji sets, in the real server's `EMOJISET_CHOICES` order. */
const EMOJISET_TEXT = new Map<string, string>([
  ['google', 'Google'],
  ['twitter', 'Twitter'],
  ['text', 'Plain text'],
  ['google-blob', 'Google blobs'],
]);

/** `emojiset_choices`: one `{key, text}` per emoji set. */
export function emojisetChoices(): Array<{ key: string; text: string }> {
  return EMOJISETS.map((key) => ({ key, text: EMOJISET_TEXT.get(key) ?? key }));
}

/** Sound names clients may offer, sorted; `none` is accepted as a value but is not a sound. */
export function availableNotificationSounds(): string[] {
  return NOTIFICATION_SOUNDS.filter((sound) => sound !== 'none').sort();
}

/** Settings of the defaults object that exist at the emulated level, in table order. */
export function defaultsAtLevel(world: World): SettingDefinition[] {
  return USER_SETTINGS.filter((definition) => settingExistsAt(definition, world.featureLevel));
}

/**
 * Values of `web_channel_default_view` added after the setting (level 269): 3 "list of topics"
 * (level 383) and 4 "top unread topic in channel" (level 401), per the OpenAPI change notes.
 */
export const CHANNEL_DEFAULT_VIEW_VALUE_SINCE: ReadonlyMap<number, Feature> = new Map([
  [3, FEATURES.WEB_CHANNEL_DEFAULT_VIEW_TOPICS],
  [4, FEATURES.WEB_CHANNEL_DEFAULT_VIEW_TOP_UNREAD],
]);

/** The values a setting accepts at the emulated level (undefined: any value of its kind). */
export function allowedValuesAt(world: World, definition: SettingDefinition): readonly SettingValue[] | undefined {
  if (!definition.allowed) return undefined;
  if (definition.name !== 'web_channel_default_view') return definition.allowed;
  return definition.allowed.filter((value) => {
    const since = CHANNEL_DEFAULT_VIEW_VALUE_SINCE.get(value as number);
    return since === undefined || world.has(since);
  });
}

/**
 * The `realm_user_settings_defaults` object of register: every default existing at the emulated
 * level, plus `emojiset_choices` and `available_notification_sounds`.
 */
export function userSettingsDefaultsState(world: World): Record<string, unknown> {
  const entries: Array<[string, unknown]> = [];
  for (const definition of defaultsAtLevel(world)) {
    entries.push([definition.name, world.userSettingsDefaults.get(definition.name) ?? definition.stockDefault]);
  }
  entries.push(['emojiset_choices', emojisetChoices()]);
  entries.push(['available_notification_sounds', availableNotificationSounds()]);
  return Object.fromEntries(entries);
}
