/**
 * Realm domains: `GET /realm/domains` for every account; `POST /realm/domains` and
 * `PATCH`/`DELETE /realm/domains/{domain}` for owners from level 143 (administrators before),
 * checked before any parameter, with the real server's texts; `realm_domains` events with
 * `add`, `change` and `remove` ops to every account; register's `realm_domains`.
 * Realm-wide: every domain of the run is removed when its rule ends.
 */
import type { ApiClient } from '../../client/api-client.js';
import { check, expectEqual, expectSuccess } from '../../expect/assert.js';
import { awaitEvent } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import type { Rule } from '../types.js';
import {
  ADD, addDomain, type Domain, domainRule, expectExactError, LIST, listDomains, ONE, OWNERS_ONLY_LEVEL, PLAIN_DOMAIN_LEVEL, registeredDomains, SECTION,
} from './realm-domains-support.js';

const path = (domain: string): string => `/realm/domains/${encodeURIComponent(domain)}`;
const noEntry = (domain: string): string => `No entry found for domain ${domain}.`;

async function expectListed(reader: ApiClient, entry: Domain | undefined, domain: string, when: string): Promise<void> {
  const find = (list: Domain[]) => list.find((d) => d.domain === domain);
  expectEqual(find(await listDomains(reader)), entry, `${domain} in GET /realm/domains ${when}`);
  expectEqual(find(await registeredDomains(reader)), entry, `${domain} in register's realm_domains ${when}`);
}

const lifecycle = domainRule({
  id: 'realm-domains/add-change-remove-with-events',
  title: 'an owner adds a domain (stripped and lowercased, answered as new_domain [ID, domain]), changes allow_subdomains and removes it; each is read back by a member through GET /realm/domains and register and sent as a realm_domains add/change/remove event; a duplicate and an unknown domain are refused with the real texts',
  endpoint: `${LIST}, ${ADD}, ${ONE}`,
  section: `${SECTION}; api/update-realm-domain; api/remove-realm-domain; api/get-events`,
}, async (ctx, owner) => {
  const member = ctx.as('member');
  const queue = await openStreamAs(ctx, 'member', ['realm_domains']);
  const domain = `${ctx.name('domain')}.example.com`;
  await addDomain(owner, `  ${domain.toUpperCase()} `, false, domain);
  await expectListed(member, { domain, allow_subdomains: false }, domain, 'after the addition');
  const added = await awaitEvent(queue, (e) => e.type === 'realm_domains' && e.op === 'add', 'the addition');
  expectEqual(added.realm_domain, { domain, allow_subdomains: false }, 'the add event\'s realm_domain');
  expectExactError(await owner.post('/realm/domains', [['domain', ` ${domain}`], ['allow_subdomains', true]]), 'BAD_REQUEST', `The domain ${domain} is already a part of your organization.`, 'adding it again');

  expectSuccess(await owner.patch(path(domain), [['allow_subdomains', true]]));
  await expectListed(member, { domain, allow_subdomains: true }, domain, 'after the change');
  const changed = await awaitEvent(queue, (e) => e.type === 'realm_domains' && e.op === 'change', 'the change');
  expectEqual(changed.realm_domain, { domain, allow_subdomains: true }, 'the change event\'s realm_domain');

  expectSuccess(await owner.delete(path(domain)));
  await expectListed(member, undefined, domain, 'after the removal');
  const removed = await awaitEvent(queue, (e) => e.type === 'realm_domains' && e.op === 'remove', 'the removal');
  expectEqual(removed.domain, domain, 'the remove event\'s domain');
  expectExactError(await owner.delete(path(domain)), 'BAD_REQUEST', noEntry(domain), 'removing it again');
  expectExactError(await owner.patch(path(domain), [['allow_subdomains', false]]), 'BAD_REQUEST', noEntry(domain), 'changing a removed domain');
});

