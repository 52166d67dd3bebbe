/**
 * The realm-domain rules prove their power: events missing or wrong, changes answered but not
 * made, register's old empty placeholder, invalid domains stored, texts changed, administrators
 * let in from level 143 or kept out before it, and parameters checked before the role. Each
 * deliberately broken variant of our server is caught, and by the rule that targets it.
 */
import { ROLE } from '../lib/entities/user.js';
import type { Mutation } from './support/conformance.js';
import { errorAnswer, rewriteAnswer } from './support/power-helpers.js';
import { asUser, badRequestAnswer, type Breakage, caller, eachBreakageFailsItsRule, formOf, is, mapAnswers, mapEvents, on, passesUnbroken, replaceEvents, SUCCESS, userOfRole } from './support/power-mutations.js';

const ONE = /^\/realm\/domains\/[^/]+$/;
const LIFECYCLE = 'realm-domains/add-change-remove-with-events';
const INVALID = 'realm-domains/invalid-domains-refused';
const OWNERS = 'realm-domains/owners-only';
const ADMINISTRATORS = 'realm-domains/administrators-before-143';

/** Administrators' writes are made as the owner. */
const administratorsLetIn: Mutation = (request, next, app) =>
  /^\/api\/v1\/realm\/domains/.test(request.path) && request.method !== 'GET' && caller(app, request)?.role === ROLE.ADMINISTRATOR ? next(asUser(request, userOfRole(app, ROLE.OWNER))) : next(request);

/** Administrators are refused as if the owners-only rule applied at every level. */
const administratorsKeptOut: Mutation = (request, next, app) =>
  /^\/api\/v1\/realm\/domains/.test(request.path) && request.method !== 'GET' && caller(app, request)?.role === ROLE.ADMINISTRATOR
    ? Promise.resolve(errorAnswer(400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'))
    : next(request);

/** A request without parameters is refused for its missing parameter before the role is checked. */
const parametersFirst: Mutation = on('POST', '/realm/domains', (request, next) =>
  formOf(request).has('domain') ? next(request) : Promise.resolve(errorAnswer(400, 'REQUEST_VARIABLE_MISSING', "Missing 'allow_subdomains' argument")));

/** A domain with `_` is stored as sent. */
const underscoresStored: Mutation = on('POST', '/realm/domains', (request, next, app) => {
  const domain = formOf(request).get('domain') ?? '';
  if (!domain.includes('_')) return next(request);
  app.world.realmDomains.set(domain, { id: app.world.ids.next('realmDomain'), domain, allowSubdomains: false });
  return Promise.resolve(SUCCESS);
});

const BREAKAGES: readonly Breakage[] = [
  { what: 'no realm_domains event is sent', rule: LIFECYCLE, mutate: replaceEvents('realm_domains', () => undefined) },
  { what: 'the change event carries the old allow_subdomains', rule: LIFECYCLE, mutate: mapEvents('realm_domains', (event) => void (event.op === 'change' && ((event.realm_domain as { allow_subdomains: boolean }).allow_subdomains = false))) },
  { what: 'the remove event names the domain in upper case', rule: LIFECYCLE, mutate: mapEvents('realm_domains', (event) => void (event.op === 'remove' && (event.domain = String(event.domain).toUpperCase()))) },
  { what: 'a change is answered but not made', rule: LIFECYCLE, mutate: on('PATCH', ONE, () => Promise.resolve(SUCCESS)) },
  { what: 'register answers the old empty realm_domains', rule: LIFECYCLE, mutate: rewriteAnswer((request) => is(request, 'POST', /^\/register$/), (body) => void ('realm_domains' in body && (body.realm_domains = []))) },
  { what: 'new_domain answers the domain as sent', rule: LIFECYCLE, mutate: mapAnswers('POST', /^\/realm\/domains$/, (body) => void (Array.isArray(body.new_domain) && (body.new_domain = [body.new_domain[0], 'As-Sent.example']))) },
  { what: 'a duplicate is refused with another text', rule: LIFECYCLE, mutate: mapAnswers('POST', /^\/realm\/domains$/, (body) => void (String(body.msg).startsWith('The domain') && (body.msg = 'Domain already exists.'))) },
  { what: 'an unknown domain is answered as a success', rule: LIFECYCLE, mutate: mapAnswers('DELETE', ONE, (body) => void (String(body.msg).startsWith('No entry') && Object.assign(body, { result: 'success', msg: '' }))) },
  { what: 'a domain with _ is stored', rule: INVALID, mutate: underscoresStored },
  { what: 'the reason comes without "Invalid domain: "', rule: INVALID, mutate: mapAnswers('POST', /^\/realm\/domains$/, (body) => void (typeof body.msg === 'string' && (body.msg = body.msg.replace(/^Invalid domain: /, '')))) },
  { what: 'over 255 characters is refused as empty', rule: INVALID, mutate: on('POST', '/realm/domains', (request, next) => ((formOf(request).get('domain') ?? '').length > 255 ? Promise.resolve(badRequestAnswer("Invalid domain: Domain can't be empty.")) : next(request))) },
  { what: 'administrators add, change and remove domains', rule: OWNERS, mutate: administratorsLetIn },
  { what: 'parameters are checked before the role', rule: OWNERS, mutate: parametersFirst },
  { what: 'administrators are kept out below level 143', rule: ADMINISTRATORS, mutate: administratorsKeptOut, level: 142 },
];

passesUnbroken('every realm-domain rule', [LIFECYCLE, INVALID, OWNERS, ADMINISTRATORS], [415, 142], 1, 3);
eachBreakageFailsItsRule(BREAKAGES, 1);
