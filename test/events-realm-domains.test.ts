/**
 * `realm_domains` events (zerver/actions/realm_domains.py): `add`, `change` and `remove` go to
 * every active account, guests and bots included, match the OpenAPI schema, and a client
 * applying them converges with a fresh register. Removing the last domain of a restricted realm
 * first sends the `realm` update that lifts the restriction.
 */
import t from 'tap';
import { type ApiEvent, checkEventsConvergeFor } from './support/apply-events.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const OWNER = 'desdemona@zulip.com';
const DOMAINS = { fetchEventTypes: ['realm_domains', 'realm'], eventTypes: ['realm_domains', 'realm'] } as const;
const strip = (events: ApiEvent[] | undefined) => (events ?? []).map(({ id: _id, ...e }) => e);

const actions: Array<[string, (s: TestServer) => Promise<unknown>, Array<Record<string, unknown>>]> = [
  ['add', (s) => s.as(OWNER).post('/realm/domains', { domain: 'New.example', allow_subdomains: true }), [{ type: 'realm_domains', op: 'add', realm_domain: { domain: 'new.example', allow_subdomains: true } }]],
  ['change', (s) => s.as(OWNER).patch('/realm/domains/zulip.com', { allow_subdomains: true }), [{ type: 'realm_domains', op: 'change', realm_domain: { domain: 'zulip.com', allow_subdomains: true } }]],
  ['remove', (s) => s.as(OWNER).delete('/realm/domains/zulip.com'), [{ type: 'realm_domains', op: 'remove', domain: 'zulip.com' }]],
  [
    'remove the last domain of a restricted realm',
    async (s) => {
      await s.as(OWNER).patch('/realm', { emails_restricted_to_domains: true });
      return s.as(OWNER).delete('/realm/domains/zulip.com');
    },
    [
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: true },
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
      { type: 'realm_domains', op: 'remove', domain: 'zulip.com' },
    ],
  ],
];

for (const [what, action, expected] of actions) {
  t.test(`${what}: every active account gets the event and a client converges`, async (t) => {
    const s = testServer();
    const everyone = listenAll(s);
    const [hamlet] = await checkEventsConvergeFor(t, [s.as('hamlet@zulip.com')], { ...DOMAINS, action: () => action(s) });
    checkEventShapes(t, hamlet ?? []);
    t.same(strip(hamlet), expected);
    checkRecipients(t, everyone.received(), isEvent('realm_domains'), activeIds(s), 'realm_domains');
  });
}
