/**
 * How the router splits a path and picks a route: first match in declaration order, static
 * routes before patterns, one trailing slash ignored, `{name:int}` digits only, `{name:path}`
 * the rest of the path, percent-escapes decoded before matching.
 */
import t from 'tap';
import { open as openEndpoint, type RouteDef } from '../server/app/endpoint.js';
import { Router } from '../server/app/router.js';
import { testServer } from './support/harness.js';

const endpoint = (name: string) => openEndpoint({ params: {}, run: () => ({ name }) });
const named = new Map([
  ['me', endpoint('me')],
  ['byId', endpoint('byId')],
  ['byEmail', endpoint('byEmail')],
  ['list', endpoint('list')],
  ['file', endpoint('file')],
]);
const get = (name: string) => ({ GET: named.get(name) });

const ROUTES: RouteDef[] = [
  { path: '/users', methods: get('list') },
  { path: '/users/me', methods: get('me') },
  { path: '/users/{user_id:int}', methods: get('byId') },
  { path: '/users/{email}', methods: get('byEmail') },
  { path: '/files/{name:path}', methods: get('file') },
];

/** [path, the endpoint that answers (or undefined for not found), its captured parameters]. */
const CASES: ReadonlyArray<readonly [string, string | undefined, Record<string, string>]> = [
  ['/api/v1/users', 'list', {}],
  ['/api/v1/users/', 'list', {}],
  ['/api/v1/users/me', 'me', {}],
  ['/api/v1/users/me/', 'me', {}],
  ['/api/v1/users/10', 'byId', { user_id: '10' }],
  ['/api/v1/users/10/', 'byId', { user_id: '10' }],
  ['/api/v1/users/1a', 'byEmail', { email: '1a' }],
  ['/api/v1/users/a%40b.c', 'byEmail', { email: 'a@b.c' }],
  ['/api/v1/users/10//', undefined, {}],
  ['/api/v1/users//', undefined, {}],
  ['/api/v1//users', undefined, {}],
  ['/api/v1/users/10/more', undefined, {}],
  ['/api/v1/files/a/b/c.txt', 'file', { name: 'a/b/c.txt' }],
  ['/api/v1/files/', undefined, {}],
  ['/api/v1/', undefined, {}],
  ['/api/v2/users', undefined, {}],
];

t.test('paths reach the first route they match, with the parameters the pattern captures', async (t) => {
  const world = testServer().world;
  const router = new Router(ROUTES);
  for (const [path, expected, captured] of CASES) {
    const match = router.match(world, 'GET', path);
    if (expected === undefined) {
      t.equal(match.kind, 'not-found', path);
      continue;
    }
    t.equal(match.kind === 'found' ? match.endpoint : match.kind, named.get(expected), path);
    t.same(match.kind === 'found' ? Object.fromEntries(match.path) : undefined, captured, `${path} captures`);
  }
});

t.test('a matched path answers HEAD with its GET endpoint and other methods with the allowed list', async (t) => {
  const world = testServer().world;
  const router = new Router(ROUTES);
  const head = router.match(world, 'HEAD', '/api/v1/users/10');
  t.equal(head.kind === 'found' ? head.endpoint : head.kind, named.get('byId'));
  const post = router.match(world, 'POST', '/api/v1/users/10');
  t.same(post.kind === 'method-not-allowed' ? post.allowed : post.kind, ['GET', 'HEAD']);
  const options = router.match(world, 'OPTIONS', '/api/v1/users');
  t.same(options.kind === 'options' ? options.allowed : options.kind, ['GET', 'HEAD']);
});
