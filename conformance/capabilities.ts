/** The capabilities a run had (or lacked, and why), for the report's coverage section. */
import type { CapabilityState } from './coverage.js';
import type { ThrowawayUsers } from './credentials/throwaway.js';
import type { TargetInfo } from './targets/target.js';

export interface CapabilityOptions {
  readonly allowRealmWrites?: boolean;
  readonly allowUserCreation?: boolean;
}

export function capabilityStates(info: TargetInfo, realmWrites: boolean, options: CapabilityOptions, throwaway: ThrowawayUsers): CapabilityState[] {
  const embedded = info.kind === 'embedded';
  const probe = throwaway.probeResult;
  const userCreation: CapabilityState = probe
    ? { name: 'throwaway-user', available: probe.available, ...(probe.reason ? { detail: probe.reason } : { detail: 'users created for destructive rules, deactivated at the end' }) }
    : options.allowUserCreation === false || (options.allowUserCreation === undefined && !embedded)
      ? { name: 'throwaway-user', available: false, detail: 'not allowed: pass --allow-user-creation and --throwaway-email-domain' }
      : { name: 'throwaway-user', available: true, detail: 'allowed; no rule needed one' };
  return [
    {
      name: 'realm-writes',
      available: realmWrites,
      detail: realmWrites ? (options.allowRealmWrites ? '--allow-realm-writes' : 'embedded server: allowed by default') : 'not allowed: pass --allow-realm-writes',
    },
    userCreation,
    { name: 'dev-endpoints', available: info.devAuth, ...(info.devAuth ? {} : { detail: 'authentication_methods.dev is off' }) },
    { name: 'email-auth', available: info.emailAuth, ...(info.emailAuth ? {} : { detail: 'email_auth_enabled is false' }) },
  ];
}
