/**
 * Every collection a request can carry has a bound (lib/input/limits.ts, docs/limits.md): one
 * item past it is refused with 400 BAD_REQUEST before any of it is acted on, and nothing changed.
 */
import t from 'tap';
import {
  MAX_ALERT_WORDS,
  MAX_CHANNELS,
  MAX_LIST_ITEMS,
  MAX_MESSAGE_IDS,
  MAX_NARROW_TERMS,
  MAX_SUBSCRIPTION_CHANGES,
  MAX_USER_IDS,
} from '../lib/input/limits.js';
import { bad, errorOf, type Params, testServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const count = (n: number, item: (i: number) => unknown = (i) => i + 1): unknown[] => Array.from({ length: n }, (_, i) => item(i));
const terms = (n: number) => count(n, () => ({ operator: 'channel', operand: 'Verona' }));
const tooLong = (name: string, limit: number) => bad(`${name} is too long (limit: ${limit} items)`);

const CASES: ReadonlyArray<readonly [string, string, string, Params, ReturnType<typeof bad>]> = [
  ['narrow terms of a fetch', 'GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: terms(MAX_NARROW_TERMS + 1) }, tooLong('narrow', MAX_NARROW_TERMS)],
  ['narrow terms of a flags change', 'POST', '/messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, op: 'add', flag: 'starred', narrow: terms(MAX_NARROW_TERMS + 1) }, tooLong('narrow', MAX_NARROW_TERMS)],
  ['narrow terms of an event queue', 'POST', '/register', { narrow: count(MAX_NARROW_TERMS + 1, () => ['channel', 'Verona']) }, tooLong('narrow', MAX_NARROW_TERMS)],
  ['users of a dm operand', 'GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'dm', operand: count(MAX_USER_IDS + 1) }] }, tooLong('operand', MAX_USER_IDS)],
  ['message IDs of a flags change', 'POST', '/messages/flags', { op: 'add', flag: 'starred', messages: count(MAX_MESSAGE_IDS + 1) }, tooLong('messages', MAX_MESSAGE_IDS)],
  ['message IDs of matches_narrow', 'GET', '/messages/matches_narrow', { msg_ids: count(MAX_MESSAGE_IDS + 1), narrow: [] }, tooLong('msg_ids', MAX_MESSAGE_IDS)],
  ['message IDs of a fetch (the real server refuses more than 5,000)', 'GET', '/messages', { message_ids: count(5001) }, bad('Too many messages requested (maximum 5000).')],
  ['channels to subscribe to', 'POST', '/users/me/subscriptions', { subscriptions: count(MAX_CHANNELS + 1, (i) => ({ name: `c${i}` })) }, tooLong('subscriptions', MAX_CHANNELS)],
  ['channels to unsubscribe from', 'DELETE', '/users/me/subscriptions', { subscriptions: count(MAX_CHANNELS + 1, (i) => `c${i}`) }, tooLong('subscriptions', MAX_CHANNELS)],
  ['principals', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }], principals: count(MAX_USER_IDS + 1) }, tooLong('principals', MAX_USER_IDS)],
  [
    'channel-user pairs of one subscribe',
    'POST',
    '/users/me/subscriptions',
    { subscriptions: count(MAX_CHANNELS, (i) => ({ name: `c${i}` })), principals: count(MAX_SUBSCRIPTION_CHANGES / MAX_CHANNELS + 1) },
    bad(`Too many subscription changes in one request (limit: ${MAX_SUBSCRIPTION_CHANGES} channel-user pairs).`),
  ],
  ['subscription property changes', 'POST', '/users/me/subscriptions/properties', { subscription_data: count(MAX_CHANNELS + 1, () => ({ stream_id: 3, property: 'pin_to_top', value: true })) }, tooLong('subscription_data', MAX_CHANNELS)],
  ['alert words of a request', 'POST', '/users/me/alert_words', { alert_words: count(MAX_ALERT_WORDS + 1, (i) => `w${i}`) }, tooLong('alert_words', MAX_ALERT_WORDS)],
  ['group members to add', 'POST', '/user_groups/17/members', { add: count(MAX_USER_IDS + 1) }, tooLong('add', MAX_USER_IDS)],
  ['members of a new group', 'POST', '/user_groups/create', { name: 'big', description: '', members: count(MAX_USER_IDS + 1) }, tooLong('members', MAX_USER_IDS)],
  ['typing recipients', 'POST', '/typing', { op: 'start', to: count(MAX_USER_IDS + 1) }, tooLong('to', MAX_USER_IDS)],
  ['direct message recipients', 'POST', '/messages', { type: 'direct', to: count(MAX_USER_IDS + 1), content: 'hi' }, tooLong('to', MAX_USER_IDS)],
  ['users to fetch', 'GET', '/users', { user_ids: count(MAX_USER_IDS + 1) }, tooLong('user_ids', MAX_USER_IDS)],
  ['profile data entries', 'PATCH', '/users/me/profile_data', { data: count(MAX_LIST_ITEMS + 1, () => ({ id: 1, value: 'x' })) }, tooLong('data', MAX_LIST_ITEMS)],
  ['drafts', 'POST', '/drafts', { drafts: count(MAX_LIST_ITEMS + 1, () => ({ type: '', to: [], topic: '', content: 'x' })) }, tooLong('drafts', MAX_LIST_ITEMS)],
  ['event types', 'POST', '/register', { event_types: count(MAX_LIST_ITEMS + 1, () => 'message') }, tooLong('event_types', MAX_LIST_ITEMS)],
  ['invitees', 'POST', '/invites', { invitee_emails: count(MAX_LIST_ITEMS + 1, (i) => `u${i}@example.com`).join(','), stream_ids: [3] }, tooLong('invitee_emails', MAX_LIST_ITEMS)],
  ['channels of an invitation', 'POST', '/invites', { invitee_emails: 'u@example.com', stream_ids: count(MAX_CHANNELS + 1) }, tooLong('stream_ids', MAX_CHANNELS)],
  [
    'choices of a select field',
    'POST',
    '/realm/profile_fields',
    { name: 'Many', field_type: 3, field_data: Object.fromEntries(count(MAX_LIST_ITEMS + 1, (i) => [String(i), { text: `c${i}`, order: String(i) }]) as Array<[string, unknown]>) },
    tooLong('field_data', MAX_LIST_ITEMS),
  ],
];

for (const [what, method, path, params, expected] of CASES) {
  t.test(`${what}: one past the bound is refused`, async (t) => {
    const s = testServer();
    let announced = 0;
    s.world.events.subscribe(() => announced++);
    t.same(errorOf(await s.as(IAGO).call(method, path, params)), expected);
    t.equal(announced, 0, 'nothing was announced');
  });
}

t.test('alert words a user keeps are bounded too, across requests', async (t) => {
  const s = testServer();
  const half = (from: number) => count(MAX_ALERT_WORDS / 2 + 1, (i) => `w${from + i}`);
  t.equal((await s.as(IAGO).post('/users/me/alert_words', { alert_words: half(0) })).status, 200);
  t.same(errorOf(await s.as(IAGO).post('/users/me/alert_words', { alert_words: half(MAX_ALERT_WORDS) })), bad(`Too many alert words (limit: ${MAX_ALERT_WORDS}).`));
  t.equal((await s.as(IAGO).get('/users/me/alert_words')).body.alert_words.length, MAX_ALERT_WORDS / 2 + 1, 'the refused request added nothing');
});

t.test('lists at their bound are accepted', async (t) => {
  const s = testServer();
  t.equal((await s.as(IAGO).post('/messages/flags', { op: 'add', flag: 'starred', messages: count(MAX_MESSAGE_IDS, () => 1) })).status, 200);
  t.equal((await s.as(IAGO).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: terms(MAX_NARROW_TERMS) })).status, 200);
  t.equal((await s.as(IAGO).post('/users/me/alert_words', { alert_words: count(MAX_ALERT_WORDS, (i) => `w${i}`) })).status, 200);
});
