/**
 * What every rule on `PATCH /realm/user_settings_defaults` (sections 2.7, 4.3) shares: reading the
 * defaults back from `POST /register`, restoring (and reading back) what a rule changed, and the
 * rule skeleton of a realm-wide change made as an administrator.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { expectEqual, fail } from '../../expect/assert.js';
import { objectField, registerState } from '../support/state-fetch.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import { NON_GUEST_READERS } from '../support/readers.js';
import type { Rule, RuleContext } from '../types.js';
import { type SettingValue, wireOf } from './user-settings-catalog.js';

export const ENDPOINT = 'PATCH /realm/user_settings_defaults';
export const PATH = '/realm/user_settings_defaults';

/** The defaults object of `POST /register` (present from level 95). */
export async function readDefaults(client: ApiClient): Promise<JsonObject> {
  const { body, reply } = await registerState(client, ['realm_user_settings_defaults']);
  const defaults = objectField(body, 'realm_user_settings_defaults');
  if (!defaults) fail('POST /register returned no realm_user_settings_defaults object', reply);
  return defaults;
}

/** Registers (once) a cleanup that puts back the original value of every setting in `touched` (read when the rule ends, so the set may grow). */
export function restoreLater(ctx: RuleContext, original: JsonObject, touched: Set<string>): void {
  ctx.cleanup('restore the realm user-settings defaults', async (c: CleanupContext) => {
    const pairs = [...touched].filter((name) => original[name] !== undefined).map((name) => [name, wireOf(original[name] as SettingValue)] as const);
    if (pairs.length === 0) return;
    const reply = await c.as('admin').patch(PATH, pairs);
    if (reply.status !== 200) throw new Error(`restoring defaults answered HTTP ${reply.status} ${reply.text.slice(0, 200)}; left changed: ${pairs.map(([name]) => name).join(', ')}`);
    // Read back: name every default that is still not what it was.
    const now = await readDefaults(c.as('admin'));
    const wrong = pairs.filter(([name]) => JSON.stringify(now[name]) !== JSON.stringify(original[name])).map(([name]) => `${name} (now ${JSON.stringify(now[name])}, was ${JSON.stringify(original[name])})`);
    if (wrong.length > 0) throw new Error(`realm user-settings defaults left changed after the restore: ${wrong.join(', ')}`);
  });
}

/** The notification sounds the target offers, from a defaults object. */
export const soundsOf = (defaults: JsonObject): string[] =>
  Array.isArray(defaults.available_notification_sounds) ? defaults.available_notification_sounds.filter((x): x is string => typeof x === 'string') : [];

/** Setting changes as request parameters (each value in its wire form). */
export function wirePairs(changes: ReadonlyArray<readonly [string, SettingValue]>): Array<readonly [string, string]> {
  return changes.map(([name, value]) => [name, wireOf(value)] as const);
}

/** Reads the defaults back through `client` and expects each change applied. */
export async function expectDefaultsApplied(client: ApiClient, changes: ReadonlyArray<readonly [string, SettingValue]>): Promise<void> {
  const after = await readDefaults(client);
  for (const [name, value] of changes) expectEqual(after[name], value, `realm_user_settings_defaults.${name}`);
}

/** Reads the defaults back through `client` and expects each of `names` as in `original` (`why` names the request that must not have changed it). */
export async function expectDefaultsUnchanged(client: ApiClient, original: JsonObject, names: Iterable<string>, why: string): Promise<void> {
  const after = await readDefaults(client);
  for (const name of names) expectEqual(after[name], original[name], `${name} after ${why}`);
}

/** What a realm-wide defaults rule's body gets. */
export interface DefaultsChange {
  readonly admin: ApiClient;
  /** Reads the defaults back: every user's register carries the same realm defaults (`NON_GUEST_READERS`). */
  readonly reader: ApiClient;
  /** The defaults as they were before the rule. */
  readonly original: JsonObject;
  /** Every setting the body changes must be added here: each is restored and read back after the rule. */
  readonly touched: Set<string>;
}

/**
 * A rule that changes realm-wide defaults as an administrator (from level 96 unless narrowed):
 * the body runs with the defaults read before it, and every setting it adds to `touched` is
 * restored and read back afterwards.
 */
export function defaultsRule(header: RuleHeader, body: (ctx: RuleContext, change: DefaultsChange) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: ENDPOINT, levels: { min: 96 }, writes: true, realmWide: true, needs: ['admin'], readers: NON_GUEST_READERS }, async (ctx) => {
    const admin = ctx.as('admin');
    const reader = ctx.reader('admin');
    const original = await readDefaults(reader);
    const touched = new Set<string>();
    restoreLater(ctx, original, touched);
    return { admin, reader, original, touched };
  }, body);
}
