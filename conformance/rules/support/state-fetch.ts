/**
 * Reading state the API only exposes through `POST /register` (settings, the realm's settings
 * defaults, presence switches). Each read registers an event queue with only the wanted state
 * types and deletes it at once, so a run leaves no queues behind on a real server.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { expectSuccess } from '../../expect/assert.js';

export interface RegisterState {
  readonly body: JsonObject;
  readonly reply: Reply;
}

/** `POST /register` with `fetch_event_types` (and extra parameters), then `DELETE /events` for its queue. */
export async function registerState(client: ApiClient, types: readonly string[], extra: Readonly<Record<string, unknown>> = {}): Promise<RegisterState> {
  const reply = await client.post('/register', { fetch_event_types: types, event_types: types, ...extra });
  const body = expectSuccess(reply);
  if (typeof body.queue_id === 'string') await client.delete('/events', { queue_id: body.queue_id });
  return { body, reply };
}

/** An object-valued member of a register body (`realm_user_settings_defaults`, `user_settings`), or undefined. */
export function objectField(body: JsonObject, key: string): JsonObject | undefined {
  const value = body[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/**
 * The caller's own personal settings: the `user_settings` object (level 89), or the legacy
 * top-level keys of older servers.
 */
export async function ownSettings(client: ApiClient): Promise<JsonObject> {
  const { body } = await registerState(client, ['user_settings', 'update_display_settings', 'update_global_notifications'], {
    client_capabilities: { user_settings_object: true },
  });
  return objectField(body, 'user_settings') ?? body;
}
