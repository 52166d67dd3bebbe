/**
 * The bot and user-administration rules prove their power: against deliberately broken variants
 * of our server (a bot created by a role that may not, an old key that keeps working, a limit off
 * by one, a permission not enforced, a missing or wrong event, ...) the named rule fails; against
 * the unbroken server every one of them passes at several feature levels.
 */
import { isAdministrator, isGuest, isModeratorOrAbove, ROLE } from '../lib/entities/user.js';
import { mapJsonBody, type Mutation } from './support/conformance.js';
import { cutTo } from './support/power-cuts.js';
import { asIago, asUser, badRequestAnswer, type Breakage, caller, eachBreakageFailsItsRule, errorsSucceed, formOf, is, mapEvents, passesUnbroken, rewriteParam, userOfRole, withForm } from './support/power-mutations.js';

const USERS_ADMIN_RULES = ['bots/*', 'api-key/*', 'create-user/*', 'update-user/*', 'reactivate-user/*', 'deactivate-own-user/*'];

const BOTS = /^\/bots$/;
const BOT = /^\/bots\/\d+$/;
const BOT_KEY = /^\/bots\/\d+\/api_key\/regenerate$/;
const OWN_KEY = /^\/users\/me\/api_key\/regenerate$/;
const USERS = /^\/users$/;
const USER = /^\/users\/\d+$/;
const REACTIVATE = /^\/users\/\d+\/reactivate$/;
const ME = /^\/users\/me$/;

/**
 * Keys that keep working after they were replaced: the answer to a regeneration is kept, and any
 * later request made with the replaced key is sent with the new one.
 */
