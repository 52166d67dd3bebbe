/**
 * What changing the realm's user-settings defaults does (section 4.3): only users who join later
 * start with the new values, and the description's emoji-set names (`emojiset_a`, `emojiset_b`,
 * standing for the real server's `google` and `twitter`: deviation `emojiset-names`).
 */
import fc from 'fast-check';
import type { JsonObject } from '../../client/api-client.js';
import { expectEqual, expectError, expectSuccess, fail } from '../../expect/assert.js';
import { deviationById } from '../../deviations.js';
import { printableText } from '../support/arbitraries.js';
import { ownSettings } from '../support/state-fetch.js';
import type { Rule } from '../types.js';
import { changeableSettingsAt, type SettingSpec, type SettingValue, valuesAt, wireOf } from './user-settings-catalog.js';
import { defaultsRule, ENDPOINT, PATH, readDefaults, restoreLater, soundsOf, wirePairs } from './user-settings-defaults-support.js';

/** A valid value different from `current` (deterministic: these rules create users, so they run once). */
function otherValue(spec: SettingSpec, level: number, current: unknown, sounds: readonly string[]): SettingValue | undefined {
  switch (spec.kind) {
    case 'bool':
      return typeof current === 'boolean' ? !current : undefined;
    case 'int': {
      const [min, max] = spec.values as readonly [number, number];
      return current === min ? max : min;
    }
    case 'sound':
      return sounds.find((sound) => sound !== current);
    default:
      return valuesAt(spec, level).find((value) => value !== current);
  }
}

const onlyNewUsers: Rule = {
  id: 'user-settings-defaults/only-new-users-get-defaults',
  title: 'users created after a change start with the new defaults; users who existed keep their settings',
  endpoint: ENDPOINT,
  section: '4.3',
  levels: { min: 96 },
  writes: true,
  realmWide: true,
  needs: ['admin', 'throwaway-user'],
  async run(ctx) {
    const admin = ctx.as('admin');
    // Taken before the change: this user existed when the defaults changed.
    const existing = await ctx.throwawayUser();
    const before = await ownSettings(existing.client);
    // The realm's defaults, the same in every user's register: read by the new user.
    const original = await readDefaults(existing.client);
    const sounds = soundsOf(original);
    const changes: Array<[string, SettingValue]> = [];
    for (const spec of changeableSettingsAt(ctx.featureLevel, ctx.target.kind)) {
      const value = otherValue(spec, ctx.featureLevel, original[spec.name], sounds);
      if (value !== undefined) changes.push([spec.name, value]);
    }
    restoreLater(ctx, original, new Set(changes.map(([name]) => name)));
    expectSuccess(await admin.patch(PATH, wirePairs(changes)), { ignored: [] });
    const after = await ownSettings(existing.client);
    for (const [name] of changes) expectEqual(after[name], before[name], `the existing user's ${name} after the change`);
    // Created after the change: it must start with every new default.
    const fresh = await ctx.throwawayUser();
    const settings: JsonObject = await ownSettings(fresh.client);
    for (const [name, value] of changes) expectEqual(settings[name], value, `a new user's ${name}`);
  },
};

const emojisetNames = defaultsRule({
  id: 'user-settings-defaults/emojiset-values',
  title: "emojiset takes 'text' and the two bundled sets (described as emojiset_a and emojiset_b) and refuses other names",
  section: '4.3',
  deviation: 'emojiset-names',
}, async (ctx, { admin, reader, touched }) => {
  touched.add('emojiset');
  for (const { documented, real } of deviationById('emojiset-names').spellings ?? []) {
    const reply = await admin.patch(PATH, { emojiset: documented });
    if (reply.status === 200) {
      expectSuccess(reply, { ignored: [] });
    } else {
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
      ctx.deviation('emojiset-names', `emojiset '${documented}' refused; the real name is '${real}'`);
      expectSuccess(await admin.patch(PATH, { emojiset: real }), { ignored: [] });
    }
    const stored = (await readDefaults(reader)).emojiset;
    if (stored === real) {
      if (reply.status === 200) ctx.deviation('emojiset-names', `emojiset '${documented}' is reported as '${real}'`);
    } else if (stored !== documented) {
      fail(`realm_user_settings_defaults.emojiset after setting '${documented}': expected '${documented}' (or '${real}'), got ${JSON.stringify(stored)}`);
    }
  }
  expectSuccess(await admin.patch(PATH, { emojiset: 'text' }), { ignored: [] });
  expectEqual((await readDefaults(reader)).emojiset, 'text', 'emojiset');
  const known = new Set(['text', 'emojiset_a', 'emojiset_b', 'google', 'twitter', 'google-blob']);
  await ctx.property('names that are no emoji set', [fc.oneof(printableText(12), fc.constantFrom('Text', 'GOOGLE', 'apple', 'emojiset_c', ''))], async (name) => {
    fc.pre(!known.has(name));
    expectError(await admin.patch(PATH, { emojiset: wireOf(name) }), { status: 400, code: 'BAD_REQUEST' });
  }, { maxRuns: 10 });
  expectEqual((await readDefaults(reader)).emojiset, 'text', 'emojiset after refused names');
});

export const rules: readonly Rule[] = [onlyNewUsers, emojisetNames];
