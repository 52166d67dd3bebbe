/**
 * `PATCH /settings` (the real server's `json_change_settings`; not in the description): a user's
 * own personal settings. Every value of every setting of the level, and one refused value of
 * each, are sent for a throwaway user (whose settings reach nobody); the run identities only
 * change settings that reach nobody else, and get them back (read back) when the rule ends.
 * Each change reads back from `POST /register` `user_settings` and sends a `user_settings` event.
 */
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { checkUnknownParamsReported } from '../conventions/unknown-parameters.js';
import { changeableSettingsAt, type SettingValue, wireOf } from '../realm/user-settings-catalog.js';
import { openStreamAs } from '../support/event-stream.js';
import { ownSettings } from '../support/state-fetch.js';
import type { Rule } from '../types.js';
import { batches, ENDPOINT, expectApplied, PATH, refusedValues, RESERVED_NAMES, restoreLater, throwawaySettingsRule, USER_SETTINGS_LEVEL, valueLists } from './settings-support.js';

const SECTION = 'api/update-settings';
/** Level 78: the answer reports ignored parameters. */
const IGNORED_REPORTED_LEVEL = 78;

const everyValue = throwawaySettingsRule({
  id: 'settings/every-value-applied',
  title: "every allowed value of every personal setting of the level (the sounds, emoji sets, languages and time zones the server offers included) is accepted and read back from the user's own settings, on every run",
  section: `${SECTION}; api/register-queue#user_settings`,
}, async (ctx, { client }) => {
  const lists = valueLists(ctx.featureLevel, await ownSettings(client));
  for (const changes of batches(lists)) {
    expectSuccess(await client.patch(PATH, changes.map(([name, value]) => [name, wireOf(value)] as const)), { ignored: [] });
    await expectApplied(client, changes, 'after the change');
  }
  for (const zone of ['Europe/Berlin', 'America/New_York']) {
    expectSuccess(await client.patch(PATH, { timezone: zone }), { ignored: [] });
    const me = await client.get('/users/me');
    expectEqual(expectShape(expectSuccess(me), v.object({ timezone: v.string() }), 'body', me).timezone, zone, 'timezone of GET /users/me', me);
  }
});

const refused = throwawaySettingsRule({
  id: 'settings/invalid-values-refused',
  title: 'a value outside each setting\'s list (a non-boolean, the next integer, a capitalised choice, the batching period at 0 s and a week and a second, unknown sounds, languages, emoji sets and time zones) answers 400 BAD_REQUEST and the settings read back unchanged',
  section: SECTION,
}, async (ctx, { client }) => {
  const before = await ownSettings(client);
  const cases = refusedValues(ctx.featureLevel);
  for (const { name, wire, why } of cases) {
    const reply = await client.patch(PATH, [[name, wire]]);
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${name}=${JSON.stringify(wire)} (${why}) should answer 400 BAD_REQUEST; got HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  }
  const after = await ownSettings(client);
  for (const name of new Set(cases.map((c) => c.name))) expectEqual(after[name], before[name], `user_settings.${name} after the refused values`);
});

const events: Rule = {
  id: 'settings/user-settings-events',
  title: 'a changed setting sends the user a user_settings update with property and value (default_language also its language_name); setting a value it already has sends nothing; the settings are put back and read back',
  endpoint: ENDPOINT,
  section: `${SECTION}; api/get-events#user_settings-update`,
  levels: { min: USER_SETTINGS_LEVEL },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const original = await ownSettings(client);
    // Settings that reach nobody else on any target (the member is a real account elsewhere).
    const flippable = changeableSettingsAt(ctx.featureLevel, 'url').filter((spec) => spec.kind === 'bool' && typeof original[spec.name] === 'boolean');
    const [first, second] = flippable;
    if (!first || !second) return ctx.skip('fewer than two boolean settings that reach nobody else');
    const touched = new Set<string>([first.name, second.name, 'default_language']);
    restoreLater(ctx, 'member', original, touched);
    const stream = await openStreamAs(ctx, 'member', ['user_settings'], { user_settings_object: true });
    const isUpdate = (property: string) => (e: { type?: unknown; op?: unknown; property?: unknown }) => e.type === 'user_settings' && e.op === 'update' && e.property === property;
    // A queue may first get late events of earlier changes: the awaited ones are told by their value too.
    const isUpdateTo = (property: string, value: unknown) => (e: { type?: unknown; op?: unknown; property?: unknown; value?: unknown }) => isUpdate(property)(e) && e.value === value;

    const flipped = !original[first.name];
    expectSuccess(await client.patch(PATH, [[first.name, wireOf(flipped)]]));
    await stream.next(isUpdateTo(first.name, flipped), `user_settings update of ${first.name} to ${String(flipped)}`);
    expectSuccess(await client.patch(PATH, [[first.name, wireOf(flipped)]]));
    expectSuccess(await client.patch(PATH, [[second.name, wireOf(!original[second.name])]]));
    const sentinel = await stream.next(isUpdateTo(second.name, !original[second.name]), `user_settings update of ${second.name}`);
    const repeated = sentinel.before.filter(isUpdate(first.name));
    check(repeated.length === 0, `setting ${first.name} to the value it had sent ${repeated.length} user_settings event(s)`);

    const language = original.default_language === 'de' ? 'en' : 'de';
    expectSuccess(await client.patch(PATH, { default_language: language }));
    const { event } = await stream.next(isUpdateTo('default_language', language), 'user_settings update of default_language');
    expectShape(event, v.object({ value: v.literal(language), language_name: v.string({ nonEmpty: true }) }), 'user_settings update of default_language');
  },
};

const unknownNames: Rule = {
  id: 'settings/unknown-parameters-reported',
  title: 'parameter names PATCH /settings does not read are reported, sorted, in ignored_parameters_unsupported, next to a setting sent with its current value (level 78)',
  endpoint: ENDPOINT,
  section: `${SECTION}; 1 convention 4`,
  levels: { min: IGNORED_REPORTED_LEVEL },
  writes: true,
  needs: ['moderator'],
  async run(ctx) {
    const client = ctx.as('moderator');
    const current = await ownSettings(client);
    const unchanged = typeof current.left_side_userlist === 'boolean' ? [['left_side_userlist', wireOf(current.left_side_userlist as SettingValue)] as const] : [];
    await checkUnknownParamsReported(ctx, { declared: RESERVED_NAMES, send: (pairs) => client.patch(PATH, [...unchanged, ...pairs]), maxRuns: 5 });
  },
};

const noCredentials = credentialsRequired({
  id: 'settings/requires-credentials',
  endpoint: ENDPOINT,
  section: SECTION,
  requests: [['PATCH', PATH, { enter_sends: true }], ['PATCH', PATH]],
});

export const rules: readonly Rule[] = [everyValue, refused, events, unknownNames, noCredentials];
