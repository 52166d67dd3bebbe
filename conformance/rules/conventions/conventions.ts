/**
 * Conventions that hold for every endpoint (section 1): the envelope, parameter encoding,
 * `ignored_parameters_unsupported`, routing (404, 405). Endpoints exercised here exist at every
 * feature level: `GET /users/{user_id}` (a parsing decorator, so it reports unknown names),
 * `/server_settings`, `/fetch_api_key`, `/users`, `/users/me`.
 */
import fc from 'fast-check';
import { check, expectError, expectStatus, expectSuccess } from '../../expect/assert.js';
import { notJsonBoolean, pathSegment, unknownParamName } from '../support/arbitraries.js';
import type { Rule } from '../types.js';
import { ignoredNames, unknownParams } from './unknown-parameters.js';

const GET_USER_PARAMS = ['client_gravatar', 'include_custom_profile_fields'];
/** Declared by the view that also serves GET /users on newer servers, so never "unknown" there. */
const GET_USER_RESERVED = [...GET_USER_PARAMS, 'user_ids'];
/** An ID no realm will reach, for error paths. */
const ABSENT_USER_ID = 2_147_483_000;

const ignoredListed: Rule = {
  id: 'conventions/ignored-parameters-listed-sorted',
  title: 'any set of unknown parameter names is reported exactly, sorted, in ignored_parameters_unsupported',
  endpoint: 'GET /users/{user_id}',
  section: '1 convention 4; 9.3',
  levels: { min: 167 },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const self = ctx.identity('user').userId;
    const client = ctx.as('user');
    expectSuccess(await client.get(`/users/${self}`, { client_gravatar: true }), { ignored: [] });
    await ctx.property(
      'unknown names listed, supported ones and client never',
      [unknownParams(GET_USER_RESERVED, { minLength: 1, maxLength: 5 }), fc.boolean(), fc.boolean()],
      async (unknown, withSupported, withClient) => {
        const pairs: Array<[string, unknown]> = [...unknown];
        if (withSupported) pairs.push(['include_custom_profile_fields', false]);
        if (withClient) pairs.push(['client', 'chat-conformance']);
        const reply = await client.get(`/users/${self}`, pairs);
        expectSuccess(reply, { ignored: ignoredNames(unknown) });
      },
      { labels: ['unknown parameters', 'with a supported parameter', 'with client'] },
    );
  },
};

