/**
 * `PATCH /realm` for the organization settings of lib/settings/realm-properties.ts: everything is
 * validated first (`planRealmProperties`), then applied with one `realm`/`update` event per
 * changed setting (`applyRealmProperties`), as the real server's `do_set_realm_property`.
 */
import { badRequest, badValue, mustBeOwner } from '../../errors.js';
import { LANGUAGE_NAMES } from '../../data/languages.js';
import { isOwner, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { activeRealmUserIds } from '../../queries/users/access.js';
import { REALM_PROPERTIES, type RealmPropertyDef, type RealmPropertyValue } from '../../settings/realm-properties.js';
import type { World } from '../../state/world.js';

/** The values sent, by API name, already type-checked (integers, the special texts, booleans, strings). */
export type RealmPropertyInput = ReadonlyMap<string, string | number | boolean>;

export interface PlannedProperty {
  readonly def: RealmPropertyDef;
  readonly value: RealmPropertyValue;
}

const LIMITS: ReadonlySet<string> = new Set([
  'message_content_delete_limit_seconds',
  'move_messages_between_streams_limit_seconds',
  'move_messages_within_stream_limit_seconds',
]);

/** A positive number of seconds, or `unlimited` (null). */
function parseLimit(name: string, raw: string | number | boolean): number | null {
  if (raw === 'unlimited') return null;
  if (typeof raw !== 'number' || raw <= 0) throw badValue(name, raw);
  return raw;
}

/** A positive number of days, or `unlimited` (`forever` before FL 91), stored as -1. */
function parseRetention(world: World, raw: string | number | boolean): number {
  const unlimited = world.has(FEATURES.RETENTION_UNLIMITED) ? 'unlimited' : 'forever';
  if (raw === unlimited) return -1;
  if (typeof raw !== 'number' || raw <= 0) throw badValue('message_retention_days', raw);
  return raw;
}

/** Validates every sent setting in the real server's order; returns the ones that change. */
export function planRealmProperties(world: World, actor: User, input: RealmPropertyInput): PlannedProperty[] {
  const language = input.get('default_language');
  if (language !== undefined && !LANGUAGE_NAMES.has(String(language))) throw badRequest(`Invalid language '${language}'`);
  const retention = input.get('message_retention_days');
  if (retention !== undefined && !isOwner(actor)) throw mustBeOwner();
  if (REALM_PROPERTIES.some((def) => def.ownerOnly && input.has(def.name)) && !isOwner(actor)) throw mustBeOwner();
  const planned: PlannedProperty[] = [];
  for (const def of REALM_PROPERTIES) {
    const raw = input.get(def.name);
    if (raw === undefined) continue;
    let value: RealmPropertyValue = raw;
    if (LIMITS.has(def.name)) value = parseLimit(def.name, raw);
    else if (def.name === 'message_retention_days') value = parseRetention(world, raw);
    // Like the real server, org_type is applied and reported even when unchanged.
    if (value !== def.get(world) || def.name === 'org_type') planned.push({ def, value });
  }
  return planned;
}

/** Applies planned changes, announcing each; returns the response data entries. */
export function applyRealmProperties(world: World, planned: readonly PlannedProperty[]): Array<[string, unknown]> {
  const everyone = activeRealmUserIds(world);
  return planned.map(({ def, value }) => {
    def.set(world, value);
    world.events.send({ type: 'realm', op: 'update', property: def.name, value }, everyone);
    return [def.name, def.isString ? 'updated' : def.responseValue ? def.responseValue(value) : value];
  });
}

/**
 * Before level 195 the real view answered `default_code_block_language` whenever it was sent,
 * changed or not, with the sent language or null for "" (its old "no default"), in place of
 * `"updated"`.
 */
export function legacyRealmPropertyAnswers(world: World, input: RealmPropertyInput): Array<[string, unknown]> {
  const language = input.get('default_code_block_language');
  if (language === undefined || world.has(FEATURES.CODE_BLOCK_LANGUAGE_EMPTY)) return [];
  return [['default_code_block_language', language === '' ? null : language]];
}
