import t from 'tap';
import { checkEventsConverge, MODERN_CAPABILITIES } from './support/apply-events.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

const operations: Array<[string, (s: TestServer) => Promise<unknown>]> = [
  ['create', (s) => s.as(IAGO).post('/realm/profile_fields', { name: 'Team', field_type: 1, hint: 'Which team?' })],
  ['update', (s) => s.as(IAGO).patch('/realm/profile_fields/2', { hint: 'Tell us more', required: true })],
  ['delete', (s) => s.as(IAGO).delete('/realm/profile_fields/5')],
  ['reorder', (s) => s.as(IAGO).patch('/realm/profile_fields', { order: [9, 8, 7, 6, 5, 4, 3, 2, 1] })],
];

for (const [name, operation] of operations) {
  t.test(`profile field ${name}: every active account gets the complete ordered list, and a client converges`, async (t) => {
    const s = testServer();
    const everyone = listenAll(s);
    const events = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['custom_profile_fields'], action: () => operation(s) });
    checkEventShapes(t, events);
    const listed = (await s.as(HAMLET).get('/realm/profile_fields')).body.custom_fields;
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [{ type: 'custom_profile_fields', fields: listed }],
    );
    checkRecipients(t, everyone.received(), isEvent('custom_profile_fields'), activeIds(s), `custom_profile_fields after ${name}`);
  });
}

t.test('a client without pronouns_field_type_supported sees pronouns fields as short text, in events and at register', async (t) => {
  const s = testServer();
  const events = await checkEventsConverge(t, s.as(HAMLET), {
    fetchEventTypes: ['custom_profile_fields'],
    registerParams: { client_capabilities: { ...MODERN_CAPABILITIES, pronouns_field_type_supported: false } },
    action: () => s.as(IAGO).patch('/realm/profile_fields/9', { hint: 'Yours?' }),
  });
  const pronouns = (events[0]?.fields as Array<{ id: number; type: number }>).find((f) => f.id === 9);
  t.equal(pronouns?.type, 1);
  const state = (await s.as(HAMLET).post('/register', { fetch_event_types: ['custom_profile_fields'], client_capabilities: { pronouns_field_type_supported: false } })).body;
  t.notOk('PRONOUNS' in state.custom_profile_field_types);
  t.same(state.custom_profile_field_types.SHORT_TEXT, { id: 1, name: 'Text (short)' });
});

t.test('dropping a choice removes the values that used it with realm_user updates, and user lists converge', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const events = await checkEventsConverge(t, s.as('othello@zulip.com'), {
    fetchEventTypes: ['custom_profile_fields', 'realm_user'],
    action: () => s.as(IAGO).patch('/realm/profile_fields/4', { field_data: { emacs: { text: 'Emacs', order: '1' } } }),
  });
  checkEventShapes(t, events);
  t.same(
    events.filter((e) => e.type === 'realm_user').map(({ id: _id, ...e }) => e),
    [{ type: 'realm_user', op: 'update', person: { user_id: s.id(HAMLET), custom_profile_field: { id: 4, value: null } } }],
  );
  checkRecipients(t, everyone.received(), isEvent('realm_user', 'update'), activeIds(s), 'the value removal');
});
