/**
 * The realm's email domains in their API shape (`GET /realm/domains`, register's
 * `realm_domains`), and the real server's `get_realm_email_validator`
 * (zerver/lib/email_validation.py): which addresses the realm refuses, and why.
 */
import { realmProperty } from '../../settings/realm-properties.js';
import type { World } from '../../state/world.js';

export interface RealmDomainState {
  readonly domain: string;
  readonly allow_subdomains: boolean;
}

/** In the order the domains were added, as the real server's unordered query returns them. */
export function realmDomainsState(world: World): RealmDomainState[] {
  return [...world.realmDomains.values()].map((d) => ({ domain: d.domain, allow_subdomains: d.allowSubdomains }));
}

/**
 * A few of the providers the real server's disposable-address list (the `disposable-email-domains`
 * package, thousands of entries) holds; addresses at other providers on that list are accepted here.
 */
const DISPOSABLE_DOMAINS: ReadonlySet<string> = new Set(['mailinator.com', 'guerrillamail.com', '10minutemail.com', 'yopmail.com', 'trashmail.com']);

/** Why an address may not belong to the realm: `DomainNotAllowedForRealmError`, `DisposableEmailError`, `EmailContainsPlusError`. */
export type EmailRefusal = 'outside-domains' | 'disposable' | 'plus';

/**
 * For a syntactically valid address: a realm restricted to its domains takes addresses without
 * `+` whose domain is one of them (or under one that allows subdomains); otherwise only
 * disposable providers are refused, when `disallow_disposable_email_addresses` is on.
 */
export function realmEmailRefusal(world: World, email: string): EmailRefusal | undefined {
  const at = email.lastIndexOf('@');
  let domain = email.slice(at + 1).toLowerCase();
  if (realmProperty(world, 'emails_restricted_to_domains') !== true) {
    return realmProperty(world, 'disallow_disposable_email_addresses') === true && DISPOSABLE_DOMAINS.has(domain) ? 'disposable' : undefined;
  }
  if (email.slice(0, at).includes('+')) return 'plus';
  if (world.realmDomains.has(domain)) return undefined;
  // Each parent domain in turn (`b.c`, then `c`), taken only when it allows subdomains.
  for (let dot = domain.indexOf('.'); dot >= 0; dot = domain.indexOf('.')) {
    domain = domain.slice(dot + 1);
    if (world.realmDomains.get(domain)?.allowSubdomains === true) return undefined;
  }
  return 'outside-domains';
}

/** `validate_email_is_valid`'s texts, used by invitations and email changes. */
export const EMAIL_REFUSAL_TEXT: Readonly<Record<EmailRefusal, string>> = {
  'outside-domains': 'Outside your domain.',
  disposable: 'Please use your real email address.',
  plus: 'Email addresses containing + are not allowed.',
};
