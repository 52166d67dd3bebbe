import t from 'tap';
import { HAMLET, OTHELLO, POLONIUS } from './support/channels.js';
import { ofType, recordEvents } from './support/events.js';
import { bad, basic, Client, errorOf, testServer } from './support/harness.js';

t.test('alert words: added stripped and without blanks, unique case-insensitively, listed in order', async (t) => {
  const s = testServer();
  t.same((await s.as(HAMLET).get('/users/me/alert_words')).body.alert_words, []);
  const added = await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['  release ', '', 'Deploy', 'ALPHA', 'alpha'] });
  t.same(added.body, { result: 'success', msg: '', alert_words: ['release', 'Deploy', 'alpha'] }, 'the last spelling of a new word wins');
  const again = await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['RELEASE', 'beta'] });
  t.same(again.body.alert_words, ['release', 'Deploy', 'alpha', 'beta'], 'existing words keep their spelling');
  t.same((await s.as(HAMLET).get('/users/me/alert_words')).body.alert_words, ['release', 'Deploy', 'alpha', 'beta']);
  t.same((await s.as(OTHELLO).get('/users/me/alert_words')).body.alert_words, [], 'per user');
  const removed = await s.as(HAMLET).delete('/users/me/alert_words', { alert_words: ['deploy', 'ALPHA', 'missing', ' beta'] });
  t.same(removed.body.alert_words, ['release', 'beta'], 'removal is case-insensitive, unstripped, unknown words ignored');
});

t.test('alert words: every change sends the user an alert_words event with the whole list', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['one'] });
  await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['ONE'] });
  await s.as(HAMLET).delete('/users/me/alert_words', { alert_words: ['one'] });
  t.same(
    ofType(seen, 'alert_words').map((e) => [e.event, e.userIds]),
    [
      [{ type: 'alert_words', alert_words: ['one'] }, [s.id(HAMLET)]],
      [{ type: 'alert_words', alert_words: ['one'] }, [s.id(HAMLET)]],
      [{ type: 'alert_words', alert_words: [] }, [s.id(HAMLET)]],
    ],
  );
});

t.test('alert words: a word over 100 characters, a non-list and a missing list are refused', async (t) => {
  const s = testServer();
  t.equal((await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['x'.repeat(100)] })).status, 200);
  t.same(errorOf(await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['ok', 'y'.repeat(101)] })), bad('alert_words[1] is too long (limit: 100 characters)'));
  t.same(errorOf(await s.as(HAMLET).post('/users/me/alert_words', { alert_words: 'word' })), bad('alert_words is not valid JSON'));
  t.same(errorOf(await s.as(HAMLET).post('/users/me/alert_words', { alert_words: { a: 1 } })), bad('alert_words is not a list'));
  t.same(errorOf(await s.as(HAMLET).delete('/users/me/alert_words', { alert_words: [1] })), bad('alert_words[0] is not a string'));
  t.same(errorOf(await s.as(HAMLET).post('/users/me/alert_words', {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'alert_words' argument" });
  t.same((await s.as(HAMLET).get('/users/me/alert_words')).body.alert_words, ['x'.repeat(100)], 'a refused request changes nothing');
});

t.test('alert words: guests and bots have their own', async (t) => {
  const s = testServer();
  t.same((await s.as(POLONIUS).post('/users/me/alert_words', { alert_words: ['ghost'] })).body.alert_words, ['ghost']);
  const bot = s.world.usersByEmail.get('default-bot@zulip.com');
  const client = new Client(s.app, basic('default-bot@zulip.com', bot?.apiKey ?? ''));
  t.same((await client.post('/users/me/alert_words', { alert_words: ['beep'] })).body.alert_words, ['beep']);
});
