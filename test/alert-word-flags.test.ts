/**
 * `has_alert_word` on sent and edited messages, after the real server's
 * `AlertWordNotificationProcessor` and `update_user_message_flags` (zerver/tests/test_alert_words.py
 * `test_alert_flags`, `test_update_alert_words`).
 */
import t from 'tap';
import { containsAlertWord } from '../lib/actions/messages/policies/alert-word-flags.js';
import { ofType, recordEvents } from './support/events.js';
import { testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';

const send = (s: TestServer, content: string) => s.as(OTHELLO).post('/messages', { type: 'stream', to: 'Verona', topic: 'alerts', content });
const flagsOf = (s: TestServer, id: number, email: string): string[] => [...(s.world.messages.get(id)?.flags.get(s.id(email)) ?? [])];

t.test('alert words match on the real server’s boundaries, case-insensitively', async (t) => {
  const cases: Array<[string, boolean]> = [
    ['normal alert one time', true],
    ['one normal alert', true],
    ['normal alert, one', true],
    ['this is a one.', true],
    ['(one) in brackets', true],
    // The real server's list of following characters has '",' (two characters) where '"' was meant.
    ['"one" quoted', false],
    ['someone else', false],
    ['ones', false],
    ['one2', false],
    ['x-one', false],
    ['xone', true],
  ];
  for (const [content, expected] of cases) t.equal(containsAlertWord(content, 'one'), expected, content);
  t.ok(containsAlertWord('see release notes', 'release notes'), 'phrases match too');
});

t.test('a message naming a recipient’s alert word gets has_alert_word for that recipient only, in the event and in is:alerted', async (t) => {
  const s = testServer();
  await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['Release'] });
  const seen = recordEvents(s);
  const id = (await send(s, 'The RELEASE is out!')).body.id as number;
  t.ok(flagsOf(s, id, HAMLET).includes('has_alert_word'));
  t.notOk(flagsOf(s, id, 'iago@zulip.com').includes('has_alert_word'), 'not for users without the word');
  const hamletEvent = ofType(seen, 'message').find((e) => e.userIds.includes(s.id(HAMLET)));
  t.ok((hamletEvent?.event.flags as string[]).includes('has_alert_word'), 'the message event carries the flag');
  const alerted = await s.as(HAMLET).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'alerted' }] });
  t.same(alerted.body.messages.map((m: { id: number }) => m.id), [id]);
  const plain = (await send(s, 'nothing here')).body.id as number;
  t.notOk(flagsOf(s, plain, HAMLET).includes('has_alert_word'));
});

t.test('words added later flag only messages sent after; an edit re-derives the flag', async (t) => {
  const s = testServer();
  const before = (await send(s, 'deploy tonight')).body.id as number;
  await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['deploy'] });
  t.notOk(flagsOf(s, before, HAMLET).includes('has_alert_word'), 'existing messages are not re-scanned');
  const id = (await send(s, 'nothing yet')).body.id as number;
  const seen = recordEvents(s);
  await s.as(OTHELLO).patch(`/messages/${id}`, { content: 'deploy now' });
  t.ok(flagsOf(s, id, HAMLET).includes('has_alert_word'), 'set by the edit');
  const update = ofType(seen, 'update_message').find((e) => e.userIds.includes(s.id(HAMLET)));
  t.ok((update?.event.flags as string[]).includes('has_alert_word'), 'the update_message event carries the new flags');
  await s.as(OTHELLO).patch(`/messages/${id}`, { content: 'nothing again' });
  t.notOk(flagsOf(s, id, HAMLET).includes('has_alert_word'), 'cleared by the next edit');
});
