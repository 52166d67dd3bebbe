/**
 * Presence entries (section 2.4) and the time relations that hold on any server: a user who just
 * reported `active` has timestamps no older than the server's 55-second write granularity (plus
 * slack) before the server's own `server_timestamp`, and never after it.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { check, expectShape, expectSuccess } from '../../expect/assert.js';
import { v, type Validator } from '../../expect/shape.js';
import { objectField, registerState } from '../support/state-fetch.js';

/** Level 178: legacy entries always carry exactly `website` and `aggregated`, client `website`, pushable false. */
export const LEGACY_WEBSITE_ONLY = 178;
/** Level 263: `last_update_id` and `presence_last_update_id`. */
export const LAST_UPDATE_ID = 263;
/** Level 288: `history_limit_days`. */
export const HISTORY_LIMIT_DAYS = 288;

/** How much older than `server_timestamp` a fresh report's timestamps may be (55 s granularity + slack). */
export const FRESH_WINDOW_SECONDS = 65;

export const modernEntry = v.object({ active_timestamp: v.int({ min: 0 }), idle_timestamp: v.int({ min: 0 }) }, { exact: true });

const status = v.literal('active', 'idle');
const legacyWebsite = v.object({ client: v.literal('website'), status, timestamp: v.int({ min: 0 }), pushable: v.literal(false) }, { exact: true });
const legacyAggregated = v.object({ client: v.literal('website'), status, timestamp: v.int({ min: 0 }) }, { exact: true });
const legacyClient = v.object({ client: v.optional(v.string()), status, timestamp: v.int({ min: 0 }), pushable: v.optional(v.bool()) });

/** A legacy entry at the level: `{website, aggregated}` from 178, a map of clients before. */
export const legacyEntry = (level: number): Validator<unknown> =>
  level >= LEGACY_WEBSITE_ONLY ? v.object({ website: legacyWebsite, aggregated: legacyAggregated }, { exact: true }) : v.record(legacyClient);

export const modernPresences = v.record(modernEntry, { keyPattern: /^[0-9]+$/ });
export const legacyPresences = (level: number) => v.record(legacyEntry(level), { keyPattern: /@/ });

export interface PresenceReply {
  readonly presences: JsonObject;
  readonly server_timestamp: number;
  readonly presence_last_update_id?: number;
}

/** A `POST /users/me/presence` body with data, in the expected format, shape-checked. */
export function presenceBody(reply: Reply, format: 'modern' | 'legacy', level: number): PresenceReply {
  const body = expectSuccess(reply);
  const shape = v.object({
    presences: format === 'modern' ? modernPresences : legacyPresences(level),
    server_timestamp: v.number(),
    presence_last_update_id: level >= LAST_UPDATE_ID ? v.int({ min: -1 }) : v.optional(v.int()),
  });
  expectShape(body, shape, 'body', reply);
  if (level < LAST_UPDATE_ID) check(body.presence_last_update_id === undefined, `presence_last_update_id appears before level ${LAST_UPDATE_ID}`, reply);
  return body as unknown as PresenceReply;
}

/** `timestamp` lies within the fresh window before `reference` (seconds) and not after it. */
export function checkFresh(timestamp: number, reference: number, what: string): void {
  check(
    timestamp >= Math.floor(reference) - FRESH_WINDOW_SECONDS && timestamp <= Math.ceil(reference) + 1,
    `${what} = ${timestamp}: a user who just reported 'active' must have a timestamp within ${FRESH_WINDOW_SECONDS} s before the server time ${reference}`,
  );
}

/**
 * Whether the caller's own reports show (section 3.3): the realm has presence enabled and the
 * user is not invisible (`presence_enabled`). Otherwise nothing about the own entry is asserted.
 */
async function ownPresenceShown(client: ApiClient): Promise<boolean> {
  const { body } = await registerState(client, ['realm', 'user_settings'], { client_capabilities: { user_settings_object: true } });
  const settings = objectField(body, 'user_settings') ?? body;
  return body.realm_presence_disabled !== true && settings.presence_enabled !== false;
}

/** The caller's API email (the key of legacy entries) and user ID. */
async function ownKeys(client: ApiClient): Promise<{ email: string; id: number }> {
  const reply = await client.get('/users/me');
  const me = expectShape(expectSuccess(reply), v.object({ email: v.string(), user_id: v.int() }), 'body', reply);
  return { email: me.email, id: me.user_id };
}

/** What rules about a reporter's own entry need: whether it shows at all, and its keys. */
export interface OwnPresence {
  readonly shown: boolean;
  readonly email: string;
  readonly id: number;
}

/** The caller's `OwnPresence`: its settings through `POST /register`, then `GET /users/me`. */
export async function ownPresence(client: ApiClient): Promise<OwnPresence> {
  const shown = await ownPresenceShown(client);
  return { shown, ...(await ownKeys(client)) };
}
