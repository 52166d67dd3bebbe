/**
 * `PATCH /realm/user_settings_defaults` (sections 2.7, 4.3; level 96): administrators change the
 * personal settings new users start with. Every rule restores each setting it changed (the
 * defaults are realm-wide on a shared server); the state is read back from `POST /register`
 * (`realm_user_settings_defaults`). Which users get the new defaults is checked with users the
 * run creates.
 */
import fc from 'fast-check';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { expectDocumentedError } from '../../expect/deviation.js';
import { byCodePoint } from '../support/arbitraries.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule, RuleContext } from '../types.js';
import { ignoredNames, unknownParams } from '../conventions/unknown-parameters.js';
import { changeableSettingsAt, DENSE_MODE_REMOVED_AT, documentedLaterThan, invalidWire, SETTINGS, type SettingSpec, type SettingValue, settingsAt, validValue, wireOf } from './user-settings-catalog.js';
import { defaultsRule, ENDPOINT, expectDefaultsApplied, expectDefaultsUnchanged, PATH, readDefaults, soundsOf, wirePairs } from './user-settings-defaults-support.js';

const LEVELS = { min: 96 } as const;

/** One or more distinct settings with valid values at the level. */
function validChanges(ctx: RuleContext, sounds: readonly string[], maxLength = 6): fc.Arbitrary<Array<[string, SettingValue]>> {
  const specs = changeableSettingsAt(ctx.featureLevel, ctx.target.kind);
  return fc
    .uniqueArray(fc.constantFrom(...specs), { minLength: 1, maxLength, selector: (spec) => spec.name })
    .chain((chosen) => fc.tuple(...chosen.map((spec) => validValue(spec, ctx.featureLevel, sounds).map((value): [string, SettingValue] => [spec.name, value]))));
}

const noCredentials = credentialsRequired({
  id: 'user-settings-defaults/requires-credentials',
  endpoint: ENDPOINT,
  section: '4.3',
  levels: LEVELS,
  requests: [['PATCH', PATH, { enter_sends: true }], ['PATCH', PATH]],
});

const validValues = defaultsRule({
  id: 'user-settings-defaults/valid-values-applied',
  title: 'any set of settings with allowed values is accepted and shows in realm_user_settings_defaults',
  section: '4.3; 2.7',
}, async (ctx, { admin, reader, original, touched }) => {
  await ctx.property('settings and allowed values', [validChanges(ctx, soundsOf(original))], async (changes) => {
    for (const [name] of changes) touched.add(name);
    expectPlainSuccess(await admin.patch(PATH, wirePairs(changes)));
    await expectDefaultsApplied(reader, changes);
  });
});

const invalidValues = defaultsRule({
  id: 'user-settings-defaults/invalid-values-refused',
  title: 'a value of the wrong type or outside the allowed set answers 400 BAD_REQUEST and changes no setting of the request',
  section: '4.3; 7',
}, async (ctx, { admin, reader, original, touched }) => {
  const level = ctx.featureLevel;
  const refusing = settingsAt(level).filter((spec) => invalidWire(spec, level) !== undefined);
  const bools = settingsAt(level).filter((spec) => spec.kind === 'bool' && typeof original[spec.name] === 'boolean');
  const bad = fc.constantFrom(...refusing).chain((spec) => (invalidWire(spec, level) as fc.Arbitrary<string>).map((wire): [SettingSpec, string] => [spec, wire]));
  await ctx.property('an invalid value next to a valid change', [bad, fc.constantFrom(...bools), fc.boolean()], async ([spec, wire], companion, companionFirst) => {
    fc.pre(companion.name !== spec.name);
    touched.add(companion.name);
    const valid: [string, string] = [companion.name, JSON.stringify(!original[companion.name])];
    const invalid: [string, string] = [spec.name, wire];
    expectError(await admin.patch(PATH, companionFirst ? [valid, invalid] : [invalid, valid]), { status: 400, code: 'BAD_REQUEST' });
    await expectDefaultsUnchanged(reader, original, [companion.name, spec.name], 'a refused request');
  });
});

const nonAdmin: Rule = {
  id: 'user-settings-defaults/non-admin-refused',
  title: 'users who are not administrators are refused (before any parameter is read) and nothing changes',
  endpoint: ENDPOINT,
  section: '4.3; 5.5',
  levels: LEVELS,
  writes: false,
  needs: ['member', 'admin'],
  deviation: 'admin-only-code',
  async run(ctx) {
    const others = ctx.identities.filter((identity) => identity.role !== 'owner' && identity.role !== 'admin');
    const original = await readDefaults(ctx.as('member'));
    const bools = settingsAt(ctx.featureLevel).filter((spec) => spec.kind === 'bool' && typeof original[spec.name] === 'boolean');
    await ctx.property('non-administrators, valid or invalid requests', [fc.constantFrom(...others), fc.constantFrom(...bools), fc.constantFrom('flip', 'garbage', 'nothing')], async (who, spec, kind) => {
      const client = ctx.anonymous.withCredentials(who.email, who.apiKey);
      const params = kind === 'nothing' ? [] : [[spec.name, kind === 'flip' ? JSON.stringify(!original[spec.name]) : 'not-json'] as const];
      expectDocumentedError(ctx, await client.patch(PATH, params), 'admin-only-code');
      if (kind === 'flip') await expectDefaultsUnchanged(client, original, [spec.name], 'a refused request');
    }, { maxRuns: 12 });
  },
};

