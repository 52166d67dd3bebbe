/**
 * Users the run creates for destructive rules (`POST /users` as an administrator; the real server
 * also requires the `can_create_users` permission). Each carries the run tag in its email and
 * name and is deactivated when the run ends. The first creation doubles as the availability probe.
 * Creation needs the operator's consent on a real deployment (`--allow-user-creation`) and an
 * email domain the operator names (`--throwaway-email-domain`): the run never invents addresses
 * at the administrator's domain there. Against the embedded server both are implied.
 */
import { randomBytes } from 'node:crypto';
import type { CleanupFn } from '../cleanup.js';
import type { ApiClient } from '../client/api-client.js';
import type { TargetInfo } from '../targets/target.js';
import { devFetchKey } from './bootstrap.js';
import { verifyCredential } from './pool.js';
import type { Credential, Identity } from './types.js';

export interface ThrowawayDeps {
  /** A client authenticated as an administrator; undefined when the run has none. */
  readonly admin: ApiClient | undefined;
  readonly adminEmail: string | undefined;
  readonly anonymous: ApiClient;
  readonly info: TargetInfo;
  readonly runTag: string;
  /** Whether the run may create users at all. */
  readonly allowed: boolean;
  /** The domain of created users' emails; the administrator's (embedded server only) when absent. */
  readonly emailDomain: string | undefined;
  /**
   * Registers a run-level cleanup (LIFO, runs at the end of the run, even after failures), whose
   * clients wait out the rate limit however long it asks.
   */
  readonly registerCleanup: (label: string, cleanup: CleanupFn) => void;
}

/** A user the run created: its identity and the password it was created with. */
export interface CreatedUser {
  readonly identity: Identity;
  readonly password: string;
}

export class ThrowawayUsers {
  private unavailable: string | undefined;
  private probed = false;
  private readonly spare: CreatedUser[] = [];
  private counter = 0;

  constructor(private readonly deps: ThrowawayDeps) {}

  /** Undefined when users can be created; otherwise why not. Creates one user the first time. */
  async availability(): Promise<string | undefined> {
    if (!this.probed) {
      this.probed = true;
      if (!this.deps.allowed) {
        this.unavailable = 'user creation is not allowed on this target (pass --allow-user-creation and --throwaway-email-domain)';
        return this.unavailable;
      }
      try {
        this.spare.push(await this.create());
      } catch (error) {
        this.unavailable = error instanceof Error ? error.message : String(error);
      }
    }
    return this.unavailable;
  }

  /** What the probe found: undefined before any rule asked for a user (nothing was created). */
  get probeResult(): { readonly available: boolean; readonly reason?: string } | undefined {
    if (!this.probed) return undefined;
    return this.unavailable === undefined ? { available: true } : { available: false, reason: this.unavailable };
  }

  /** A fresh user no other rule has been given. */
  async take(): Promise<CreatedUser> {
    const reason = await this.availability();
    if (reason !== undefined) throw new Error(`cannot create throwaway users: ${reason}`);
    return this.spare.pop() ?? this.create();
  }

  private async create(): Promise<CreatedUser> {
    const { admin, adminEmail, anonymous, info, runTag } = this.deps;
    if (!admin || !adminEmail) throw new Error('needs an administrator identity');
    const n = ++this.counter;
    const domain = this.deps.emailDomain ?? adminEmail.split('@')[1] ?? 'example.com';
    const email = `${runTag}-user${n}@${domain}`.toLowerCase();
    const password = `${randomBytes(18).toString('base64url')}-Aa1!`;
    const created = await admin.post('/users', { email, password, full_name: `${runTag} throwaway ${n}` });
    const userId = created.status === 200 ? (created.body?.user_id ?? (await userIdByEmail(admin, email))) : undefined;
    if (created.status !== 200 || typeof userId !== 'number') {
      throw new Error(`POST /users answered HTTP ${created.status} ${String(created.body?.code ?? '')} ${String(created.body?.msg ?? '')}`.trim());
    }
    // Registered at once, so the user is deactivated at the end even if the rest fails.
    this.deps.registerCleanup(`deactivate throwaway user ${email} (${userId})`, async (c) => {
      const reply = await c.as('admin').delete(`/users/${userId}`);
      if (reply.status !== 200) throw new Error(`DELETE /users/${userId} answered HTTP ${reply.status} ${reply.text.slice(0, 200)}`);
    });
    let credential: Credential | undefined = info.devAuth ? await devFetchKey(anonymous, email) : undefined;
    if (!credential && info.emailAuth) {
      const fetched = await anonymous.post('/fetch_api_key', { username: email, password });
      const key = fetched.body?.api_key;
      if (typeof key === 'string') credential = { email, apiKey: key, source: 'created' };
    }
    if (!credential) throw new Error('created a user but could not obtain its API key (no development or password login)');
    const identity = await verifyCredential(anonymous, { ...credential, source: 'created' });
    if (typeof identity === 'string') throw new Error(identity);
    return { identity, password };
  }
}

/** Below level 30 `POST /users` does not answer the new user's ID: the administrator's user list has it. */
async function userIdByEmail(admin: ApiClient, email: string): Promise<unknown> {
  const members = (await admin.get('/users')).body?.members;
  if (!Array.isArray(members)) return undefined;
  const found = members.find((m: unknown) => {
    const row = m as { email?: unknown; delivery_email?: unknown } | null;
    return typeof row?.email === 'string' && (row.email.toLowerCase() === email || String(row.delivery_email ?? '').toLowerCase() === email);
  }) as { user_id?: unknown } | undefined;
  return found?.user_id;
}