function oldKeysKeepWorking(path: RegExp): Mutation {
  const replaced = new Map<string, string>();
  return async (request, next, app) => {
    const header = request.headers.get('authorization') ?? '';
    const [email = '', key = ''] = Buffer.from(header.slice(6), 'base64').toString().split(':');
    const current = replaced.get(`${email.toLowerCase()}:${key}`);
    if (current !== undefined) return next({ ...request, headers: new Map(request.headers).set('authorization', `Basic ${Buffer.from(`${email}:${current}`).toString('base64')}`) });
    if (!is(request, 'POST', path)) return next(request);
    const target = path === BOT_KEY ? app.world.users.get(Number(/\/bots\/(\d+)\//.exec(request.path)?.[1])) : caller(app, request);
    const before = target?.apiKey;
    const response = await next(request);
    if (target && before !== undefined && response.status === 200) replaced.set(`${target.deliveryEmail.toLowerCase()}:${before}`, target.apiKey);
    return response;
  };
}

/** Requests matching `method` and `path` from callers `who` accepts are sent as the administrator iago. */
const asIagoWhen = (method: string, path: RegExp, who: (role: number, isBot: boolean) => boolean): Mutation => (request, next, app) => {
  const user = caller(app, request);
  return is(request, method, path) && user && who(user.role, user.isBot) ? next(asIago(app, request)) : next(request);
};

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'a guest may create bots (sent as an administrator)',
    rule: 'bots/creation-by-role',
    mutate: asIagoWhen('POST', BOTS, (role) => role === ROLE.GUEST),
  },
  {
    what: 'a replaced bot key keeps working',
    rule: 'bots/regenerate-bot-key',
    mutate: oldKeysKeepWorking(BOT_KEY),
  },
  {
    what: 'a replaced own key keeps working',
    rule: 'api-key/regenerate-own-key',
    mutate: oldKeysKeepWorking(OWN_KEY),
  },
  {
    what: 'bots may not regenerate their own key',
    rule: 'bots/bot-regenerates-own-key',
    mutate: (request, next, app) => (is(request, 'POST', OWN_KEY) && caller(app, request)?.isBot ? Promise.resolve(badRequestAnswer('This endpoint does not accept bot requests.')) : next(request)),
  },
  {
    what: 'bot full names are cut to 100 characters instead of refused',
    rule: 'bots/full-name-limits',
    mutate: rewriteParam('POST', BOTS, 'full_name', cutTo(100)),
  },
  {
    what: 'a bot may take the full name of an active account',
    rule: 'bots/names-taken-or-blank-refused',
    mutate: (request, next, app) => {
      const form = formOf(request);
      const name = form.get('full_name') ?? '';
      const taken = [...app.world.users.values()].some((user) => user.isActive && user.fullName === name.trim());
      if (!is(request, 'POST', BOTS) || !taken) return next(request);
      form.set('full_name', `${name} (copy)`);
      return next(withForm(request, form));
    },
  },
  {
    what: 'bot types outside 1-4 are taken as generic bots',
    rule: 'bots/types-and-services',
    mutate: rewriteParam('POST', BOTS, 'bot_type', (type) => (['1', '2', '3', '4'].includes(type) ? type : '1')),
  },
  {
    what: "a moderator may deactivate someone else's bot",
    rule: 'bots/only-owner-and-administrators-manage',
    mutate: asIagoWhen('DELETE', BOT, (role, isBot) => role === ROLE.MODERATOR && !isBot),
  },
  {
    what: 'an owner change answers success but is not made',
    rule: 'bots/update-owner',
    mutate: rewriteParam('PATCH', BOT, 'bot_owner_id', () => undefined),
  },
  {
    what: "a member may change its bot's role",
    rule: 'bots/update-role',
    mutate: asIagoWhen('PATCH', BOT, (role, isBot) => role === ROLE.MEMBER && !isBot),
  },
  {
    what: 'an empty default channel does not clear it',
    rule: 'bots/update-default-channels',
    mutate: rewriteParam('PATCH', BOT, 'default_sending_stream', (value) => (value === '' ? undefined : value)),
  },
  {
    what: 'realm_bot add events carry no api_key',
    rule: 'bots/realm-bot-events',
    mutate: mapEvents('realm_bot', (event) => {
      if (event.op === 'add') delete (event.bot as Record<string, unknown>).api_key;
    }),
  },
  {
    what: 'a realm_bot update carries the previous full name',
    rule: 'bots/realm-bot-events',
    mutate: mapEvents('realm_bot', (event) => {
      const bot = event.bot as Record<string, unknown>;
      if (event.op === 'update' && typeof bot.full_name === 'string') bot.full_name = `${bot.full_name} (old)`;
    }),
  },
  {
    what: 'a moderator may create users',
    rule: 'create-user/non-administrators-refused',
    mutate: asIagoWhen('POST', USERS, (role) => role === ROLE.MODERATOR),
  },
  {
    what: 'an address already in use gets a fresh account (the address is changed)',
    rule: 'create-user/invalid-input-refused',
    mutate: (request, next, app) => {
      const form = formOf(request);
      const email = form.get('email') ?? '';
      if (!is(request, 'POST', USERS) || !app.world.usersByEmail.has(email.toLowerCase())) return next(request);
      form.set('email', email.replace('@', '-again@'));
      return next(withForm(request, form));
    },
  },
  {
    what: 'an administrator may grant the owner role (sent as the owner)',
    rule: 'update-user/role-grants-by-role',
    mutate: (request, next, app) => {
      const user = caller(app, request);
      const grantsOwner = formOf(request).get('role') === String(ROLE.OWNER);
      return is(request, 'PATCH', USER) && grantsOwner && user && isAdministrator(user) && user.role !== ROLE.OWNER ? next(asUser(request, userOfRole(app, ROLE.OWNER))) : next(request);
    },
  },
  {
    what: 'a blank full name is refused instead of ignored',
    rule: 'update-user/full-name',
    mutate: (request, next) => (is(request, 'PATCH', USER) && formOf(request).get('full_name')?.trim() === '' ? Promise.resolve(badRequestAnswer('Name too short!')) : next(request)),
  },
  {
    what: 'full names over 100 characters are cut by PATCH /users/{id}',
    rule: 'update-user/full-name',
    mutate: rewriteParam('PATCH', USER, 'full_name', cutTo(100)),
  },
  {
    what: 'a moderator may reactivate users',
    rule: 'reactivate-user/administrator-reactivates',
    mutate: (request, next, app) => {
      const user = caller(app, request);
      return is(request, 'POST', REACTIVATE) && user && isModeratorOrAbove(user) && !isAdministrator(user) ? next(asIago(app, request)) : next(request);
    },
  },
  {
    what: 'the only owner leaving gets a plain BAD_REQUEST',
    rule: 'deactivate-own-user/sole-owner-refused',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'DELETE', ME) && response.status === 400 ? mapJsonBody(response, (body) => { body.code = 'BAD_REQUEST'; delete body.is_last_owner; }) : response;
    },
  },
  {
    what: 'the realm_user update of a user who left says is_active true',
    rule: 'deactivate-own-user/user-leaves',
    mutate: mapEvents('realm_user', (event) => {
      const person = event.person as Record<string, unknown>;
      if (person.is_active === false) person.is_active = true;
    }),
  },
  {
    what: 'guests may list bots',
    rule: 'bots/guests-and-bots-refused',
    mutate: (request, next, app) => {
      const user = caller(app, request);
      return is(request, 'GET', BOTS) && user && isGuest(user) ? Promise.resolve(mapJsonBody({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"result":"success","msg":""}\n' }, (body) => { body.bots = []; })) : next(request);
    },
  },
  {
    what: 'an invalid interface type is accepted',
    rule: 'bots/types-and-services',
    mutate: rewriteParam('POST', BOTS, 'interface_type', (value) => (value === '1' || value === '2' ? value : '1')),
  },
  {
    what: "regenerating someone else's bot key answers success",
    rule: 'bots/only-owner-and-administrators-manage',
    mutate: errorsSucceed('POST', BOT_KEY),
  },
];

passesUnbroken('every bot and user-administration rule', USERS_ADMIN_RULES, [415, 289, 207], 3, 24);

eachBreakageFailsItsRule(BREAKAGES, 3);
