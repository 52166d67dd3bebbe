/**
 * What the `PATCH /settings` rules share: the personal settings of the level with every value
 * each takes (the catalog of the realm defaults, plus what only a user's own settings have:
 * the emoji set, language, time zone and the account e-mails), one refused value per setting,
 * reading a user's settings back from `POST /register` `user_settings`, and putting a run
 * identity's settings back when a rule ends.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { expectEqual } from '../../expect/assert.js';
import { homeViewSettings } from '../realm/user-settings-defaults-values.js';
import { SETTINGS, type SettingValue, settingsAt, valuesAt, wireOf } from '../realm/user-settings-catalog.js';
import { ownSettings } from '../support/state-fetch.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext, ThrowawayUser } from '../types.js';

export const PATH = '/settings';
export const ENDPOINT = 'PATCH /settings';
/** Level 89: `user_settings` in `POST /register` and `user_settings` events. */
export const USER_SETTINGS_LEVEL = 89;
/** The real server's email batching limits: more than 0 seconds, at most one week. */
export const BATCHING = { name: 'email_notifications_batching_period_seconds', min: 1, max: 7 * 24 * 60 * 60 } as const;

/** One setting and every value it takes at the level. */
export interface ValueList {
  readonly name: string;
  readonly values: readonly SettingValue[];
}

/** Settings of `PATCH /settings` that the realm defaults do not have, with the level each exists from. */
const OWN_ONLY: ReadonlyArray<{ name: string; since: number; values: readonly SettingValue[] }> = [
  { name: 'enable_login_emails', since: 1, values: [true, false] },
  { name: 'enable_marketing_emails', since: 1, values: [true, false] },
  { name: 'default_language', since: 1, values: ['de', 'en'] },
  { name: 'web_mark_read_on_scroll_policy', since: 175, values: [1, 2, 3] },
  { name: 'allow_private_data_export', since: 293, values: [true, false] },
];

/**
 * Every setting of the level with its whole list: booleans both ways, enumerations, the sounds
 * (`none` too) and emoji sets the user's settings offer, the batching period at its limits, the
 * home view under its name of the level.
 */
export function valueLists(level: number, settings: JsonObject): ValueList[] {
  const lists: ValueList[] = [];
  for (const spec of settingsAt(level)) {
    if (spec.name === 'web_home_view') continue;
    if (spec.kind === 'bool') lists.push({ name: spec.name, values: [true, false] });
    else if (spec.kind === 'enum-int' || spec.kind === 'enum-string') lists.push({ name: spec.name, values: valuesAt(spec, level) });
    else if (spec.kind === 'sound') lists.push({ name: spec.name, values: [...soundsOf(settings), 'none'] });
    else if (spec.name === BATCHING.name) lists.push({ name: spec.name, values: [BATCHING.min, BATCHING.max] });
  }
  const home = homeViewSettings(level);
  lists.push(home.view, { name: home.escape, values: [true, false] });
  for (const extra of OWN_ONLY) if (level >= extra.since) lists.push({ name: extra.name, values: extra.values });
  const emojisets = emojisetsOf(settings);
  if (emojisets.length > 0) lists.push({ name: 'emojiset', values: emojisets });
  return lists;
}

/** Request `k` sets each setting to value `k` of its list (the last one again once a list runs out). */
export function batches(lists: readonly ValueList[]): Array<Array<[string, SettingValue]>> {
  const rounds = Math.max(...lists.map((list) => list.values.length));
  return Array.from({ length: rounds }, (_, k) => lists.map((list): [string, SettingValue] => [list.name, list.values[Math.min(k, list.values.length - 1)]!]));
}

