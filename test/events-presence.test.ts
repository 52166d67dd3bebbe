import t from 'tap';
import { apiEmail } from '../lib/queries/users/users.js';
import { checkEventsConvergeFor, MODERN_CAPABILITIES } from './support/apply-events.js';
import { addSubscribedMembers, userOf } from './support/channels.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
/** Longer than the 130 s after which an active report counts as coming back online. */
const AWAY_MS = 140_000;
/** The register value moves on with every write; clients learn it from the presence endpoint, not from events. */
const IGNORE = ['presence_last_update_id'];

const seconds = (s: TestServer) => Math.floor(s.clock.now() / 1000);
const comeOnline = (s: TestServer) => s.as(HAMLET).post('/users/me/presence', { status: 'active', ping_only: true });

t.test('legacy presence: a user coming back online is announced to everyone, in the legacy shape, and observers converge', async (t) => {
  const s = testServer();
  s.clock.advance(AWAY_MS);
  const everyone = listenAll(s);
  const [othello, hamlet] = await checkEventsConvergeFor(t, [s.as(OTHELLO), s.as(HAMLET)], {
    fetchEventTypes: ['presence'],
    ignore: IGNORE,
    action: () => comeOnline(s),
  });
  const expected = {
    type: 'presence',
    user_id: s.id(HAMLET),
    email: apiEmail(s.world, userOf(s, HAMLET)),
    server_timestamp: s.clock.now() / 1000,
    presence: { website: { client: 'website', status: 'active', timestamp: seconds(s), pushable: false } },
  };
  for (const events of [othello ?? [], hamlet ?? []]) {
    checkEventShapes(t, events);
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [expected],
    );
  }
  checkRecipients(t, everyone.received(), isEvent('presence'), activeIds(s), 'presence');
});

t.test('slim_presence: the legacy event without email, applied to the modern register state, converges', async (t) => {
  const s = testServer();
  s.clock.advance(AWAY_MS);
  const [events] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], {
    fetchEventTypes: ['presence'],
    registerParams: { slim_presence: true },
    ignore: IGNORE,
    action: () => comeOnline(s),
  });
  checkEventShapes(t, events ?? []);
  t.same(
    (events ?? []).map(({ id: _id, ...e }) => e),
    [
      {
        type: 'presence',
        user_id: s.id(HAMLET),
        server_timestamp: s.clock.now() / 1000,
        presence: { website: { client: 'website', status: 'active', timestamp: seconds(s), pushable: false } },
      },
    ],
  );
});

t.test('simplified_presence_events: the modern presences map only, and the state converges', async (t) => {
  const s = testServer();
  s.clock.advance(AWAY_MS);
  const [events] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], {
    fetchEventTypes: ['presence'],
    registerParams: { client_capabilities: { ...MODERN_CAPABILITIES, simplified_presence_events: true } },
    ignore: IGNORE,
    action: () => comeOnline(s),
  });
  checkEventShapes(t, events ?? []);
  t.same(
    (events ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'presence', presences: { [String(s.id(HAMLET))]: { active_timestamp: seconds(s), idle_timestamp: seconds(s) } } }],
  );
});

t.test('a routine ping of a user who is already online sends nothing', async (t) => {
  const s = testServer();
  s.clock.advance(60_000);
  const everyone = listenAll(s);
  t.equal((await comeOnline(s)).status, 200);
  t.same([...everyone.received().keys()], [], 'no event within 130 s of the last activity');
});

t.test('no presence event when realm presence is disabled, for invisible users, or beyond 100 recipients', async (t) => {
  const disabled = testServer();
  disabled.world.realm.presenceDisabled = true;
  disabled.clock.advance(AWAY_MS);
  const quiet = listenAll(disabled);
  await comeOnline(disabled);
  t.same([...quiet.received().keys()], [], 'realm presence disabled');

  const invisible = testServer();
  userOf(invisible, HAMLET).settings.set('presence_enabled', false);
  invisible.clock.advance(AWAY_MS);
  const unseen = listenAll(invisible);
  await comeOnline(invisible);
  t.same([...unseen.received().keys()], [], 'presence_enabled off');

  const crowded = testServer();
  addSubscribedMembers(crowded, crowded.streamId('Denmark'), 101 - activeIds(crowded).length);
  crowded.clock.advance(AWAY_MS);
  const hundredOne = listenAll(crowded);
  await comeOnline(crowded);
  t.equal(activeIds(crowded).length, 101);
  t.same([...hundredOne.received().keys()], [], 'more than 100 recipients');
});

t.test('exactly 100 recipients still get the event', async (t) => {
  const s = testServer();
  addSubscribedMembers(s, s.streamId('Denmark'), 100 - activeIds(s).length);
  s.clock.advance(AWAY_MS);
  const everyone = listenAll(s);
  await comeOnline(s);
  checkRecipients(t, everyone.received(), isEvent('presence'), activeIds(s), 'presence with 100 recipients');
});
