/**
 * Adding, changing and removing the realm's email domains, as the real server's
 * zerver/views/realm_domains.py and zerver/actions/realm_domains.py: each change sends a
 * `realm_domains` event to every active account of the realm.
 */
import type { RealmDomain } from '../../entities/realm-records.js';
import { badRequest } from '../../errors.js';
import { domainError } from '../../entities/domain-names.js';
import { activeRealmUserIds } from '../../queries/users/access.js';
import { REALM_PROPERTIES, realmProperty } from '../../settings/realm-properties.js';
import type { World } from '../../state/world.js';
import { applyRealmProperties } from './realm-properties.js';

const noEntry = (domain: string) => badRequest(`No entry found for domain ${domain}.`);

/** Adds `rawDomain` (stripped and lowercased first, as the real view does); returns the new entry. */
export function addRealmDomain(world: World, rawDomain: string, allowSubdomains: boolean): RealmDomain {
  const domain = rawDomain.trim().toLowerCase();
  const error = domainError(domain);
  if (error !== undefined) throw badRequest(`Invalid domain: ${error}`);
  if (world.realmDomains.has(domain)) throw badRequest(`The domain ${domain} is already a part of your organization.`);
  const id = world.ids.next('realmDomain');
  world.realmDomains.set(domain, { id, domain, allowSubdomains });
  world.events.send({ type: 'realm_domains', op: 'add', realm_domain: { domain, allow_subdomains: allowSubdomains } }, activeRealmUserIds(world));
  return { id, domain, allowSubdomains };
}

/** The path's domain is matched exactly (not stripped or lowercased), as the real view does. */
export function changeRealmDomain(world: World, domain: string, allowSubdomains: boolean): void {
  const entry = world.realmDomains.get(domain);
  if (!entry) throw noEntry(domain);
  entry.allowSubdomains = allowSubdomains;
  world.events.send({ type: 'realm_domains', op: 'change', realm_domain: { domain, allow_subdomains: allowSubdomains } }, activeRealmUserIds(world));
}

/**
 * Removing the last domain also turns `emails_restricted_to_domains` off (with its `realm` event
 * first), since a restriction to no domains would refuse everyone.
 */
export function removeRealmDomain(world: World, domain: string): void {
  if (!world.realmDomains.delete(domain)) throw noEntry(domain);
  if (world.realmDomains.size === 0 && realmProperty(world, 'emails_restricted_to_domains') === true) {
    const def = REALM_PROPERTIES.find((d) => d.name === 'emails_restricted_to_domains');
    if (def) applyRealmProperties(world, [{ def, value: false }]);
  }
  world.events.send({ type: 'realm_domains', op: 'remove', domain }, activeRealmUserIds(world));
}
