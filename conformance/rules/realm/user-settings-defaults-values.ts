/**
 * The whole value list of every enumerated realm user-settings default (sections 2.7, 4.3), on
 * every run rather than by chance: each allowed value is set once, a few settings per request (the
 * real server accepts any number in one PATCH) and read back once per request; one value outside
 * each list is refused with the real server's error; the settings renamed at level 219 answer
 * under their name of the target's level. Values are fixed lists, never random, and every change
 * is restored (and read back) as soon as the rule ends, since the defaults are realm-wide.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess, fail } from '../../expect/assert.js';
import { byCodePoint } from '../support/arbitraries.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule } from '../types.js';
import { type SettingValue, settingsAt, valuesAt } from './user-settings-catalog.js';
import { defaultsRule, expectDefaultsApplied, expectDefaultsUnchanged, PATH, readDefaults, soundsOf, wirePairs } from './user-settings-defaults-support.js';

/** The level at which `default_view` and `escape_navigates_to_default_view` were renamed. */
export const HOME_VIEW_RENAME_LEVEL = 219;

/** The real server's limits on `email_notifications_batching_period_seconds`: more than 0, at most one week. */
const BATCHING = { name: 'email_notifications_batching_period_seconds', min: 1, max: 7 * 24 * 60 * 60 } as const;

/** One setting and every value it takes at the level. */
interface ValueList {
  readonly name: string;
  readonly values: readonly SettingValue[];
}

/**
 * Enumerated defaults the real server has beyond the description's list (its change notes date
 * them), with their value lists: checked only from their level.
 */
const REAL_SERVER_ENUMS: ReadonlyArray<{ name: string; since: number; values: readonly SettingValue[] }> = [
  { name: 'web_mark_read_on_scroll_policy', since: 175, values: [1, 2, 3] },
];

/** The home-view settings under their name at `level` (renamed at 219; `inbox` came with the new name). */
export function homeViewSettings(level: number): { view: ValueList; escape: string } {
  return level >= HOME_VIEW_RENAME_LEVEL
    ? { view: { name: 'web_home_view', values: ['recent_topics', 'inbox', 'all_messages'] }, escape: 'web_escape_navigates_to_home_view' }
    : { view: { name: 'default_view', values: ['recent_topics', 'all_messages'] }, escape: 'escape_navigates_to_default_view' };
}

/**
 * Every enumerated setting at `level` with its whole list: booleans both ways, integer and
 * string enums, the sounds (`none` included), the batching period at its two limits.
 */
function valueLists(level: number, sounds: readonly string[]): ValueList[] {
  const lists: ValueList[] = [];
  for (const spec of settingsAt(level)) {
    if (spec.name === 'web_home_view') continue;
    if (spec.kind === 'bool') lists.push({ name: spec.name, values: [true, false] });
    else if (spec.kind === 'enum-int' || spec.kind === 'enum-string') lists.push({ name: spec.name, values: valuesAt(spec, level) });
    else if (spec.kind === 'sound' && sounds.length > 0) lists.push({ name: spec.name, values: [...sounds, 'none'] });
    else if (spec.name === BATCHING.name) lists.push({ name: spec.name, values: [BATCHING.min, BATCHING.max] });
  }
  const home = homeViewSettings(level);
  lists.push(home.view, { name: home.escape, values: [true, false] });
  for (const extra of REAL_SERVER_ENUMS) if (level >= extra.since) lists.push({ name: extra.name, values: extra.values });
  return lists;
}

/** Request `k` sets each setting to value `k` of its list (the last one again once a list runs out). */
function batches(lists: readonly ValueList[]): Array<Array<[string, SettingValue]>> {
  const rounds = Math.max(...lists.map((list) => list.values.length));
  return Array.from({ length: rounds }, (_, k) => lists.map((list): [string, SettingValue] => [list.name, list.values[Math.min(k, list.values.length - 1)]!]));
}

const everyValue = defaultsRule({
  id: 'user-settings-defaults/every-enum-value-applied',
  title: 'every allowed value of every enumerated default (and the batching period at 1 s and one week) is accepted and read back, on every run',
  section: '4.3; 2.7; 8',
}, async (ctx, { admin, reader, original, touched }) => {
  const lists = valueLists(ctx.featureLevel, soundsOf(original));
  for (const list of lists) touched.add(list.name);
  for (const changes of batches(lists)) {
    expectSuccess(await admin.patch(PATH, wirePairs(changes)), { ignored: [] });
    await expectDefaultsApplied(reader, changes);
  }
});

