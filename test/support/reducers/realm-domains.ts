/** `realm_domains`: `add` appends, `change` updates `allow_subdomains`, `remove` drops the domain (zerver/lib/events.py). */
import { defineReducer, UnmodelledEvent } from './registry.js';

interface DomainEntry {
  domain: string;
  allow_subdomains: boolean;
}

defineReducer('realm_domains', (state, event) => {
  if (!('realm_domains' in state)) return;
  const domains = state.realm_domains as DomainEntry[];
  if (event.op === 'add') domains.push({ ...(event.realm_domain as DomainEntry) });
  else if (event.op === 'change') {
    const changed = event.realm_domain as DomainEntry;
    for (const entry of domains) if (entry.domain === changed.domain) entry.allow_subdomains = changed.allow_subdomains;
  } else if (event.op === 'remove') state.realm_domains = domains.filter((entry) => entry.domain !== event.domain);
  else throw new UnmodelledEvent(`realm_domains op ${String(event.op)}`);
});
