/**
 * The authentication and user rules prove their power: against deliberately broken variants of
 * our server the rule that targets the breakage fails (and no other of those run); against the
 * unbroken server every one of them passes at several feature levels. (The API rate-limit rule's
 * variants need a server that limits: conformance-power-auth-limits.test.ts.)
 */
import { EMAIL_VISIBILITY, emailVisibility, ROLE } from '../lib/entities/user.js';
import { type Mutation } from './support/conformance.js';
import { type Breakage, eachBreakageFailsItsRule, passesUnbroken } from './support/power-mutations.js';
import { apiPath, asIago, caller, errorAnswer, formOf, is, newApiKey, rewriteAnswer, usersIn, withForm, withoutHeader, withQuery } from './support/power-helpers.js';

const AUTH_RULES = [
  'auth/every-endpoint-*',
  'auth/api-rate-limit-headers',
  'fetch-api-key/password-login-returns-working-key',
  'fetch-api-key/wrong-password-refused',
  'fetch-api-key/deactivated-user-refused',
  'fetch-api-key/failed-login-limit',
  'fetch-api-key/limit-blocks-right-password',
  'users/role-flags-and-bot-fields-for-every-viewer',
  'users/delivery-email-follows-visibility',
  'users/parameter-defaults',
  'deactivate-user/guest-refused',
  'deactivate-user/owner-deactivates',
  'deactivate-user/acting-on-itself',
  'deactivate-user/bots-neither-target-nor-actor',
  'server-settings/login-methods-mean-what-they-say',
  'server-settings/agrees-with-register',
  'conventions/ignored-parameters-from-body-and-query',
];

const FETCH_KEY = /^\/fetch_api_key$/;
const USERS = /^\/users(\/\d+)?$/;
const DELETE_USER = /^\/users\/\d+$/;
const targetId = (path: string): number => Number(/(\d+)$/.exec(path)?.[1]);
const noAuth = (request: { headers: ReadonlyMap<string, string> }) => !request.headers.has('authorization');
const role = (value: number) => (request: Parameters<typeof caller>[1], app: Parameters<typeof caller>[0]) => is(request, 'GET', USERS) && caller(app, request)?.role === value;

