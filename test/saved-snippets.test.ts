import t from 'tap';
import { checkEventsConvergeFor } from './support/apply-events.js';
import { HAMLET, OTHELLO } from './support/channels.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { bad, errorOf, testServer } from './support/harness.js';

t.test('saved snippets: created stripped, listed per user oldest first, edited and deleted', async (t) => {
  const s = testServer();
  const created = await s.as(HAMLET).post('/saved_snippets', { title: '  Greeting ', content: ' **Hello** ' });
  t.same(Object.keys(created.body).sort(), ['msg', 'result', 'saved_snippet_id']);
  const id = created.body.saved_snippet_id as number;
  await s.as(HAMLET).post('/saved_snippets', { title: 'Second', content: 'two' });
  const listed = await s.as(HAMLET).get('/saved_snippets');
  t.same(listed.body.saved_snippets[0], { id, title: 'Greeting', content: '**Hello**', date_created: Math.floor(s.clock.now() / 1000) });
  t.equal(listed.body.saved_snippets.length, 2);
  t.same((await s.as(OTHELLO).get('/saved_snippets')).body.saved_snippets, [], 'per user');
  t.equal((await s.as(HAMLET).patch(`/saved_snippets/${id}`, { title: 'Hi' })).status, 200);
  t.match(s.world.savedSnippets.get(id), { title: 'Hi', content: '**Hello**' });
  t.equal((await s.as(HAMLET).patch('/saved_snippets/9999', {})).status, 200, 'an empty edit succeeds without looking the snippet up');
  t.equal((await s.as(HAMLET).delete(`/saved_snippets/${id}`)).status, 200);
  t.equal(s.world.savedSnippets.has(id), false);
});

t.test('saved snippets: blank or long titles and contents, unknown and others\' snippets are refused', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(HAMLET).post('/saved_snippets', { title: '   ', content: 'x' })), bad('title cannot be blank'));
  t.same(errorOf(await s.as(HAMLET).post('/saved_snippets', { title: 'x', content: '' })), bad('content cannot be blank'));
  t.same(errorOf(await s.as(HAMLET).post('/saved_snippets', { title: 'x'.repeat(61), content: 'x' })), bad('title is too long (limit: 60 characters)'));
  t.equal((await s.as(HAMLET).post('/saved_snippets', { title: 'x'.repeat(60), content: 'x' })).status, 200);
  t.same(errorOf(await s.as(HAMLET).post('/saved_snippets', { title: 'x' })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'content' argument" });
  const id = (await s.as(HAMLET).post('/saved_snippets', { title: 'Mine', content: 'c' })).body.saved_snippet_id as number;
  t.same(errorOf(await s.as(OTHELLO).delete(`/saved_snippets/${id}`)), bad('Saved snippet does not exist.', 404));
  t.same(errorOf(await s.as(OTHELLO).patch(`/saved_snippets/${id}`, { title: 'Theirs' })), bad('Saved snippet does not exist.', 404));
  t.same(errorOf(await s.as(HAMLET).patch(`/saved_snippets/${id}`, { content: ' ' })), bad('content cannot be blank'));
});

t.test('saved snippets exist from level 297, editing from 368', async (t) => {
  const old = testServer({ featureLevel: 296 });
  t.equal((await old.as(HAMLET).get('/saved_snippets')).status, 404);
  t.notOk('saved_snippets' in (await old.as(HAMLET).post('/register', {})).body);
  const mid = testServer({ featureLevel: 367 });
  const id = (await mid.as(HAMLET).post('/saved_snippets', { title: 'T', content: 'C' })).body.saved_snippet_id as number;
  t.equal((await mid.as(HAMLET).patch(`/saved_snippets/${id}`, { title: 'U' })).status, 405, 'PATCH is not there yet');
  t.same((await mid.as(HAMLET).post('/register', { fetch_event_types: ['saved_snippets'] })).body.saved_snippets.length, 1);
});

t.test('saved snippet events (add, update, remove) reach the user alone; observers converge', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const [events] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO)], {
    fetchEventTypes: ['saved_snippets'],
    expectEvents: true,
    action: async () => {
      const a = (await s.as(HAMLET).post('/saved_snippets', { title: 'A', content: 'a' })).body.saved_snippet_id as number;
      await s.as(HAMLET).post('/saved_snippets', { title: 'B', content: 'b' });
      await s.as(HAMLET).patch(`/saved_snippets/${a}`, { content: 'changed' });
      await s.as(HAMLET).delete(`/saved_snippets/${a}`);
    },
  });
  checkEventShapes(t, events ?? []);
  t.same((events ?? []).map((e) => e.op), ['add', 'add', 'update', 'remove']);
  checkRecipients(t, everyone.received(), isEvent('saved_snippets'), [s.id(HAMLET)], 'saved_snippets');
});
