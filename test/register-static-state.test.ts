/**
 * `POST /register` state that never changes: `stop_words` (zerver/lib/narrow.py `read_stop_words`,
 * the server repository's puppet/zulip/files/postgresql/zulip_english.stop) and
 * `realm_embedded_bots` (`EMBEDDED_BOTS` with `load_bot_config_template`), both built by
 * zerver/lib/events.py `fetch_initial_state_data`; and the search that drops those stop words.
 */
import t from 'tap';
import { testServer, withoutSeededMessages } from './support/harness.js';
import { fetchIds, sendToChannel } from './support/messages.js';

const HAMLET = 'hamlet@zulip.com';
const POLONIUS = 'polonius@zulip.com';

t.test('stop_words is the real list of 149 words, served only when asked for', async (t) => {
  const s = testServer();
  const { body } = await s.as(HAMLET).post('/register', { fetch_event_types: ['stop_words'] });
  t.equal(body.stop_words.length, 149);
  t.same(body.stop_words.slice(0, 4), ['i', 'me', 'my', 'myself'], 'in the order of the file');
  t.ok(['the', 'don', 's', 't', 'x', 'z'].every((word) => body.stop_words.includes(word)));
  t.notOk(body.stop_words.includes('cat'));
  const other = await s.as(HAMLET).post('/register', { fetch_event_types: ['alert_words'] });
  t.notOk('stop_words' in other.body);
  const old = await testServer({ featureLevel: 1 }).as(POLONIUS).post('/register', { fetch_event_types: ['stop_words'] });
  t.same(old.body.stop_words, body.stop_words, 'at every level and for every role');
});

t.test('realm_embedded_bots lists the six embedded bots in order with their config templates', async (t) => {
  const s = testServer();
  const { body } = await s.as(HAMLET).post('/register', { fetch_event_types: ['realm_embedded_bots'] });
  t.same(body.realm_embedded_bots, [
    { name: 'converter', config: {} },
    { name: 'encrypt', config: {} },
    { name: 'helloworld', config: {} },
    { name: 'virtual_fs', config: {} },
    { name: 'giphy', config: { key: '12345678' } },
    { name: 'followup', config: {} },
  ]);
  body.realm_embedded_bots[4].config.key = 'changed';
  const again = await s.as(HAMLET).post('/register', { fetch_event_types: ['realm_embedded_bots'] });
  t.equal(again.body.realm_embedded_bots[4].config.key, '12345678', 'each answer is a fresh copy');
  const all = await s.as(HAMLET).post('/register', {});
  t.ok('realm_embedded_bots' in all.body && 'stop_words' in all.body, 'both come with a register that asks for everything');
  t.notOk('realm_incoming_webhook_bots' in all.body, 'the integrations list is not served');
});

t.test('a search drops every word of stop_words, single letters and "don" included', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const plan = await sendToChannel(s, HAMLET, 'Verona', 'options', "plan b: don't ship x");
  const search = (operand: string): Promise<number[]> =>
    fetchIds(s.as(HAMLET), { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([['search', operand]]) });
  t.same(await search('plan'), [plan]);
  for (const stop of ['b', 'x', 'don', 't', 'don t']) t.same(await search(stop), [], `"${stop}" alone matches nothing`);
  t.same(await search('plan b'), [plan], 'a stop word beside a real word is ignored');
  t.same(await search('ship x'), [plan]);
});