/** A login rewritten: the form's username and password, and the account it names. */
const loginMutation = (change: (form: URLSearchParams, app: Parameters<typeof caller>[0]) => void): Mutation => (request, next, app) => {
  if (!is(request, 'POST', FETCH_KEY)) return next(request);
  const form = formOf(request);
  change(form, app);
  return next(withForm(request, form));
};

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'the linkifier listing answers without credentials',
    rule: 'auth/every-endpoint-refuses-missing-credentials',
    mutate: (request, next, app) => next(is(request, 'GET', /^\/realm\/linkifiers$/) && noAuth(request) ? asIago(app, request) : request),
  },
  {
    what: 'deleting an attachment without credentials answers 401 without a challenge',
    rule: 'auth/every-endpoint-refuses-missing-credentials',
    mutate: async (request, next) => (is(request, 'DELETE', /^\/attachments\//) ? withoutHeader(await next(request), /^www-authenticate$/i) : next(request)),
  },
  {
    what: 'a request without credentials is told its header is missing (an older text)',
    rule: 'auth/every-endpoint-refuses-missing-credentials',
    mutate: rewriteAnswer((request) => noAuth(request), (body) => body.code === 'UNAUTHORIZED' && (body.msg = 'Missing authorization header for basic auth')),
  },
  {
    what: 'a non-Basic scheme on a POST answers 401',
    rule: 'auth/every-endpoint-refuses-malformed-header',
    mutate: async (request, next) => {
      const response = await next(request);
      const scheme = request.headers.get('authorization') ?? 'basic';
      return request.method === 'POST' && !/^basic/i.test(scheme) && response.status === 400 ? { ...response, status: 401 } : response;
    },
  },
  {
    what: 'Basic credentials without a colon are taken as an unknown user',
    rule: 'auth/every-endpoint-refuses-malformed-header',
    mutate: rewriteAnswer(() => true, (body) => body.msg === 'Invalid authorization header for basic auth' && (body.msg = 'Invalid API key')),
  },
  {
    what: 'a key of the wrong form is called invalid rather than malformed',
    rule: 'auth/every-endpoint-refuses-wrong-credentials',
    mutate: rewriteAnswer(() => true, (body) => body.msg === 'Malformed API key' && (body.msg = 'Invalid API key')),
  },
  {
    what: 'a wrong key on POST /reminders answers 403',
    rule: 'auth/every-endpoint-refuses-wrong-credentials',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'POST', /^\/reminders$/) && response.status === 401 && !noAuth(request) ? { ...response, status: 403 } : response;
    },
  },
  {
    what: 'every password login rotates the key',
    rule: 'fetch-api-key/password-login-returns-working-key',
    mutate: rewriteAnswer((request) => is(request, 'POST', FETCH_KEY), (body, _request, app) => {
      const user = typeof body.email === 'string' ? app.world.usersByEmail.get(body.email.toLowerCase()) : undefined;
      if (user) body.api_key = user.apiKey = newApiKey();
    }),
  },
  {
    what: 'the username is matched with its letter case',
    rule: 'fetch-api-key/password-login-returns-working-key',
    mutate: (request, next) => (is(request, 'POST', FETCH_KEY) && /[A-Z]/.test(formOf(request).get('username') ?? '') ? Promise.resolve(errorAnswer(401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect')) : next(request)),
  },
  {
    what: 'passwords are compared without regard to letter case',
    rule: 'fetch-api-key/wrong-password-refused',
    mutate: loginMutation((form, app) => {
      const password = app.world.usersByEmail.get((form.get('username') ?? '').toLowerCase())?.password;
      if (password && form.get('password')?.toLowerCase() === password.toLowerCase()) form.set('password', password);
    }),
  },
  {
    what: 'the password is checked before deactivation',
    rule: 'fetch-api-key/deactivated-user-refused',
    mutate: rewriteAnswer((request) => is(request, 'POST', FETCH_KEY), (body, request, app) => {
      const form = formOf(request);
      if (body.code === 'USER_DEACTIVATED' && app.world.usersByEmail.get(form.get('username') ?? '')?.password !== form.get('password')) {
        Object.assign(body, { code: 'AUTHENTICATION_FAILED', msg: 'Your username or password is incorrect' });
      }
    }),
  },
  {
    what: 'the key of a deactivated user still answers',
    rule: 'fetch-api-key/deactivated-user-refused',
    mutate: (request, next, app) => {
      const user = caller(app, request);
      if (!user || user.isActive || user.isBot || apiPath(request) !== '/users/me') return next(request);
      user.isActive = true;
      return next(request).finally(() => (user.isActive = false));
    },
  },
  {
    what: 'the failed-login limit folds the letter case of usernames',
    rule: 'fetch-api-key/failed-login-limit',
    mutate: loginMutation((form) => form.set('username', (form.get('username') ?? '').toLowerCase())),
  },
  {
    what: 'the failed-login 429 carries no Retry-After header',
    rule: 'fetch-api-key/failed-login-limit',
    mutate: async (request, next) => withoutHeader(await next(request), /^retry-after$/i),
  },
  {
    what: 'the 5th failed login is already refused',
    rule: 'fetch-api-key/failed-login-limit',
    mutate: (() => {
      const attempts = new Map<string, number>();
      return (request, next) => {
        if (!is(request, 'POST', FETCH_KEY)) return next(request);
        const username = formOf(request).get('username') ?? '';
        attempts.set(username, (attempts.get(username) ?? 0) + 1);
        return attempts.get(username) === 5 ? Promise.resolve(errorAnswer(429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', { 'Retry-After': '1800' })) : next(request);
      };
    })(),
  },
  {
    what: 'the right password passes the failed-login limit',
    rule: 'fetch-api-key/limit-blocks-right-password',
    mutate: async (request, next, app) => {
      const response = await next(request);
      const form = formOf(request);
      const user = is(request, 'POST', FETCH_KEY) ? app.world.usersByEmail.get(form.get('username') ?? '') : undefined;
      if (response.status !== 429 || !user || user.password !== form.get('password')) return response;
      app.authLimiter.clear(form.get('username') ?? '');
      return next(request);
    },
  },
  {
    what: 'guests see owners without is_owner',
    rule: 'users/role-flags-and-bot-fields-for-every-viewer',
    mutate: rewriteAnswer(role(ROLE.GUEST), (body) => usersIn(body).forEach((user) => user.role === ROLE.OWNER && (user.is_owner = false))),
  },
  {
    what: "members see no bot's delivery email",
    rule: 'users/role-flags-and-bot-fields-for-every-viewer',
    mutate: rewriteAnswer(role(ROLE.MEMBER), (body) => usersIn(body).forEach((user) => user.is_bot === true && (user.delivery_email = null))),
  },
  {
    what: 'moderators see addresses only administrators may see',
    rule: 'users/delivery-email-follows-visibility',
    mutate: rewriteAnswer(role(ROLE.MODERATOR), (body, _request, app) => {
      for (const user of usersIn(body)) {
        const target = app.world.users.get(user.user_id as number);
        if (target && emailVisibility(target) === EMAIL_VISIBILITY.ADMINS) user.delivery_email = target.deliveryEmail;
      }
    }),
  },
  {
    what: 'users with a restricted visibility are listed under their real address',
    rule: 'users/delivery-email-follows-visibility',
    mutate: rewriteAnswer((request) => is(request, 'GET', USERS), (body, _request, app) => {
      for (const user of usersIn(body)) user.email = app.world.users.get(user.user_id as number)?.deliveryEmail ?? user.email;
    }),
  },
  {
    what: 'client_gravatar defaults to false',
    rule: 'users/parameter-defaults',
    mutate: (request, next) => next(is(request, 'GET', USERS) && !request.query.some(([name]) => name === 'client_gravatar') ? withQuery(request, 'client_gravatar', 'false') : request),
  },
  {
    what: 'a single user comes with profile_data by default',
    rule: 'users/parameter-defaults',
    mutate: (request, next) => next(is(request, 'GET', /^\/users\/\d+$/) && request.query.length === 0 ? withQuery(request, 'include_custom_profile_fields', 'true') : request),
  },
  {
    what: 'a guest may deactivate users',
    rule: 'deactivate-user/guest-refused',
    mutate: (request, next, app) => next(is(request, 'DELETE', DELETE_USER) && caller(app, request)?.role === ROLE.GUEST ? asIago(app, request) : request),
  },
  {
    what: 'an owner is refused like a moderator',
    rule: 'deactivate-user/owner-deactivates',
    mutate: (request, next, app) => (is(request, 'DELETE', DELETE_USER) && caller(app, request)?.role === ROLE.OWNER ? Promise.resolve(errorAnswer(400, 'BAD_REQUEST', 'Insufficient permission')) : next(request)),
  },
  {
    what: 'a member may deactivate itself',
    rule: 'deactivate-user/acting-on-itself',
    mutate: (request, next, app) => next(is(request, 'DELETE', DELETE_USER) && caller(app, request)?.id === targetId(apiPath(request)) ? asIago(app, request) : request),
  },
  {
    what: 'an administrator cannot deactivate itself',
    rule: 'deactivate-user/acting-on-itself',
    mutate: (request, next, app) => {
      const user = caller(app, request);
      const self = is(request, 'DELETE', DELETE_USER) && user?.id === targetId(apiPath(request)) && user.role === ROLE.ADMINISTRATOR;
      return self ? Promise.resolve(errorAnswer(400, 'BAD_REQUEST', 'Insufficient permission')) : next(request);
    },
  },
  {
    what: 'DELETE /users/{bot id} deactivates the bot',
    rule: 'deactivate-user/bots-neither-target-nor-actor',
    mutate: (request, next, app) => {
      const bot = is(request, 'DELETE', DELETE_USER) ? app.world.users.get(targetId(apiPath(request))) : undefined;
      return next(bot?.isBot ? { ...request, path: `/api/v1/bots/${bot.id}` } : request);
    },
  },
  {
    what: 'server_settings says the development login is off while it still answers',
    rule: 'server-settings/login-methods-mean-what-they-say',
    mutate: rewriteAnswer((request) => apiPath(request) === '/server_settings', (body) => ((body.authentication_methods as Record<string, boolean>).dev = false)),
  },
  {
    what: 'server_settings enables email login without the password method',
    rule: 'server-settings/login-methods-mean-what-they-say',
    mutate: rewriteAnswer((request) => apiPath(request) === '/server_settings', (body) => ((body.authentication_methods as Record<string, boolean>).password = false)),
  },
  {
    what: '/register reports another feature level than server_settings',
    rule: 'server-settings/agrees-with-register',
    mutate: rewriteAnswer((request) => apiPath(request) === '/register', (body) => typeof body.zulip_feature_level === 'number' && (body.zulip_feature_level -= 1)),
  },
  {
    what: 'the query string of a POST is not read',
    rule: 'conventions/ignored-parameters-from-body-and-query',
    mutate: (request, next) => next(request.method === 'POST' ? { ...request, query: [] } : request),
  },
  {
    what: 'client is reported as an unknown parameter',
    rule: 'conventions/ignored-parameters-from-body-and-query',
    mutate: rewriteAnswer((request) => formOf(request).has('client'), (body) => Array.isArray(body.ignored_parameters_unsupported) && body.ignored_parameters_unsupported.unshift('client')),
  },
];

passesUnbroken('every authentication and user rule', AUTH_RULES, [415, 300, 100], 5, 14);

eachBreakageFailsItsRule(BREAKAGES, 5);
