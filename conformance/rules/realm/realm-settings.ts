/**
 * `PATCH /realm` beyond the settings other rules change (the real server's `update_realm`): the
 * organization's name (40 code points) and description (1000), its default language, read
 * receipts (level 137), the waiting period (owners only), and a realm group setting as
 * `{new, old}` (`can_add_custom_emoji_group`, level 307). Realm-wide: every change is restored
 * and read back; settings that reach people (notifications, email, spectator access) are never
 * changed. Who may change settings at all is checked by sending the current values, so even a
 * target that wrongly accepts changes nothing.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectAnyError, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { filledTo } from '../channels/subscribe-support.js';
import { awaitEvent, expectPrivilegeRefused, settleQueue } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import { realmState } from '../support/realm-permissions.js';
import { fixtureRule } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

const UPDATE = 'PATCH /realm';
const SECTION = 'api/update-realm';
const READ_RECEIPTS_LEVEL = 137;
const EMOJI_GROUP_LEVEL = 307;
/** The real server's `Realm.MAX_REALM_NAME_LENGTH` and `MAX_REALM_DESCRIPTION_LENGTH`. */
const NAME_MAX = 40;
const DESCRIPTION_MAX = 1000;

/** A setting's register key (`realm_<name>`) and its value before the rule. */
type Originals = Map<string, unknown>;

const registerKey = (name: string): string => `realm_${name}`;

/** Puts back every setting in `originals` (as the owner) and reads them back. */
async function restore(c: CleanupContext, originals: Originals): Promise<void> {
  if (originals.size === 0) return;
  const owner = c.as('owner');
  const pairs = [...originals].map(([name, value]) => [name, name.endsWith('_group') ? { new: value } : value] as const);
  const reply = await owner.patch('/realm', pairs);
  if (reply.status !== 200) throw new Error(`restoring ${[...originals.keys()].join(', ')} answered HTTP ${reply.status} ${reply.text.slice(0, 200)}; they stay changed`);
  const now = await realmState(owner);
  const wrong = [...originals].filter(([name, value]) => JSON.stringify(now[registerKey(name)]) !== JSON.stringify(value)).map(([name]) => name);
  if (wrong.length > 0) throw new Error(`organization settings left changed after the restore: ${wrong.join(', ')}`);
}

interface SettingsFixture {
  readonly owner: ApiClient;
  readonly before: JsonObject;
  /** Records a setting the body is about to change, for the restore. */
  touch(name: string): void;
}

const settingsRule = (header: Parameters<typeof fixtureRule>[0], body: (ctx: RuleContext, fixture: SettingsFixture) => Promise<void>): Rule =>
  fixtureRule(header, { endpoint: UPDATE, writes: true, realmWide: true, needs: ['owner', 'admin', 'member'] }, async (ctx) => {
    const owner = ctx.as('owner');
    const before = await realmState(owner);
    const originals: Originals = new Map();
    ctx.cleanup('restore the organization settings', (c) => restore(c, originals));
    return { owner, before, touch: (name) => void (originals.has(name) || originals.set(name, before[registerKey(name)])) };
  }, body);

const isPropertyUpdate = (name: string) => (event: JsonObject): boolean => event.type === 'realm' && event.op === 'update' && event.property === name;

