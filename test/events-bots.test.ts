import t from 'tap';
import { type ApiEvent, checkEventsConvergeFor, type State } from './support/apply-events.js';
import { AARON, DESDEMONA, HAMLET, IAGO, OTHELLO } from './support/channels.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { type Reply, testServer, type TestServer } from './support/harness.js';

// `realm_user` `add` carries the full avatar URL whatever the client (the real server's notify_created_user assumes
// client_gravatar false), so the observers register without client_gravatar.
const BOTS = {
  fetchEventTypes: ['realm_bot', 'realm_user', 'realm_user_groups'],
  eventTypes: ['realm_bot', 'realm_user', 'user_group'],
  registerParams: { client_gravatar: false },
} as const;
const DEFAULT_BOT = 'default-bot@zulip.com';
const OUTGOING = 'outgoing-webhook@zulip.com';

/** A client that gets a bot through `add` appends it; a fresh register lists bots by ID. */
const byId = (state: State): void => {
  if (Array.isArray(state.realm_bots)) (state.realm_bots as State[]).sort((a, b) => (a.user_id as number) - (b.user_id as number));
};

const admins = (s: TestServer): number[] => activeIds(s, (u) => !u.isBot && u.role <= 200);
const withOwner = (s: TestServer, email: string): number[] => [...new Set([...admins(s), s.id(email)])];

interface BotCase {
  readonly title: string;
  readonly level?: number;
  readonly observers: readonly string[];
  readonly action: (s: TestServer) => Promise<Reply>;
  /** The realm_bot events the first observer gets, without IDs. */
  readonly expected: (s: TestServer) => Record<string, unknown>[];
  /** Recipients of each realm_bot op. */
  readonly recipients: (s: TestServer) => Partial<Record<'add' | 'update' | 'delete' | 'remove', number[]>>;
}

const CASES: readonly BotCase[] = [
  {
    title: 'a member creates a bot: realm_bot add to the owner and administrators, realm_user add to everyone',
    observers: [HAMLET, IAGO, OTHELLO],
    action: (s) => s.as(HAMLET).post('/bots', { full_name: 'Build Bot', short_name: 'build' }),
    expected: (s) => [{ type: 'realm_bot', op: 'add', bot: { ...botShape(s, 25) } }],
    recipients: (s) => ({ add: withOwner(s, HAMLET) }),
  },
  {
    // Administrators' register lists every bot, this one too, so an administrator observer would
    // not converge: the real server has the same gap (`bot_owner_user_ids` vs `get_owned_bot_dicts`).
    title: 'a bot with a private default channel is announced to its owner only',
    observers: [DESDEMONA],
    action: (s) => s.as(DESDEMONA).post('/bots', { full_name: 'Secret Bot', short_name: 'secret', default_sending_stream: 'core team' }),
    expected: (s) => [{ type: 'realm_bot', op: 'add', bot: { ...botShape(s, 25) } }],
    recipients: (s) => ({ add: [s.id(DESDEMONA)] }),
  },
  {
    title: 'renaming and new default channels: one realm_bot update per field',
    observers: [DESDEMONA, HAMLET],
    action: (s) => s.as(DESDEMONA).patch(`/bots/${s.id(DEFAULT_BOT)}`, { full_name: 'New Name', default_sending_stream: 'Verona', default_events_register_stream: 'Denmark', default_all_public_streams: true }),
    expected: (s) => [
      { type: 'realm_bot', op: 'update', bot: { user_id: s.id(DEFAULT_BOT), full_name: 'New Name' } },
      { type: 'realm_bot', op: 'update', bot: { user_id: s.id(DEFAULT_BOT), default_sending_stream: 'Verona' } },
      { type: 'realm_bot', op: 'update', bot: { user_id: s.id(DEFAULT_BOT), default_events_register_stream: 'Denmark' } },
      { type: 'realm_bot', op: 'update', bot: { user_id: s.id(DEFAULT_BOT), default_all_public_streams: true } },
    ],
    recipients: (s) => ({ update: admins(s) }),
  },
  {
    title: 'a new owner: delete to the old member owner, add to the new one, update to administrators',
    observers: [AARON, HAMLET, IAGO],
    action: (s) => s.as(AARON).patch(`/bots/${s.id(OUTGOING)}`, { bot_owner_id: s.id(HAMLET) }),
    expected: (s) => [{ type: 'realm_bot', op: 'delete', bot: { user_id: s.id(OUTGOING) } }],
    recipients: (s) => ({ delete: [s.id(AARON)], add: [s.id(HAMLET)], update: admins(s) }),
  },
  {
    title: 'a new service URL and an API key: realm_bot updates with services and api_key',
    observers: [AARON, IAGO],
    action: async (s) => {
      await s.as(AARON).patch(`/bots/${s.id(OUTGOING)}`, { service_payload_url: JSON.stringify('https://example.org/h'), service_interface: 2 });
      return s.as(AARON).post(`/bots/${s.id(OUTGOING)}/api_key/regenerate`);
    },
    expected: (s) => {
      const token = s.world.bots.get(s.id(OUTGOING))?.services[0]?.token;
      return [
        { type: 'realm_bot', op: 'update', bot: { user_id: s.id(OUTGOING), services: [{ base_url: 'https://example.org/h', interface: 2, token }] } },
        { type: 'realm_bot', op: 'update', bot: { user_id: s.id(OUTGOING), api_key: s.world.users.get(s.id(OUTGOING))?.apiKey } },
      ];
    },
    recipients: (s) => ({ update: withOwner(s, AARON) }),
  },
  {
    title: 'DELETE /bots/{id}: realm_bot update is_active false to the owner and administrators',
    observers: [AARON, IAGO],
    action: (s) => s.as(AARON).delete(`/bots/${s.id(OUTGOING)}`),
    expected: (s) => [{ type: 'realm_bot', op: 'update', bot: { user_id: s.id(OUTGOING), is_active: false } }],
    recipients: (s) => ({ update: withOwner(s, AARON) }),
  },
  {
    title: 'reactivating a bot: realm_bot update is_active true to the owner and administrators',
    observers: [AARON, IAGO],
    action: async (s) => {
      await s.as(AARON).delete(`/bots/${s.id(OUTGOING)}`);
      return s.as(IAGO).post(`/users/${s.id(OUTGOING)}/reactivate`);
    },
    expected: (s) => [
      { type: 'realm_bot', op: 'update', bot: { user_id: s.id(OUTGOING), is_active: false } },
      { type: 'realm_bot', op: 'update', bot: { user_id: s.id(OUTGOING), is_active: true } },
    ],
    recipients: (s) => ({ update: withOwner(s, AARON) }),
  },
  {
    title: 'an administrator renames a bot through PATCH /users/{id}: realm_bot update with full_name',
    observers: [AARON, IAGO],
    action: (s) => s.as(IAGO).patch(`/users/${s.id(OUTGOING)}`, { full_name: 'Hook Renamed' }),
    expected: (s) => [{ type: 'realm_bot', op: 'update', bot: { user_id: s.id(OUTGOING), full_name: 'Hook Renamed' } }],
    recipients: (s) => ({ update: withOwner(s, AARON) }),
  },
  {
    title: 'below level 222 DELETE /bots/{id} sends realm_bot remove',
    level: 221,
    observers: [AARON, IAGO],
    action: (s) => s.as(AARON).delete(`/bots/${s.id(OUTGOING)}`),
    expected: (s) => [{ type: 'realm_bot', op: 'remove', bot: { user_id: s.id(OUTGOING), full_name: 'Outgoing Webhook' } }],
    recipients: (s) => ({ remove: withOwner(s, AARON) }),
  },
];

