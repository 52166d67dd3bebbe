/** Credentials and the identities (user + role) the suite acts as. */

/** Organisation roles (section 2.3 `role`). */
export type Role = 'owner' | 'admin' | 'moderator' | 'member' | 'guest';

export const ROLE_BY_CODE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [100, 'owner'],
  [200, 'admin'],
  [300, 'moderator'],
  [400, 'member'],
  [600, 'guest'],
]);

/**
 * The identities rules ask for. `admin` is an administrator (an owner when there is no plain
 * administrator); `member` and `second-member` are two different members; `throwaway-user` is a
 * user the run creates (and deactivates at the end), the only kind destructive rules may touch.
 */
export type IdentityName = 'admin' | 'owner' | 'moderator' | 'member' | 'second-member' | 'guest';

/**
 * Capabilities a target may lack. `dev-endpoints`: `dev_list_users`/`dev_fetch_api_key` answer;
 * `throwaway-user`: the run can create users (`POST /users`) and get their keys; `email-auth`:
 * password login (`fetch_api_key`) is enabled.
 */
export type Capability = 'dev-endpoints' | 'throwaway-user' | 'email-auth';

/** What a rule needs: an identity by name, `user` (any authenticated identity), or a capability. */
export type Need = IdentityName | 'user' | Capability;

/** Where a credential came from (shown in the report, never the key). */
export type CredentialSource = 'flags' | 'env' | 'zuliprc' | 'dev-bootstrap' | 'created';

export interface Credential {
  /** The delivery (real) email: Basic authentication needs it, not the API email. */
  readonly email: string;
  readonly apiKey: string;
  readonly source: CredentialSource;
  /** The site the credential is for (zuliprc `site`, `ZULIP_SITE`), when known. */
  readonly site?: string;
}

/** A credential checked with `GET /users/me`. */
export interface Identity extends Credential {
  readonly userId: number;
  readonly role: Role;
  readonly fullName: string;
  readonly isBot: boolean;
}