const valuesApplied = settingsRule({
  id: 'realm-settings/values-applied-and-announced',
  title: `the name (up to ${NAME_MAX} code points), description (up to ${DESCRIPTION_MAX}), default language, read receipts (137) and, for owners, the waiting period are stored, answered ("updated" for text) and sent as realm update events; one more code point and an unknown language are refused with 400 BAD_REQUEST, a negative waiting period with 400`,
  section: SECTION,
  // The queue is settled with a draft (level 87).
  levels: { min: 87 },
}, async (ctx, { owner, before, touch }) => {
  const queue = await openStreamAs(ctx, 'member', ['realm', 'drafts']);
  // Late realm updates of earlier rules would be taken for this rule's.
  await settleQueue(queue, ctx.as('member'), 'organization settings');
  const changes: Array<[string, unknown]> = [
    ['name', filledTo(ctx.name('org'), NAME_MAX, ['ö', '😀'])],
    ['description', filledTo(`${ctx.name('description')} `, DESCRIPTION_MAX, ['d', ' ', 'é'])],
    ['default_language', before.realm_default_language === 'de' ? 'fr' : 'de'],
    ['waiting_period_threshold', Number(before.realm_waiting_period_threshold ?? 0) + 1],
  ];
  if (ctx.featureLevel >= READ_RECEIPTS_LEVEL) changes.push(['enable_read_receipts', before.realm_enable_read_receipts !== true]);
  for (const [name, value] of changes) {
    touch(name);
    const reply = await owner.patch('/realm', [[name, value]]);
    expectEqual(expectSuccess(reply)[name], typeof value === 'string' ? 'updated' : value, `${name} in the response`, reply);
    expectEqual((await awaitEvent(queue, isPropertyUpdate(name), `the change of ${name}`)).value, value, `value of the realm update event of ${name}`);
  }
  const after = await realmState(ctx.as('member'));
  for (const [name, value] of changes) expectEqual(after[registerKey(name)], value, `${registerKey(name)} in the member's register state`);
  const refusals: Array<[string, string, unknown]> = [
    [`a name of ${NAME_MAX + 1} code points`, 'name', filledTo(ctx.name('org'), NAME_MAX + 1, ['n'])],
    [`a description of ${DESCRIPTION_MAX + 1} code points`, 'description', filledTo('d', DESCRIPTION_MAX + 1, ['d'])],
    ['an unknown language', 'default_language', 'no-such-language'],
  ];
  for (const [what, name, value] of refusals) {
    const reply = await owner.patch('/realm', [[name, value]]);
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${what} should be refused with 400 BAD_REQUEST; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  }
  // The code of a converter's refusal differs between versions (REQUEST_VARIABLE_INVALID, BAD_REQUEST).
  expectAnyError(await owner.patch('/realm', [['waiting_period_threshold', -1]]), 400);
  const unchanged = await realmState(owner);
  for (const [name, value] of changes) expectEqual(unchanged[registerKey(name)], value, `${registerKey(name)} after the refusals`);
});

/** Settings only owners may change, with the value to send back unchanged. */
const OWNER_ONLY = ['waiting_period_threshold', 'invite_required', 'emails_restricted_to_domains', 'disallow_disposable_email_addresses'];

const whoMay: Rule = {
  id: 'realm-settings/administrators-and-owners-only',
  title: 'moderators, members and guests may not change organization settings, and administrators not the owner-only ones (waiting period, invitations required, email domain rules): each answers 400 even when sending the current value',
  endpoint: UPDATE,
  section: SECTION,
  writes: true,
  needs: ['admin', 'moderator', 'member', 'guest'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const before = await realmState(admin);
    for (const who of ['moderator', 'member', 'guest'] as const) {
      expectPrivilegeRefused(await ctx.as(who).patch('/realm', { description: String(before.realm_description ?? '') }), `the ${who} setting the description`);
    }
    for (const name of OWNER_ONLY.filter((setting) => before[registerKey(setting)] !== undefined)) {
      const reply = await admin.patch('/realm', [[name, before[registerKey(name)]]]);
      expectError(reply, { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
    }
    const after = await realmState(admin);
    for (const name of ['description', ...OWNER_ONLY]) expectEqual(after[registerKey(name)], before[registerKey(name)], `${registerKey(name)} after the refused requests`);
  },
};

const groupSettingNewOld = settingsRule({
  id: 'realm-settings/group-setting-new-old',
  title: 'a realm group setting (can_add_custom_emoji_group) takes {new, old}: a stale old answers 400 EXPECTATION_MISMATCH and changes nothing; the current old stores the new value, sent as a realm update_dict event',
  section: `${SECTION}; api/group-setting-values`,
  levels: { min: EMOJI_GROUP_LEVEL },
}, async (ctx, { owner, before, touch }) => {
  const name = 'can_add_custom_emoji_group';
  const current = before[registerKey(name)];
  const groups = await owner.get('/user_groups');
  const system = new Map(((expectSuccess(groups).user_groups ?? []) as JsonObject[]).map((group) => [group.name, group.id]));
  const administrators = system.get('role:administrators');
  const moderators = system.get('role:moderators');
  const next = current === administrators ? moderators : administrators;
  const queue = await openStreamAs(ctx, 'member', ['realm']);
  touch(name);
  expectError(await owner.patch('/realm', [[name, { new: next, old: next }]]), { status: 400, code: 'EXPECTATION_MISMATCH' });
  expectEqual((await realmState(owner))[registerKey(name)], current, `${registerKey(name)} after a stale old value`);
  expectSuccess(await owner.patch('/realm', [[name, { new: next, old: current }]]));
  expectEqual((await realmState(ctx.as('member')))[registerKey(name)], next, `${registerKey(name)} after the change`);
  await awaitEvent(queue, (event) => event.type === 'realm' && event.op === 'update_dict' && JSON.stringify((event.data as JsonObject | undefined)?.[name]) === JSON.stringify(next), `the change of ${name}`);
});

export const rules: readonly Rule[] = [valuesApplied, whoMay, groupSettingNewOld];