/** The bot dictionary as the world holds it after the action. */
function botShape(s: TestServer, id: number): Record<string, unknown> {
  const bot = s.world.users.get(id);
  return { user_id: id, email: bot?.deliveryEmail, api_key: bot?.apiKey, full_name: bot?.fullName, owner_id: bot?.botOwnerId };
}

for (const c of CASES) {
  t.test(`${c.title}; observers converge`, async (t) => {
    const s = testServer(c.level === undefined ? {} : { featureLevel: c.level });
    const everyone = listenAll(s);
    const events = await checkEventsConvergeFor(
      t,
      c.observers.map((email) => s.as(email)),
      { ...BOTS, setAside: byId, action: () => c.action(s).then((r) => t.equal(r.status, 200, r.text)) },
    );
    checkEventShapes(t, events.flat());
    const first = (events[0] ?? []).filter((e: ApiEvent) => e.type === 'realm_bot').map(({ id: _id, ...e }) => e);
    t.match(first, c.expected(s));
    t.equal(first.length, c.expected(s).length);
    const received = everyone.received();
    for (const [op, ids] of Object.entries(c.recipients(s))) checkRecipients(t, received, isEvent('realm_bot', op), ids ?? [], `realm_bot/${op}`);
  });
}

t.test('register: administrators get every bot (deactivated too), members their own, with services', async (t) => {
  const s = testServer();
  await s.as(AARON).delete(`/bots/${s.id(OUTGOING)}`);
  const iago = (await s.as(IAGO).post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots as State[];
  t.same(iago.map((b) => [b.user_id, b.is_active]), [[16, true], [17, true], [18, false]]);
  const outgoing = iago[2] ?? {};
  t.same(Object.keys(outgoing).sort(), ['api_key', 'avatar_url', 'bot_type', 'default_all_public_streams', 'default_events_register_stream', 'default_sending_stream', 'email', 'full_name', 'is_active', 'owner_id', 'services', 'user_id']);
  t.match(outgoing.services, [{ base_url: 'http://127.0.0.1:5002', interface: 1 }]);
  t.same(((await s.as(AARON).post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots as State[]).map((b) => b.user_id), [18]);
  t.same((await s.as(HAMLET).post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots, []);
});
