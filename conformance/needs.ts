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

export class NeedChecker {
  private devEndpoints: Promise<string | undefined> | undefined;

  constructor(
    private readonly info: TargetInfo,
    private readonly pool: IdentityPool,
    private readonly throwaway: ThrowawayUsers,
    private readonly anonymous: ApiClient,
  ) {}

  /** Why the rule cannot run here, or undefined when it can. */
  async unmet(rule: Rule): Promise<string | undefined> {
    const level = this.info.featureLevel;
    const { min, max } = rule.levels ?? {};
    if (min !== undefined && level < min) return `needs feature level >= ${min} (target: ${level})`;
    if (max !== undefined && level > max) return `applies up to feature level ${max} (target: ${level})`;
    for (const need of rule.needs ?? []) {
      const reason = await this.check(need);
      if (reason !== undefined) return reason;
    }
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