const ignoredAbsentOnErrors: Rule = {
  id: 'conventions/ignored-parameters-absent-on-errors',
  title: 'error responses never carry ignored_parameters_unsupported, whatever was sent',
  endpoint: 'GET /users/{user_id}',
  section: '1 conventions 4-5',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    await ctx.property('unknown names on a failing request', [fc.uniqueArray(unknownParamName(GET_USER_RESERVED), { minLength: 1, maxLength: 4 })], async (names) => {
      const reply = await client.get(`/users/${ABSENT_USER_ID}`, names.map((name) => [name, 'x'] as const));
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const jsonBoolean: Rule = {
  id: 'conventions/json-boolean-parameter-refuses-other-values',
  title: 'a JSON-encoded boolean parameter accepts true/false and answers 400 BAD_REQUEST to anything else (yes, True, 1, "true")',
  endpoint: 'GET /users/{user_id}',
  section: '1 convention 2; 7',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const self = ctx.identity('user').userId;
    const client = ctx.as('user');
    for (const value of ['true', 'false']) expectSuccess(await client.get(`/users/${self}`, { client_gravatar: value }));
    await ctx.property('non-boolean values', [fc.constantFrom(...GET_USER_PARAMS), notJsonBoolean()], async (name, value) => {
      expectError(await client.get(`/users/${self}`, [[name, value]]), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const unknownRoute: Rule = {
  id: 'conventions/unknown-route-not-found',
  title: 'a path that names no endpoint answers 404, with or without credentials, whatever the method',
  endpoint: '*',
  section: '1 convention 1',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const clients = [ctx.anonymous, ctx.as('user')];
    await ctx.property(
      'unknown paths',
      [fc.array(pathSegment(), { minLength: 0, maxLength: 3 }), fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'), fc.boolean()],
      async (segments, method, authenticated) => {
        // The fixed first segment guarantees no real route matches (the body is not asserted: unconfirmed).
        const path = ['/conformance-no-such-route', ...segments].join('/');
        expectStatus(await clients[authenticated ? 1 : 0]!.call(method, path), 404);
      },
    );
  },
};

/**
 * Routes the real server removed at a level (changelog 23, 233 and 282), each sent without its
 * parameter, so that even a server still serving one changes nothing.
 */
const REMOVED_ROUTES: ReadonlyArray<{ readonly method: string; readonly path: string; readonly removedAt: number }> = [
  { method: 'GET', path: '/users/me/pointer', removedAt: 23 },
  { method: 'POST', path: '/users/me/pointer', removedAt: 23 },
  { method: 'PUT', path: '/users/me/pointer', removedAt: 23 },
  { method: 'POST', path: '/users/me/hotspots', removedAt: 233 },
  { method: 'POST', path: '/users/me/tutorial_status', removedAt: 282 },
];

const removedRoutes: Rule = {
  id: 'conventions/removed-routes-not-found',
  title: 'routes removed at a level (the pointer at 23, hotspots at 233, tutorial_status at 282) answer 404 from that level on, as paths that name no endpoint',
  endpoint: 'GET, PUT, POST /users/me/pointer, POST /users/me/hotspots, POST /users/me/tutorial_status',
  section: '1 convention 1; changelog 23, 233, 282',
  levels: { min: 23 },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    for (const { method, path, removedAt } of REMOVED_ROUTES) {
      if (ctx.featureLevel >= removedAt) expectStatus(await client.call(method, path), 404);
    }
  },
};

/** Methods each route refuses on every server version (never a method that would change state). */
const WRONG_METHODS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['/server_settings', ['POST', 'PUT', 'PATCH', 'DELETE']],
  ['/fetch_api_key', ['GET', 'PUT', 'PATCH', 'DELETE']],
  ['/users', ['PUT', 'PATCH', 'DELETE']],
  ['/users/me', ['POST', 'PUT', 'PATCH']],
  ['/users/{id}', ['POST', 'PUT']],
];

const wrongMethod: Rule = {
  id: 'conventions/wrong-method-not-allowed',
  title: 'a method the route does not support answers 405 (before authentication) and the Allow header omits it',
  endpoint: '*',
  section: '1 convention 1',
  writes: false,
  async run(ctx) {
    const pairs = WRONG_METHODS.flatMap(([path, methods]) => methods.map((method) => [path, method] as const));
    await ctx.property('wrong methods, no credentials', [fc.constantFrom(...pairs), fc.integer({ min: 1, max: 1_000_000 })], async ([path, method], id) => {
      const reply = await ctx.anonymous.call(method, path.replace('{id}', String(id)));
      expectStatus(reply, 405);
      const allow = reply.headers.allow;
      check(allow !== undefined, '405 must carry an Allow header', reply);
      check(!allow.toUpperCase().split(/\s*,\s*/).includes(method), `Allow lists the refused method ${method}`, reply);
      const body = reply.body;
      if (body !== undefined) {
        check(body.result === 'error', '405 JSON body: result must be "error"', reply);
        check(!Array.isArray(body.allowed_methods) || !body.allowed_methods.includes(method), 'allowed_methods lists the refused method', reply);
      }
    });
  },
};

const successEnvelope: Rule = {
  id: 'conventions/success-envelope',
  title: 'a success is HTTP 200 with a JSON object: result "success", msg ""',
  endpoint: '*',
  section: '1 convention 3',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    for (const reply of [await ctx.anonymous.get('/server_settings'), await client.get('/users/me'), await client.get('/users')]) {
      expectSuccess(reply);
      check(reply.headers['content-type']?.startsWith('application/json'), 'success Content-Type must be application/json', reply);
    }
  },
};

const errorEnvelope: Rule = {
  id: 'conventions/error-envelope',
  title: 'an error is a JSON object with result "error", a string code and a string msg',
  endpoint: '*',
  section: '1 convention 5; 7',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const replies = [
      await ctx.anonymous.get('/users/me'),
      await client.get(`/users/${ABSENT_USER_ID}`),
      await client.get(`/users/${ctx.identity('user').userId}`, { client_gravatar: 'yes' }),
    ];
    for (const reply of replies) {
      check(reply.status >= 400 && reply.status < 500, 'expected a 4xx error', reply);
      check(reply.body?.result === 'error', 'result must be "error"', reply);
      check(typeof reply.body?.code === 'string' && reply.body.code !== '', 'code must be a non-empty string', reply);
      check(typeof reply.body?.msg === 'string' && reply.body.msg !== '', 'msg must be a non-empty string', reply);
      check(reply.headers['content-type']?.startsWith('application/json'), 'error Content-Type must be application/json', reply);
    }
  },
};

export const rules: readonly Rule[] = [ignoredListed, ignoredAbsentOnErrors, jsonBoolean, unknownRoute, removedRoutes, wrongMethod, successEnvelope, errorEnvelope];
