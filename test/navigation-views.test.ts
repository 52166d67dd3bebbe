import t from 'tap';
import { navigationViewsState } from '../lib/queries/personal/navigation-views.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const hamlet = 'hamlet@zulip.com';
const othello = 'othello@zulip.com';

const viewPath = (fragment: string) => `/navigation_views/${fragment.split('/').map(encodeURIComponent).join('/')}`;
const EXISTS = bad('Navigation view already exists.');

async function add(s: TestServer, fragment: string, name?: string, isPinned = true) {
  return s.as(hamlet).post('/navigation_views', { fragment, is_pinned: isPinned, ...(name === undefined ? {} : { name }) });
}

t.test('the endpoints exist from level 390', async (t) => {
  const s = testServer({ featureLevel: 389 });
  t.equal((await s.as(hamlet).get('/navigation_views')).status, 404);
  t.equal((await s.as(hamlet).patch('/navigation_views/inbox', { is_pinned: true })).status, 404);
  t.equal((await testServer({ featureLevel: 390 }).as(hamlet).get('/navigation_views')).status, 200);
});

t.test('a user starts with no views; added ones are listed in creation order, built-ins with a null name', async (t) => {
  const s = testServer();
  t.same((await s.as(hamlet).get('/navigation_views')).body, { result: 'success', msg: '', navigation_views: [] });
  const events = recordEvents(s);
  const reply = await add(s, '  narrow/is/alerted ', ' Alert Words ', false);
  t.same(reply.body, { result: 'success', msg: '' });
  t.equal((await add(s, 'inbox')).status, 200);
  const expected = [
    { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alert Words' },
    { fragment: 'inbox', is_pinned: true, name: null },
  ];
  t.same((await s.as(hamlet).get('/navigation_views')).body.navigation_views, expected);
  t.same(navigationViewsState(s.world, s.world.users.get(s.id(hamlet))!), expected);
  t.same(events, [
    { event: { type: 'navigation_view', op: 'add', navigation_view: expected[0] }, userIds: [s.id(hamlet)] },
    { event: { type: 'navigation_view', op: 'add', navigation_view: expected[1] }, userIds: [s.id(hamlet)] },
  ]);
  t.same((await s.as(othello).get('/navigation_views')).body.navigation_views, [], "another user's views are invisible");
});

t.test('adding checks run in order with the exact messages and change nothing', async (t) => {
  const s = testServer();
  await add(s, 'narrow/is/alerted', 'Alerts');
  const events = recordEvents(s);
  const cases: Array<[Record<string, unknown>, unknown]> = [
    [{ is_pinned: true }, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'fragment' argument" }],
    [{ fragment: '   ', is_pinned: true }, bad('fragment cannot be blank')],
    [{ fragment: 'x' }, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'is_pinned' argument" }],
    [{ fragment: 'x', is_pinned: 'yes' }, bad('is_pinned is not valid JSON')],
    [{ fragment: 'x', is_pinned: 1 }, bad('is_pinned is not a boolean')],
    [{ fragment: 'x', is_pinned: true, name: ' ' }, bad('name cannot be blank')],
    [{ fragment: 'recent', is_pinned: true, name: 'Mine' }, bad('Built-in views cannot have a custom name.')],
    [{ fragment: 'narrow/is/private', is_pinned: true }, bad('Custom views must have a valid name.')],
    [{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Other' }, EXISTS],
    [{ fragment: 'narrow/is/other', is_pinned: false, name: 'Alerts' }, EXISTS],
  ];
  for (const [params, error] of cases) t.same(errorOf(await s.as(hamlet).post('/navigation_views', params)), error, JSON.stringify(params));
  t.equal(events.length, 0);
  t.same(navigationViewsState(s.world, s.world.users.get(s.id(hamlet))!), [{ fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' }]);
});

t.test('every built-in fragment refuses a name; narrow/is/alerted is a custom view', async (t) => {
  const s = testServer();
  for (const fragment of ['inbox', 'recent', 'feed', 'drafts', 'narrow/has/reaction/sender/me', 'narrow/is/mentioned', 'narrow/is/starred']) {
    t.same(errorOf(await add(s, fragment, 'Named')), bad('Built-in views cannot have a custom name.'), fragment);
    t.equal((await add(s, fragment)).status, 200, fragment);
  }
  t.same(errorOf(await add(s, 'narrow/is/alerted')), bad('Custom views must have a valid name.'));
});

t.test('PATCH takes the fragment from the path, slashes included, and sends only the given fields', async (t) => {
  const s = testServer();
  await add(s, 'narrow/is/alerted', 'Alerts');
  const events = recordEvents(s);
  const reply = await s.as(hamlet).patch('/navigation_views/narrow/is/alerted', { is_pinned: false });
  t.same(reply.body, { result: 'success', msg: '' });
  await s.as(hamlet).patch(viewPath('narrow/is/alerted'), { name: ' Watched Phrases ' });
  await s.as(hamlet).patch(viewPath('narrow/is/alerted'), {});
  t.same(events.map((e) => e.event), [
    { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { is_pinned: false } },
    { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { name: 'Watched Phrases' } },
    { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: {} },
  ]);
  t.same((await s.as(hamlet).get('/navigation_views')).body.navigation_views, [{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Watched Phrases' }]);
});

t.test('PATCH errors: built-in name, duplicate name before existence (own name included), then 404', async (t) => {
  const s = testServer();
  await add(s, 'narrow/is/alerted', 'Alerts');
  await add(s, 'inbox');
  const events = recordEvents(s);
  t.same(errorOf(await s.as(hamlet).patch('/navigation_views/inbox', { name: 'Box' })), bad('Built-in views cannot have a custom name.'));
  t.same(errorOf(await s.as(hamlet).patch(viewPath('narrow/is/alerted'), { name: 'Alerts' })), EXISTS, 'renaming to its own name fails');
  t.same(errorOf(await s.as(hamlet).patch(viewPath('narrow/is/missing'), { name: 'Alerts' })), EXISTS, 'the duplicate check runs before the existence check');
  // The description says NOT_FOUND; the real server answers BAD_REQUEST with the same status and text.
  const missing = { status: 404, code: 'NOT_FOUND', msg: 'Navigation view does not exist.' };
  t.same(errorOf(await s.as(hamlet).patch(viewPath('narrow/is/missing'), { is_pinned: true })), missing);
  t.same(errorOf(await s.as(othello).patch(viewPath('narrow/is/alerted'), { is_pinned: false })), missing, "another user's view does not exist for you");
  t.same(errorOf(await s.as(hamlet).patch('/navigation_views/%20', { is_pinned: true })), bad('fragment cannot be blank'));
  t.same(errorOf(await s.as(hamlet).patch('/navigation_views/inbox', { is_pinned: 'no' })), bad('is_pinned is not valid JSON'));
  t.equal(events.length, 0);
  t.same(navigationViewsState(s.world, s.world.users.get(s.id(hamlet))!).map((v) => v.is_pinned), [true, true]);
});

t.test('DELETE removes the view with an event; an unknown fragment is 404 BAD_REQUEST', async (t) => {
  const s = testServer();
  await add(s, 'narrow/is/alerted', 'Alerts');
  await add(s, 'feed');
  const events = recordEvents(s);
  t.same(errorOf(await s.as(othello).delete(viewPath('narrow/is/alerted'))), { status: 404, code: 'BAD_REQUEST', msg: 'Navigation view does not exist.' });
  const reply = await s.as(hamlet).delete(viewPath('narrow/is/alerted'), {}, { query: { junk: '1' } });
  t.same(reply.body, { result: 'success', msg: '' });
  t.same(events.map((e) => e.event), [{ type: 'navigation_view', op: 'remove', fragment: 'narrow/is/alerted' }]);
  t.same((await s.as(hamlet).get('/navigation_views')).body.navigation_views, [{ fragment: 'feed', is_pinned: true, name: null }]);
  t.same(errorOf(await s.as(hamlet).delete(viewPath('narrow/is/alerted'))), { status: 404, code: 'BAD_REQUEST', msg: 'Navigation view does not exist.' });
  t.equal((await add(s, 'narrow/is/alerted', 'Alerts')).status, 200, 'the name is free again');
});

t.test('hostile fragment texts are ordinary data through add, patch and delete', async (t) => {
  const s = testServer();
  const fragments = ['__proto__', 'constructor', 'hasOwnProperty', 'narrow/stream/42-d%C3%A9nia', 'channel/日本語/topic', 'x'.repeat(5000), 'a?b#c', '100%'];
  for (const [i, fragment] of fragments.entries()) {
    t.equal((await add(s, fragment, `View ${i}`)).status, 200, fragment.slice(0, 40));
  }
  const listed = (await s.as(hamlet).get('/navigation_views')).body.navigation_views;
  t.same(listed.map((v: { fragment: string }) => v.fragment), fragments);
  for (const fragment of fragments) {
    t.equal((await s.as(hamlet).patch(viewPath(fragment), { is_pinned: false })).status, 200, fragment.slice(0, 40));
  }
  t.ok(navigationViewsState(s.world, s.world.users.get(s.id(hamlet))!).every((v) => v.is_pinned === false));
  t.equal(({} as Record<string, unknown>).is_pinned, undefined, 'no prototype was touched');
  for (const fragment of fragments) t.equal((await s.as(hamlet).delete(viewPath(fragment))).status, 200, fragment.slice(0, 40));
  t.same(s.world.navigationViews.get(s.id(hamlet)), []);
});
