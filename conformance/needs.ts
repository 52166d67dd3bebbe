/**
 * Decides whether a rule can run on this target: its feature-level range and its needs
 * (identities, capabilities). Capability probes run once per run and are cached.
 */
import type { ApiClient } from './client/api-client.js';
import type { IdentityPool } from './credentials/pool.js';
import type { ThrowawayUsers } from './credentials/throwaway.js';
import type { IdentityName } from './credentials/types.js';
import type { Need, Rule } from './rules/types.js';
import type { TargetInfo } from './targets/target.js';

const IDENTITY_HINT = 'pass more credentials (--email/--api-key, --config-file) or use a development server';

/** Why a rule cannot run, and what was missing (`owner`, `throwaway-user`, `realm-writes`, `level`). */
export interface Unmet {
  readonly reason: string;
  readonly cause: string;
}

export const REALM_WRITES_REASON =
  'changes realm-wide settings every member inherits (restored afterwards): pass --allow-realm-writes to run it';

export class NeedChecker {
  private devEndpoints: Promise<string | undefined> | undefined;

  constructor(
    private readonly info: TargetInfo,
    private readonly pool: IdentityPool,
    private readonly throwaway: ThrowawayUsers,
    private readonly anonymous: ApiClient,
    /** Whether rules marked `realmWide` may run. */
    private readonly realmWrites: boolean,
  ) {}

  /** Why the rule cannot run here, or undefined when it can. */
  async unmet(rule: Rule): Promise<Unmet | undefined> {
    const level = this.info.featureLevel;
    const { min, max } = rule.levels ?? {};
    if (min !== undefined && level < min) return { reason: `needs feature level >= ${min} (target: ${level})`, cause: 'level' };
    if (max !== undefined && level > max) return { reason: `applies up to feature level ${max} (target: ${level})`, cause: 'level' };
    const realmWriteRefused = rule.realmWide === true && !this.realmWrites;
    for (const need of rule.needs ?? []) {
      // Never create a user (the throwaway probe does) for a rule that will not run anyway.
      if (need === 'throwaway-user' && realmWriteRefused) break;
      const reason = await this.check(need);
      if (reason !== undefined) return { reason, cause: need };
    }
    // Checked after the identities, so a rule the run could not run anyway counts for them.
    if (realmWriteRefused) return { reason: REALM_WRITES_REASON, cause: 'realm-writes' };
    return undefined;
  }

  private async check(need: Need): Promise<string | undefined> {
    switch (need) {
      case 'user':
        return this.pool.primary() ? undefined : `needs an authenticated user: no credentials (${IDENTITY_HINT})`;
      case 'dev-endpoints':
        this.devEndpoints ??= this.probeDevEndpoints();
        return this.devEndpoints;
      case 'email-auth':
        return this.info.emailAuth ? undefined : 'needs password login (email_auth_enabled is false on the target)';
      case 'throwaway-user': {
        const reason = await this.throwaway.availability();
        return reason === undefined ? undefined : `needs users the run can create: ${reason}`;
      }
      default:
        return this.pool.get(need as IdentityName) ? undefined : `needs the '${need}' identity, which this run does not have (${IDENTITY_HINT})`;
    }
  }

  private async probeDevEndpoints(): Promise<string | undefined> {
    if (!this.info.devAuth) return 'needs the development login endpoints (authentication_methods.dev is off)';
    const reply = await this.anonymous.get('/dev_list_users');
    return reply.status === 200 ? undefined : `needs the development login endpoints (dev_list_users answered HTTP ${reply.status})`;
  }
}