const invalid = domainRule({
  id: 'realm-domains/invalid-domains-refused',
  title: 'an empty domain, one without a dot, one starting or ending with a dot, with consecutive dots, with a label starting or ending with -, with other characters, or over 255 characters is refused with "Invalid domain: " and the real reason, and nothing is added',
  section: SECTION,
}, async (ctx, owner) => {
  const tag = ctx.runTag;
  const cases: Array<[string, string]> = [
    ['', "Domain can't be empty."],
    ['  ', "Domain can't be empty."],
    [`${tag}`, 'Domain must have at least one dot (.)'],
    [`.${tag}.com`, 'Domain cannot start or end with a dot (.)'],
    [`${tag}.com.`, 'Domain cannot start or end with a dot (.)'],
    [`${tag}..com`, "Consecutive '.' are not allowed."],
    [`-${tag}.com`, "Subdomains cannot start or end with a '-'."],
    [`${tag}.x-.com`, "Subdomains cannot start or end with a '-'."],
    [`${tag}_x.com`, "Domain can only have letters, numbers, '.' and '-'s."],
    [`${tag}.exämple.com`, "Domain can only have letters, numbers, '.' and '-'s."],
    [`${tag}.${'a'.repeat(256)}.com`, 'Domain is too long'],
  ];
  for (const [domain, reason] of cases) {
    const shown = domain.length > 40 ? `${domain.slice(0, 20)}... (${domain.length} characters)` : JSON.stringify(domain);
    expectExactError(await owner.post('/realm/domains', [['domain', domain], ['allow_subdomains', false]]), 'BAD_REQUEST', `Invalid domain: ${reason}`, `adding ${shown}`);
  }
  const ours = (await listDomains(ctx.as('member'))).filter((d) => d.domain.includes(tag));
  expectEqual(ours, [], 'the run\'s domains after the refusals');
});

const REFUSED_FROM_143 = ['admin', 'moderator', 'member', 'guest'] as const;
const REFUSED_BEFORE_143 = ['moderator', 'member', 'guest'] as const;

function writersOnly(id: string, levels: { min: number; max?: number }, refused: ReadonlyArray<'admin' | 'moderator' | 'member' | 'guest'>, msg: string): Rule {
  return domainRule({
    id,
    title: `every account (guests too) reads the domains; ${refused.join(', ')} may not add, change or remove one: 400 UNAUTHORIZED_PRINCIPAL "${msg}", before any parameter, and nothing changes`,
    endpoint: `${LIST}, ${ADD}, ${ONE}`,
    section: `${SECTION}; api/update-realm-domain; api/remove-realm-domain; api/changelog ${OWNERS_ONLY_LEVEL}`,
    levels,
    needs: ['admin', 'moderator', 'guest'],
  }, async (ctx, owner) => {
    const domain = `${ctx.name('domain')}.example.com`;
    await addDomain(owner, domain, false, domain);
    const expected = { domain, allow_subdomains: false };
    for (const who of refused) {
      const client = ctx.as(who);
      expectEqual((await listDomains(client)).find((d) => d.domain === domain), expected, `${domain} as the ${who} reads it`);
      expectExactError(await client.post('/realm/domains'), 'UNAUTHORIZED_PRINCIPAL', msg, `the ${who} adding a domain without parameters`);
      expectExactError(await client.post('/realm/domains', [['domain', `${who}-${domain}`], ['allow_subdomains', false]]), 'UNAUTHORIZED_PRINCIPAL', msg, `the ${who} adding a domain`);
      expectExactError(await client.patch(path(domain), [['allow_subdomains', true]]), 'UNAUTHORIZED_PRINCIPAL', msg, `the ${who} changing a domain`);
      expectExactError(await client.delete(path(domain)), 'UNAUTHORIZED_PRINCIPAL', msg, `the ${who} removing a domain`);
    }
    const ours = (await listDomains(ctx.as('member'))).filter((d) => d.domain.includes(ctx.runTag));
    expectEqual(ours, [expected], 'the run\'s domains after the refused requests');
    if (levels.max !== undefined) {
      // Below 143 administrators may write: the administrator removes the domain the owner added.
      expectSuccess(await ctx.as('admin').delete(path(domain)));
      check(!(await listDomains(owner)).some((d) => d.domain === domain), `${domain} is still listed after the administrator removed it`);
    }
  });
}

const ownersOnly = writersOnly('realm-domains/owners-only', { min: OWNERS_ONLY_LEVEL }, REFUSED_FROM_143, 'Must be an organization owner');
const administratorsBefore143 = writersOnly('realm-domains/administrators-before-143', { min: PLAIN_DOMAIN_LEVEL, max: OWNERS_ONLY_LEVEL - 1 }, REFUSED_BEFORE_143, 'Must be an organization administrator');

export const rules: readonly Rule[] = [lifecycle, invalid, ownersOnly, administratorsBefore143];
