/** A target: where requests go (base URL + dispatcher) and what discovery learnt about it. */
import type { Dispatcher } from 'undici';

export interface Target {
  /** `embedded` (in-process handler) or `url` (a server reached over HTTP). */
  readonly kind: 'embedded' | 'url';
  /** Scheme, host and port, e.g. `http://localhost:9991`; API paths are `/api/v1/...` below it. */
  readonly baseUrl: string;
  readonly dispatcher: Dispatcher;
  /** Releases connections. */
  close(): Promise<void>;
}

/** What `GET /api/v1/server_settings` said about the target (section 9). */
export interface TargetInfo {
  readonly kind: Target['kind'];
  readonly baseUrl: string;
  /** The level rules are selected for: `--feature-level` when given, else the discovered one. */
  readonly featureLevel: number;
  /** `zulip_feature_level` as reported (0 when the server predates feature levels). */
  readonly discoveredFeatureLevel: number;
  readonly zulipVersion: string | undefined;
  /** The development login backend is on (`authentication_methods.dev`). */
  readonly devAuth: boolean;
  /** Password login works (`email_auth_enabled`, or `authentication_methods.password`). */
  readonly emailAuth: boolean;
  readonly pushNotificationsEnabled: boolean;
  readonly requireEmailFormatUsernames: boolean;
  /** The realm's URL (`realm_url`, or `realm_uri` on older servers) when the host maps to a realm. */
  readonly realmUrl: string | undefined;
  /** The whole `server_settings` body, for rules that need more. */
  readonly serverSettings: Readonly<Record<string, unknown>>;
}