/** One wire value just outside each list at `level`, with the setting it is sent to. */
function outsideValues(level: number): Array<{ name: string; wire: string; why: string }> {
  const out: Array<{ name: string; wire: string; why: string }> = [];
  for (const spec of settingsAt(level)) {
    if (!spec.refusesOthers) continue;
    const allowed = valuesAt(spec, level);
    if (spec.kind === 'enum-int') {
      const numbers = allowed as readonly number[];
      out.push({ name: spec.name, wire: String(Math.max(...numbers) + 1), why: 'one above the last value' });
      // Values the description dates later than the level are outside the list too.
      for (const value of spec.values ?? []) if (!allowed.includes(value)) out.push({ name: spec.name, wire: String(value), why: `a value from a later level` });
    } else if (spec.kind === 'enum-string' && spec.name !== 'web_home_view') {
      out.push({ name: spec.name, wire: String(allowed[0]).toUpperCase(), why: 'an allowed value in capitals' });
    }
  }
  const home = homeViewSettings(level);
  out.push({ name: home.view.name, wire: 'Inbox_view', why: 'no home view' });
  for (const extra of REAL_SERVER_ENUMS) if (level >= extra.since) out.push({ name: extra.name, wire: String(Math.max(...(extra.values as number[])) + 1), why: 'one above the last value' });
  return out;
}

/** The real server names the parameter: `Invalid <name>` (then, for validated integers, why). */
function expectInvalid(reply: Awaited<ReturnType<ApiClient['patch']>>, name: string, what: string): void {
  expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  const msg = String(reply.body?.msg ?? '');
  check(msg === `Invalid ${name}` || msg.startsWith(`Invalid ${name}:`), `${what}: msg should be "Invalid ${name}" (optionally ": why"), got ${JSON.stringify(msg)}`, reply);
}

const outsideRefused = defaultsRule({
  id: 'user-settings-defaults/value-outside-list-refused',
  title: "one value just outside each enumerated default's list (and the batching period at 0 s and one week + 1 s) is refused with the real error, and nothing changes",
  section: '4.3; 7; 8',
}, async (ctx, { admin, reader, original, touched }) => {
  const cases = outsideValues(ctx.featureLevel);
  for (const name of [...cases.map((c) => c.name), BATCHING.name]) touched.add(name);
  for (const { name, wire, why } of cases) expectInvalid(await admin.patch(PATH, [[name, wire]]), name, `${name}=${wire} (${why})`);
  for (const seconds of [BATCHING.min - 1, BATCHING.max + 1]) {
    const reply = await admin.patch(PATH, [[BATCHING.name, String(seconds)]]);
    expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    check(reply.body?.msg === `Invalid email batching period: ${seconds} seconds`, `${BATCHING.name}=${seconds}: msg should be the real server's "Invalid email batching period: ${seconds} seconds", got ${JSON.stringify(reply.body?.msg)}`, reply);
  }
  await expectDefaultsUnchanged(reader, original, touched, 'the refused values');
});

/** Sets both home-view settings under `names` (read back by `reader`), expecting them applied (`applied`) or reported as ignored. */
async function homeViewRound(admin: ApiClient, reader: ApiClient, original: JsonObject, names: { view: string; escape: string }, applied: boolean, level: number): Promise<void> {
  const value = original[names.view] === 'all_messages' ? 'recent_topics' : 'all_messages';
  const escape = original[names.escape] === false;
  const reply = await admin.patch(PATH, [[names.view, value], [names.escape, JSON.stringify(escape)]]);
  const after = await readDefaults(reader);
  if (applied) {
    expectPlainSuccess(reply);
    expectEqual(after[names.view], value, `realm_user_settings_defaults.${names.view} at level ${level}`);
    expectEqual(after[names.escape], escape, `realm_user_settings_defaults.${names.escape} at level ${level}`);
    return;
  }
  expectSuccess(reply, { ignored: [names.escape, names.view].sort(byCodePoint) });
  for (const name of [names.view, names.escape]) if (after[name] !== undefined) fail(`realm_user_settings_defaults.${name} exists at level ${level}`);
}

const homeViewRenamed = defaultsRule({
  id: 'user-settings-defaults/home-view-names-at-level',
  title: 'default_view and escape_navigates_to_default_view are the settings before level 219 and web_home_view / web_escape_navigates_to_home_view from it; the other pair is reported as ignored',
  section: '4.3; 9.2',
}, async (ctx, { admin, reader, original, touched }) => {
  const current = homeViewSettings(ctx.featureLevel);
  const other = homeViewSettings(ctx.featureLevel >= HOME_VIEW_RENAME_LEVEL ? HOME_VIEW_RENAME_LEVEL - 1 : HOME_VIEW_RENAME_LEVEL);
  check(typeof original[current.view.name] === 'string', `realm_user_settings_defaults.${current.view.name} must be a string at level ${ctx.featureLevel}`);
  touched.add(current.view.name).add(current.escape);
  await homeViewRound(admin, reader, original, { view: current.view.name, escape: current.escape }, true, ctx.featureLevel);
  await homeViewRound(admin, reader, original, { view: other.view.name, escape: other.escape }, false, ctx.featureLevel);
});

export const rules: readonly Rule[] = [everyValue, outsideRefused, homeViewRenamed];