/** One refused wire value per setting of the level, with why it is refused. */
export function refusedValues(level: number): Array<{ name: string; wire: string; why: string }> {
  const out: Array<{ name: string; wire: string; why: string }> = [];
  for (const spec of settingsAt(level)) {
    if (!spec.refusesOthers) continue;
    const allowed = valuesAt(spec, level);
    if (spec.kind === 'bool') out.push({ name: spec.name, wire: 'yes', why: 'not a JSON boolean' });
    else if (spec.kind === 'enum-int') out.push({ name: spec.name, wire: String(Math.max(...(allowed as number[])) + 1), why: 'one above the last value' });
    else if (spec.kind === 'enum-string' && spec.name !== 'web_home_view') out.push({ name: spec.name, wire: String(allowed[0]).toUpperCase(), why: 'an allowed value in capitals' });
  }
  out.push(
    { name: homeViewSettings(level).view.name, wire: 'Inbox_view', why: 'no home view' },
    { name: BATCHING.name, wire: String(BATCHING.min - 1), why: 'zero seconds' },
    { name: BATCHING.name, wire: String(BATCHING.max + 1), why: 'one week and a second' },
    { name: 'notification_sound', wire: 'no-such-sound-at-all', why: 'no sound of the server' },
    { name: 'default_language', wire: 'xx-not-a-language', why: 'no language of the server' },
    { name: 'emojiset', wire: 'GOOGLE', why: 'an emoji set in capitals' },
    { name: 'timezone', wire: 'Mars/Olympus_Mons', why: 'no IANA time zone' },
  );
  return out;
}

/** The notification sounds a `user_settings` object offers. */
export const soundsOf = (settings: JsonObject): string[] =>
  Array.isArray(settings.available_notification_sounds) ? settings.available_notification_sounds.filter((x): x is string => typeof x === 'string') : [];

/** The emoji-set keys a `user_settings` object offers (`emojiset_choices`). */
export const emojisetsOf = (settings: JsonObject): string[] =>
  Array.isArray(settings.emojiset_choices) ? settings.emojiset_choices.map((choice) => (choice as { key?: unknown }).key).filter((key): key is string => typeof key === 'string') : [];

/** Reads the settings back and expects each change applied. */
export async function expectApplied(client: ApiClient, changes: ReadonlyArray<readonly [string, SettingValue]>, what: string): Promise<void> {
  const after = await ownSettings(client);
  for (const [name, value] of changes) expectEqual(after[name], value, `user_settings.${name} ${what}`);
}

/** Names `PATCH /settings` reads at some level (never offered as unknown parameters). */
export const RESERVED_NAMES: readonly string[] = [
  ...SETTINGS.map((spec) => spec.name),
  ...OWN_ONLY.map((extra) => extra.name),
  'emojiset', 'timezone', 'full_name', 'email', 'old_password', 'new_password', 'dense_mode', 'default_view', 'escape_navigates_to_default_view',
  'web_left_sidebar_show_channel_folders', 'web_left_sidebar_unreads_count_summary', 'web_inbox_show_channel_folders', 'demote_streams',
  'realm_name_in_notifications', 'night_mode', 'left_side_userlist', 'enable_stream_sounds',
];

/**
 * Puts back, as `who`, every setting in `touched` to its value in `original` when the rule ends,
 * and reads them back. Only settings the rule changed on one of the run's identities.
 */
export function restoreLater(ctx: RuleContext, who: IdentityName, original: JsonObject, touched: Set<string>): void {
  ctx.cleanup(`restore the settings of ${who}`, async (c) => {
    const pairs = [...touched].filter((name) => original[name] !== undefined).map((name) => [name, wireOf(original[name] as SettingValue)] as const);
    if (pairs.length === 0) return;
    const client = c.as(who);
    const reply = await client.patch(PATH, pairs);
    if (reply.status !== 200) throw new Error(`restoring the settings of ${who} answered HTTP ${reply.status} ${reply.text.slice(0, 200)}; left changed: ${pairs.map(([name]) => name).join(', ')}`);
    const now = await ownSettings(client);
    const wrong = pairs.filter(([name]) => JSON.stringify(now[name]) !== JSON.stringify(original[name])).map(([name]) => `${name} (now ${JSON.stringify(now[name])}, was ${JSON.stringify(original[name])})`);
    if (wrong.length > 0) throw new Error(`settings of ${who} left changed after the restore: ${wrong.join(', ')}`);
  });
}

/** A `PATCH /settings` rule on a throwaway user's own settings (from level 89 unless the header says otherwise). */
export function throwawaySettingsRule(header: RuleHeader, body: (ctx: RuleContext, user: ThrowawayUser) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: ENDPOINT, levels: { min: USER_SETTINGS_LEVEL }, writes: true, needs: ['throwaway-user'] }, (ctx) => ctx.throwawayUser(), body);
}