/** Names no server of any level accepts here (every known setting, old names included, is reserved). */
const RESERVED = [
  ...SETTINGS.map((spec) => spec.name),
  'emojiset', 'dense_mode', 'default_language', 'escape_navigates_to_default_view', 'enable_login_emails', 'enable_marketing_emails', 'timezone', 'default_view',
  'escape_navigates_to_default_view', 'web_mark_read_on_scroll_policy', 'web_left_sidebar_show_channel_folders',
  'web_left_sidebar_unreads_count_summary', 'web_inbox_show_channel_folders', 'allow_private_data_export', 'demote_streams',
];

const unknownIgnored = defaultsRule({
  id: 'user-settings-defaults/unknown-names-ignored',
  title: 'parameter names that are not settings are reported, sorted, in ignored_parameters_unsupported; the valid ones still apply',
  section: '4.3; 1 convention 4',
}, async (ctx, { admin, reader, original, touched }) => {
  const names = unknownParams(RESERVED, { minLength: 1, maxLength: 4 });
  await ctx.property('unknown names with and without a valid setting', [names, fc.option(validChanges(ctx, soundsOf(original), 2), { nil: undefined })], async (unknown, changes) => {
    for (const [name] of changes ?? []) touched.add(name);
    const reply = await admin.patch(PATH, [...unknown, ...wirePairs(changes ?? [])]);
    expectSuccess(reply, { ignored: ignoredNames(unknown) });
    if (changes) await expectDefaultsApplied(reader, changes);
  });
});

const laterLevelIgnored = defaultsRule({
  id: 'user-settings-defaults/later-setting-ignored',
  title: 'a setting the description dates after the server level is reported as ignored and does not appear in the defaults',
  section: '4.3; 9.2',
  levels: { min: 96, max: 384 },
}, async (ctx, { admin, reader, touched }) => {
  const later = documentedLaterThan(ctx.featureLevel);
  for (const spec of later) touched.add(spec.name);
  await ctx.property('settings from later levels', [fc.uniqueArray(fc.constantFrom(...later), { minLength: 1, maxLength: 3, selector: (spec) => spec.name })], async (specs) => {
    const reply = await admin.patch(PATH, specs.map((spec) => [spec.name, wireOf(spec.kind === 'bool' ? true : (spec.values?.[0] ?? ''))] as const));
    expectSuccess(reply, { ignored: specs.map((spec) => spec.name).sort(byCodePoint) });
    const after = await readDefaults(reader);
    for (const spec of specs) check(after[spec.name] === undefined, `realm_user_settings_defaults.${spec.name} exists at level ${ctx.featureLevel}`);
  }, { maxRuns: 8 });
});

const denseModeBefore = defaultsRule({
  id: 'user-settings-defaults/dense-mode-before-364',
  title: 'dense_mode is a boolean setting before level 364',
  section: '4.3',
  levels: { min: 96, max: DENSE_MODE_REMOVED_AT - 1 },
}, async (_ctx, { admin, reader, original, touched }) => {
  check(typeof original.dense_mode === 'boolean', 'realm_user_settings_defaults.dense_mode must be a boolean before level 364');
  touched.add('dense_mode');
  for (const value of [!original.dense_mode, original.dense_mode]) {
    expectSuccess(await admin.patch(PATH, { dense_mode: value }), { ignored: [] });
    expectEqual((await readDefaults(reader)).dense_mode, value, 'dense_mode');
  }
  expectError(await admin.patch(PATH, { dense_mode: 'yes' }), { status: 400, code: 'BAD_REQUEST' });
});

const denseModeRemoved: Rule = {
  id: 'user-settings-defaults/dense-mode-removed-at-364',
  title: 'from level 364 dense_mode is not a setting: it is reported as ignored and absent from the defaults',
  endpoint: ENDPOINT,
  section: '4.3',
  levels: { min: DENSE_MODE_REMOVED_AT },
  writes: true,
  realmWide: true,
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.as('admin');
    expectSuccess(await admin.patch(PATH, { dense_mode: true }), { ignored: ['dense_mode'] });
    check((await readDefaults(admin)).dense_mode === undefined, 'realm_user_settings_defaults.dense_mode exists from level 364');
  },
};

export const rules: readonly Rule[] = [noCredentials, validValues, invalidValues, nonAdmin, unknownIgnored, laterLevelIgnored, denseModeBefore, denseModeRemoved];
