/**
 * Shared pieces of the realm-domain rules: reading the list (`GET /realm/domains` and register's
 * `realm_domains`), exact error checks, and the realm-wide fixture that removes every domain of
 * the run afterwards and puts back `emails_restricted_to_domains` when removing the last domain
 * turned it off.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import { registerState } from '../support/state-fetch.js';
import type { Rule, RuleContext } from '../types.js';

export const LIST = 'GET /realm/domains';
export const ADD = 'POST /realm/domains';
export const ONE = 'PATCH, DELETE /realm/domains/{domain}';
export const SECTION = 'api/get-realm-domains; api/add-realm-domain';
/** From this level `domain` is a plain string (JSON-encoded before): the rules send it plain. */
export const PLAIN_DOMAIN_LEVEL = 63;
/** From this level only owners may add, change or remove domains (administrators before). */
export const OWNERS_ONLY_LEVEL = 143;

export interface Domain {
  readonly domain: string;
  readonly allow_subdomains: boolean;
}

const domainShape = v.object({ domain: v.string(), allow_subdomains: v.bool() });

/** `GET /realm/domains` as `client` reads it. */
export async function listDomains(client: ApiClient): Promise<Domain[]> {
  const reply = await client.get('/realm/domains');
  return expectShape(expectSuccess(reply), v.object({ domains: v.array(domainShape) }), 'body', reply).domains as Domain[];
}

/** Register's `realm_domains` as `client` reads it. */
export async function registeredDomains(client: ApiClient): Promise<Domain[]> {
  const { body, reply } = await registerState(client, ['realm_domains']);
  return expectShape(body, v.object({ realm_domains: v.array(domainShape) }), 'register', reply).realm_domains as Domain[];
}

/** A 400 error with `code` and exactly `msg`. */
export function expectExactError(reply: Reply, code: string, msg: string, what: string): void {
  expectError(reply, { status: 400, code });
  check(reply.body?.msg === msg, `${what}: msg should be ${JSON.stringify(msg)}, got ${JSON.stringify(reply.body?.msg)}`, reply);
}

async function removeRunDomains(c: CleanupContext, runTag: string, restrictedBefore: boolean): Promise<void> {
  const owner = c.as('owner');
  for (const entry of (await listDomains(owner)).filter((d) => d.domain.includes(runTag))) {
    const reply = await owner.delete(`/realm/domains/${encodeURIComponent(entry.domain)}`);
    if (reply.status !== 200) throw new Error(`deleting realm domain ${entry.domain} answered HTTP ${reply.status}; it stays in the realm`);
  }
  if (!restrictedBefore) return;
  const { body } = await registerState(owner, ['realm']);
  if (body.realm_emails_restricted_to_domains === true) return;
  const reply = await owner.patch('/realm', [['emails_restricted_to_domains', true]]);
  if (reply.status !== 200) throw new Error(`putting emails_restricted_to_domains back to true answered HTTP ${reply.status}; it stays off`);
}

/** A realm-wide rule; the run's domains are removed when it ends, whatever happened. */
export function domainRule(header: RuleHeader, body: (ctx: RuleContext, owner: ApiClient) => Promise<void>): Rule {
  const prepare = async (ctx: RuleContext): Promise<ApiClient> => {
    const owner = ctx.as('owner');
    const { body: realm } = await registerState(owner, ['realm']);
    const restrictedBefore = realm.realm_emails_restricted_to_domains === true;
    ctx.cleanup("remove the run's realm domains", (c) => removeRunDomains(c, ctx.runTag, restrictedBefore));
    return owner;
  };
  return fixtureRule(header, { endpoint: ADD, levels: { min: PLAIN_DOMAIN_LEVEL }, writes: true, realmWide: true, needs: ['owner', 'member'] }, prepare, body);
}

/** Adds a domain and checks the answer's `new_domain` (an ID and the stored name). */
export async function addDomain(client: ApiClient, sent: string, allowSubdomains: boolean, stored: string): Promise<void> {
  const reply = await client.post('/realm/domains', [['domain', sent], ['allow_subdomains', allowSubdomains]]);
  const body = expectShape(expectSuccess(reply), v.object({ new_domain: v.array(v.union(v.int({ min: 1 }), v.string())) }), 'body', reply) as JsonObject;
  const added = body.new_domain as unknown[];
  check(added.length === 2 && Number.isInteger(added[0]) && added[1] === stored, `new_domain should be [an ID, ${JSON.stringify(stored)}], got ${JSON.stringify(added)}`, reply);
}
