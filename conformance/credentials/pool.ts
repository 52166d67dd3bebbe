/**
 * Turns credentials into identities (checked with `GET /users/me`, which also tells the role) and
 * assigns them to the names rules ask for (`admin`, `owner`, `member`, `second-member`, ...).
 */
import type { ApiClient } from '../client/api-client.js';
import { TargetError } from '../errors.js';
import type { Target, TargetInfo } from '../targets/target.js';
import { bootstrapDevCredentials } from './bootstrap.js';
import { collectCredentials, type CredentialOptions } from './sources.js';
import { type Credential, type Identity, type IdentityName, type Role, ROLE_BY_CODE } from './types.js';

/** Checks a credential; the reason as a string when the target refuses it. */
export async function verifyCredential(anonymous: ApiClient, credential: Credential): Promise<Identity | string> {
  const reply = await anonymous.withCredentials(credential.email, credential.apiKey).get('/users/me');
  const me = reply.body;
  if (reply.status !== 200 || me?.result !== 'success') {
    return `GET /users/me as ${credential.email} answered HTTP ${reply.status} ${String(me?.code ?? '')}`.trim();
  }
  const role = ROLE_BY_CODE.get(Number(me.role)) ?? (me.is_owner === true ? 'owner' : me.is_admin === true ? 'admin' : me.is_guest === true ? 'guest' : 'member');
  return {
    ...credential,
    userId: Number(me.user_id),
    role,
    fullName: typeof me.full_name === 'string' ? me.full_name : '',
    isBot: me.is_bot === true,
  };
}

export class IdentityPool {
  private readonly slots = new Map<IdentityName, Identity>();

  constructor(readonly identities: readonly Identity[]) {
    const humans = identities.filter((identity) => !identity.isBot);
    const first = (role: Role, skip?: Identity) => humans.find((identity) => identity.role === role && identity !== skip);
    const set = (name: IdentityName, identity: Identity | undefined) => {
      if (identity) this.slots.set(name, identity);
    };
    set('admin', first('admin') ?? first('owner'));
    set('owner', first('owner'));
    set('moderator', first('moderator'));
    set('guest', first('guest'));
    const member = first('member');
    set('member', member);
    set('second-member', member && first('member', member));
  }

  /** The identity filling `name`, if any. */
  get(name: IdentityName): Identity | undefined {
    return this.slots.get(name);
  }

  /** The identity for rules that need "some user": the first explicit credential, else the admin. */
  primary(): Identity | undefined {
    return this.identities.find((identity) => identity.source !== 'dev-bootstrap') ?? this.get('admin') ?? this.identities[0];
  }

  /** One line per filled name, for the report header (emails and sources, never keys). */
  describe(): string[] {
    return [...this.slots].map(([name, identity]) => `${name}: ${identity.email} (user ${identity.userId}, ${identity.role}, ${identity.source})`);
  }
}

/**
 * Explicit credentials (flags, zuliprc, environment), then development credentials for the roles
 * still missing. A refused explicit credential is a usage problem (TargetError, exit 2).
 */
export async function resolveIdentities(
  anonymous: ApiClient,
  target: Pick<Target, 'kind' | 'baseUrl'>,
  info: TargetInfo,
  options: CredentialOptions,
): Promise<{ pool: IdentityPool; warnings: string[] }> {
  const { credentials, warnings } = collectCredentials(options, target);
  const identities: Identity[] = [];
  for (const credential of credentials) {
    const identity = await verifyCredential(anonymous, credential);
    if (typeof identity === 'string') throw new TargetError(`credentials from ${credential.source} were refused: ${identity}`);
    if (!identities.some((known) => known.userId === identity.userId)) identities.push(identity);
  }
  if (options.bootstrap !== false) {
    const have = new Map<Role, number>();
    for (const identity of identities) have.set(identity.role, (have.get(identity.role) ?? 0) + 1);
    const extra = await bootstrapDevCredentials(anonymous, info.realmUrl, have, new Set(identities.map((i) => i.email)));
    for (const credential of extra) {
      const identity = await verifyCredential(anonymous, credential);
      if (typeof identity === 'string') warnings.push(`development credential ignored: ${identity}`);
      else if (!identities.some((known) => known.userId === identity.userId)) identities.push(identity);
    }
  }
  return { pool: new IdentityPool(identities), warnings };
}
