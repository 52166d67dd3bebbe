/**
 * The suite proves its power: against deliberately broken variants of our server it fails, and
 * names the rule that caught the breakage. Against the unbroken server every rule passes.
 */
import t from 'tap';
import { failedIds, failureLines, mapJsonBody, type Mutation, runOnReference } from './support/conformance.js';

const basicOf = (header: string | undefined): { email: string; key: string } | undefined => {
  if (!header?.startsWith('Basic ')) return undefined;
  const [email, key] = Buffer.from(header.slice(6), 'base64').toString().split(':');
  return email !== undefined && key !== undefined ? { email, key } : undefined;
};

const BREAKAGES: ReadonlyArray<{ what: string; rule: string; mutate: Mutation }> = [
  {
    what: 'unknown parameters are not reported',
    rule: 'conventions/ignored-parameters-listed-sorted',
    mutate: async (request, next) => mapJsonBody(await next(request), (body) => delete body.ignored_parameters_unsupported),
  },
  {
    what: 'unknown parameters are reported in reverse order',
    rule: 'conventions/ignored-parameters-listed-sorted',
    mutate: async (request, next) =>
      mapJsonBody(await next(request), (body) => {
        if (Array.isArray(body.ignored_parameters_unsupported)) body.ignored_parameters_unsupported.reverse();
      }),
  },
  {
    what: 'a request without credentials is served as an administrator',
    rule: 'auth/no-credentials-unauthorized',
    mutate: (request, next, app) => {
      if (request.headers.has('authorization')) return next(request);
      const iago = app.world.usersByEmail.get('iago@zulip.com')!;
      const headers = new Map(request.headers).set('authorization', `Basic ${Buffer.from(`${iago.deliveryEmail}:${iago.apiKey}`).toString('base64')}`);
      return next({ ...request, headers });
    },
  },
  {
    what: 'any key is accepted for a known email',
    rule: 'auth/invalid-credentials-unauthorized',
    mutate: (request, next, app) => {
      const basic = basicOf(request.headers.get('authorization'));
      const user = basic && app.world.usersByEmail.get(basic.email.toLowerCase());
      if (!user) return next(request);
      const headers = new Map(request.headers).set('authorization', `Basic ${Buffer.from(`${user.deliveryEmail}:${user.apiKey}`).toString('base64')}`);
      return next({ ...request, headers });
    },
  },
  {
    what: 'a non-Basic scheme gets 401',
    rule: 'auth/non-basic-scheme-bad-request',
    mutate: async (request, next) => {
      const response = await next(request);
      return response.status === 400 && /^(?!basic)\S+ /i.test(request.headers.get('authorization') ?? '') ? { ...response, status: 401 } : response;
    },
  },
  {
    what: 'an unknown user ID answers 404',
    rule: 'users/get-user-unknown-id-bad-request',
    mutate: async (request, next) => {
      const response = await next(request);
      return /^\/api\/v1\/users\/\d+$/.test(request.path) && response.status === 400 ? { ...response, status: 404 } : response;
    },
  },
  {
    what: 'a wrong method answers 404',
    rule: 'conventions/wrong-method-not-allowed',
    mutate: async (request, next) => {
      const response = await next(request);
      return response.status === 405 ? { ...response, status: 404 } : response;
    },
  },
  {
    what: 'the pointer, removed at level 23, is still served',
    rule: 'conventions/removed-routes-not-found',
    mutate: async (request, next) =>
      request.method === 'GET' && request.path === '/api/v1/users/me/pointer' ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"result":"success","msg":"","pointer":-1}\n' } : next(request),
  },
  {
    what: 'client_gravatar=yes is taken as the default',
    rule: 'conventions/json-boolean-parameter-refuses-other-values',
    mutate: (request, next) => next({ ...request, query: request.query.filter(([name, value]) => name !== 'client_gravatar' || value === 'true' || value === 'false') }),
  },
  {
    what: 'delivery_email is left out when the caller may not see it',
    rule: 'users/delivery-email-always-present',
    mutate: async (request, next) =>
      mapJsonBody(await next(request), (body) => {
        for (const user of Array.isArray(body.members) ? (body.members as Array<Record<string, unknown>>) : []) if (user.delivery_email === null) delete user.delivery_email;
      }),
  },
  {
    what: 'a missing argument answers BAD_REQUEST',
    rule: 'fetch-api-key/missing-argument',
    mutate: async (request, next) => mapJsonBody(await next(request), (body) => body.code === 'REQUEST_VARIABLE_MISSING' && (body.code = 'BAD_REQUEST')),
  },
  {
    what: 'moderators are flagged as administrators',
    rule: 'users/get-user-shape',
    mutate: async (request, next) =>
      mapJsonBody(await next(request), (body) => {
        const user = body.user as Record<string, unknown> | undefined;
        if (user?.role === 300) user.is_admin = true;
      }),
  },
];

t.test('every rule passes against the unbroken reference server', async (t) => {
  const result = await runOnReference({ numRuns: 10, seed: 1 });
  t.same(failureLines(result), []);
  // Against the embedded server every identity exists, so the only skips are rules for older levels.
  const skippedForOtherReasons = result.results.filter(
    (r) => r.outcome === 'skipped' && !/feature level/.test(r.skipReason ?? ''),
  );
  t.same(skippedForOtherReasons.map((r) => `${r.id}: ${r.skipReason}`), []);
  t.ok(result.ok);
});

for (const breakage of BREAKAGES) {
  t.test(`the suite fails naming ${breakage.rule} when ${breakage.what}`, async (t) => {
    // Only the broken rule's resource: enough to name it, and fast.
    const result = await runOnReference({ mutate: breakage.mutate, numRuns: 25, seed: 2, only: [`${breakage.rule.split('/')[0]}/*`] });
    t.notOk(result.ok);
    const failed = failedIds(result);
    t.ok(failed.includes(breakage.rule), `failed rules: ${failed.join(', ')}`);
  });
}
