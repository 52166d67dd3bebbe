/**
 * A loaded history's search words are listed in the background after the realm is ready. A search
 * that arrives before that is done waits for the listing, slice by slice, instead of listing every
 * word in one go: the other requests are answered meanwhile (on a million messages the one-go
 * listing held every client up for seconds), and the search answers exactly what it would later.
 */
import t from 'tap';
import { loadFixture } from '../fixtures/index.js';
import { searchWordsPending } from '../lib/narrow/search.js';
import { type TestServer, testServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const LOADED = 20_000;
/** Every thousandth loaded message holds the rare word. */
const RARE = 'zanzibar';

function largeHistory() {
  const base = loadFixture();
  const loaded = Array.from({ length: LOADED }, (_, i) => ({
    sender: 'othello@zulip.com',
    type: 'stream' as const,
    to: ['Verona'],
    topic: `topic ${i % 50}`,
    content: i % 1000 === 7 ? `a ${RARE} sighting, number ${i}` : `plain words, number ${i}`,
    sentAt: '2025-05-01T10:00:00Z',
  }));
  return { ...base, messages: [...(base.messages ?? []), ...loaded] };
}

const searchNarrow = [{ operator: 'search', operand: RARE }];

/**
 * Sends the search, then another request one turn of the event loop later, and notes the order in
 * which they are answered: a search that listed every word in one go would be answered first.
 */
async function race(s: TestServer, search: () => Promise<{ status: number; body: Record<string, unknown> }>) {
  const order: string[] = [];
  const searched = search().then((reply) => (order.push('search'), reply));
  await new Promise((resolve) => setImmediate(resolve));
  const other = s.as(HAMLET).get('/users/me').then((reply) => (order.push('other'), reply));
  const [found, me] = await Promise.all([searched, other]);
  return { found, me, order };
}

t.test('GET /messages with a search waits for the listing while other requests are answered, then answers exactly', async (t) => {
  const s = testServer({ fixture: largeHistory() });
  t.teardown(() => s.app.close());
  const index = s.world.messages.index;
  t.ok(index.pendingWords >= LOADED, `${index.pendingWords} messages' words wait to be listed after the load`);
  const fetch = () => s.as(HAMLET).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: searchNarrow });
  const { found, me, order } = await race(s, fetch);
  t.equal(me.status, 200);
  t.same(order, ['other', 'search'], 'the other request was answered while the search waited');
  t.equal(index.pendingWords, 0, 'every word listed when the search answered');
  const ids = (found.body.messages as Array<{ id: number; content: string }>).map((m) => m.id);
  t.equal(ids.length, LOADED / 1000, 'every message holding the rare word');
  const again = (await fetch()).body.messages as Array<{ id: number }>;
  t.same(ids, again.map((m) => m.id), 'the same answer as once the words are listed');
});

t.test('POST /messages/flags/narrow with a search waits the same way', async (t) => {
  const s = testServer({ fixture: largeHistory() });
  t.teardown(() => s.app.close());
  const mark = () => s.as(HAMLET).post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: searchNarrow, op: 'add', flag: 'starred' });
  const { found, order } = await race(s, mark);
  t.same(order, ['other', 'search'], 'the other request was answered while the search waited');
  t.equal(found.body.processed_count, LOADED / 1000, 'every message holding the rare word starred');
});

t.test('nothing waits once the words are listed, nor a narrow without a search term', async (t) => {
  const s = testServer({ fixture: largeHistory() });
  t.teardown(() => s.app.close());
  const term = (operator: string, operand: string) => ({ operator, operand, negated: false });
  t.ok(searchWordsPending(s.world, [term('search', RARE)]) instanceof Promise, 'a search waits while words are pending');
  t.equal(searchWordsPending(s.world, [term('channel', 'Verona')]), undefined, 'a narrow without a search does not');
  t.equal(searchWordsPending(s.world, null), undefined, 'nor no narrow');
  while (!s.world.messages.index.indexPendingWords(5_000));
  t.equal(searchWordsPending(s.world, [term('search', RARE)]), undefined, 'a search does not once every word is listed');
});
