/**
 * Getting an API key: `POST /fetch_api_key` (section 4.6, with the failed-login rate limit) and
 * the development-server endpoints `POST /dev_fetch_api_key` and `/dev_list_users`.
 */
import { isValidEmail } from '../../../lib/input/email.js';
import { ApiError, badRequest, rateLimited } from '../../../lib/errors.js';
import { isAdministrator, type User } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import type { World } from '../../../lib/state/world.js';
import { type AppServices, open, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';
import { sameKey } from '../../app/auth.js';

const authFailed = () => new ApiError('AUTHENTICATION_FAILED', 401, 'Your username or password is incorrect');
const userDeactivated = () => new ApiError('USER_DEACTIVATED', 401, 'Account is deactivated');
const realmDeactivated = () => new ApiError('REALM_DEACTIVATED', 401, 'This organization has been deactivated');
const invalidSubdomain = () => new ApiError('NONEXISTENT_SUBDOMAIN', 404, 'Invalid subdomain');

function keyResponse(world: World, user: User): Record<string, unknown> {
  return {
    api_key: user.apiKey,
    email: user.deliveryEmail,
    ...(world.has(FEATURES.FETCH_API_KEY_USER_ID) ? { user_id: user.id } : {}),
  };
}

/** Password login; deactivation is reported before the password is checked, as the real server does. */
function checkPassword(app: AppServices, username: string, password: string): User {
  const world = app.world;
  const user = world.usersByEmail.get(username.toLowerCase());
  if (user?.isSystemBot) throw invalidSubdomain();
  if (user && world.realm.deactivated === true) throw realmDeactivated();
  if (user && !user.isActive) throw userDeactivated();
  if (!world.realm.emailAuthEnabled) {
    throw new ApiError('PASSWORD_AUTH_DISABLED', 401, 'Password authentication is disabled in this organization');
  }
  if (!user || user.password === null || password === '' || !sameKey(user.password, password)) throw authFailed();
  return user;
}

const fetchApiKey = open({
  params: { username: str().required(), password: str().required() },
  run({ app, world }, { username, password }) {
    if (!isValidEmail(username)) throw badRequest('Enter a valid email address.');
    // Every attempt counts against the username until one succeeds (authenticate_by_username).
    const wait = app.authLimiter.attempt(username);
    if (wait !== undefined) throw rateLimited(wait);
    const user = checkPassword(app, username, password);
    app.authLimiter.clear(username);
    return keyResponse(world, user);
  },
});

const devDisabled = () => new ApiError('BAD_REQUEST', 404, 'Not Found');

const devFetchApiKey = open({
  params: { username: str().required() },
  gate({ app }) {
    if (!app.devEndpoints) throw devDisabled();
  },
  run({ world }, { username }) {
    if (!isValidEmail(username)) throw badRequest('Enter a valid email address.');
    const user = world.usersByEmail.get(username.toLowerCase());
    if (user?.isSystemBot) throw invalidSubdomain();
    if (!user) throw authFailed();
    if (world.realm.deactivated === true) throw realmDeactivated();
    if (!user.isActive) throw userDeactivated();
    return keyResponse(world, user);
  },
});

const byEmail = (a: User, b: User): number => a.deliveryEmail.toLowerCase().localeCompare(b.deliveryEmail.toLowerCase(), 'en');

const devListUsers = open({
  params: {},
  reportsIgnored: false,
  gate({ app }) {
    if (!app.devEndpoints) throw devDisabled();
  },
  run({ app, world, request }) {
    const realmUrl = app.realmUrl(request);
    const urlKey = world.has(FEATURES.REALM_URL) ? 'realm_url' : 'realm_uri';
    const people = [...world.users.values()].filter((u) => u.isActive && !u.isBot).sort(byEmail);
    const entry = (u: User) => ({ email: u.deliveryEmail, [urlKey]: realmUrl });
    return {
      direct_admins: people.filter(isAdministrator).map(entry),
      direct_users: people.filter((u) => !isAdministrator(u)).map(entry),
    };
  },
});

export const routes: RouteDef[] = [
  { path: '/fetch_api_key', methods: { POST: fetchApiKey } },
  { path: '/dev_fetch_api_key', methods: { POST: devFetchApiKey } },
  {
    path: '/dev_list_users',
    methods: { GET: devListUsers, POST: devListUsers, PATCH: devListUsers, PUT: devListUsers, DELETE: devListUsers },
  },
];
