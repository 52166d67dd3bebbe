/**
 * Target discovery: `GET /api/v1/server_settings` (no authentication) tells the feature level,
 * the version, and which login backends are on (section 9; behaviour reference section 2).
 */
import { ApiClient, TransportError } from '../client/api-client.js';
import { Transcript } from '../client/exchange.js';
import { TargetError } from '../errors.js';
import type { Target, TargetInfo } from './target.js';

const bool = (value: unknown): boolean => value === true;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export async function discover(target: Target, options: { featureLevel?: number; signal?: AbortSignal; requestTimeoutMs?: number } = {}): Promise<TargetInfo> {
  const client = new ApiClient({
    baseUrl: target.baseUrl,
    dispatcher: target.dispatcher,
    transcript: new Transcript(10),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
  });
  let reply;
  try {
    reply = await client.get('/server_settings');
  } catch (error) {
    if (error instanceof TransportError) throw new TargetError(`cannot reach ${target.baseUrl}: ${error.message}`);
    throw error;
  }
  const settings = reply.body;
  if (reply.status !== 200 || settings?.result !== 'success') {
    throw new TargetError(
      `${target.baseUrl} does not look like a chat server: GET /api/v1/server_settings answered HTTP ${reply.status}` +
        (reply.text ? ` ${reply.text.slice(0, 200)}` : ''),
    );
  }
  const level = settings.zulip_feature_level;
  const discovered = typeof level === 'number' && Number.isInteger(level) ? level : 0;
  const methods = (settings.authentication_methods ?? {}) as Readonly<Record<string, unknown>>;
  return {
    kind: target.kind,
    baseUrl: target.baseUrl,
    featureLevel: options.featureLevel ?? discovered,
    discoveredFeatureLevel: discovered,
    zulipVersion: str(settings.zulip_version),
    devAuth: bool(methods.dev),
    emailAuth: settings.email_auth_enabled === undefined ? bool(methods.password) : bool(settings.email_auth_enabled),
    pushNotificationsEnabled: bool(settings.push_notifications_enabled),
    requireEmailFormatUsernames: settings.require_email_format_usernames !== false,
    realmUrl: str(settings.realm_url) ?? str(settings.realm_uri),
    serverSettings: settings,
  };
}
