/**
 * The subscription, typing, user-topic, mark-as-read and deactivation rules prove their power:
 * each deliberately broken variant of our server is caught, and by the named rule. Each run is
 * limited to the rules of the area and few property runs, so the test stays fast.
 */
import t from 'tap';
import type { ChatApp } from '../server/app/app.js';
import type { ApiRequest, ApiResponse } from '../server/app/request.js';
import { failedIds, failureLines, mapJsonBody, type Mutation, runOnReference } from './support/conformance.js';

const AREA = ['subscribe/*', 'subscriptions/*', 'subscriptions-list/*', 'unsubscribe/*', 'get-stream-id/*', 'typing/*', 'user-topics/*', 'mark-topic-as-read/*', 'deactivate-user/*'];

const API = '/api/v1';

/** The form parameters of a request body. */
const formOf = (request: ApiRequest): URLSearchParams => new URLSearchParams(Buffer.from(request.body).toString());

/** The request with a rewritten form body. */
const withForm = (request: ApiRequest, form: URLSearchParams): ApiRequest => ({ ...request, body: new TextEncoder().encode(form.toString()) });

/** The request with the query string rewritten. */
const withQuery = (request: ApiRequest, change: (query: URLSearchParams) => void): ApiRequest => {
  const query = new URLSearchParams(request.query.map(([name, value]) => [name, value] as [string, string]));
  change(query);
  return { ...request, query: [...query.entries()] };
};

/** The user authenticated by a request's Basic header. */
function caller(app: ChatApp, request: ApiRequest) {
  const header = request.headers.get('authorization');
  if (!header?.startsWith('Basic ')) return undefined;
  const email = Buffer.from(header.slice(6), 'base64').toString().split(':')[0] ?? '';
  return app.world.usersByEmail.get(email.toLowerCase());
}

/** The same request authenticated as another user. */
function as(app: ChatApp, request: ApiRequest, email: string): ApiRequest {
  const user = app.world.usersByEmail.get(email)!;
  const headers = new Map(request.headers).set('authorization', `Basic ${Buffer.from(`${user.deliveryEmail}:${user.apiKey}`).toString('base64')}`);
  return { ...request, headers };
}

const is = (request: ApiRequest, method: string, path: string | RegExp): boolean =>
  request.method === method && (typeof path === 'string' ? request.path === `${API}${path}` : path.test(request.path));

/** Changes only matching requests. */
const on =
  (method: string, path: string | RegExp, mutate: Mutation): Mutation =>
  (request, next, app) =>
    is(request, method, path) ? mutate(request, next, app) : next(request);

const json = (response: ApiResponse): Record<string, unknown> => JSON.parse(response.body) as Record<string, unknown>;

const BREAKAGES: ReadonlyArray<{ what: string; rule: string; mutate: Mutation }> = [
  {
    what: 'subscribe responses are keyed by email at level 415',
    rule: 'subscribe/response-keyed-by-user-id',
    mutate: on('POST', '/users/me/subscriptions', async (request, next, app) =>
      mapJsonBody(await next(request), (body) => {
        for (const key of ['subscribed', 'already_subscribed']) {
          const map = body[key] as Record<string, unknown> | undefined;
          if (map) body[key] = Object.fromEntries(Object.entries(map).map(([id, names]) => [app.world.users.get(Number(id))?.deliveryEmail ?? id, names]));
        }
      }),
    ),
  },
  {
    what: 'an unknown principal answers the pre-208 403 UNAUTHORIZED_PRINCIPAL',
    rule: 'subscribe/invalid-principal-bad-request',
    mutate: on('POST', '/users/me/subscriptions', async (request, next) => {
      const response = await next(request);
      return response.status === 400 && json(response).msg === 'No such user' ? { ...response, status: 403, body: JSON.stringify({ ...json(response), code: 'UNAUTHORIZED_PRINCIPAL' }) } : response;
    }),
  },
  {
    what: 'guests are checked only after the parameters',
    rule: 'subscribe/guests-refused',
    mutate: on('POST', '/users/me/subscriptions', async (request, next, app) => {
      if (caller(app, request)?.role !== 600 || formOf(request).has('subscriptions')) return next(request);
      return { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ result: 'error', msg: "Missing 'subscriptions' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'subscriptions' }) };
    }),
  },
  {
    what: 'over-long channel names are silently truncated to 60 code points',
    rule: 'subscribe/channel-name-length-limit',
    mutate: on('POST', '/users/me/subscriptions', (request, next) => {
      const form = formOf(request);
      try {
        const items = JSON.parse(form.get('subscriptions') ?? '') as Array<{ name: string }>;
        form.set('subscriptions', JSON.stringify(items.map((item) => ({ ...item, name: [...item.name].slice(0, 60).join('') }))));
        return next(withForm(request, form));
      } catch {
        return next(request);
      }
    }),
  },
  {
    what: 'existing channels are matched case-sensitively',
    rule: 'subscribe/existing-channel-matched-case-insensitively',
    mutate: (request, next, app) => {
      app.world.streamByName = (name) => [...app.world.streams.values()].find((stream) => stream.name === name);
      return next(request);
    },
  },
  {
    what: 'authorization_errors_fatal=false is ignored',
    rule: 'subscribe/authorization-errors-not-fatal-lists-unauthorized',
    mutate: on('POST', '/users/me/subscriptions', (request, next) => {
      const form = formOf(request);
      form.delete('authorization_errors_fatal');
      return next(withForm(request, form));
    }),
  },
  {
    what: 'include_subscribers is ignored',
    rule: 'subscriptions-list/include-subscribers',
    mutate: on('GET', '/users/me/subscriptions', (request, next) => next(withQuery(request, (query) => query.delete('include_subscribers')))),
  },
  {
    what: 'unsubscribe swaps removed and not_removed',
    rule: 'unsubscribe/removed-and-not-removed',
    mutate: on('DELETE', '/users/me/subscriptions', async (request, next) =>
      mapJsonBody(await next(request), (body) => {
        if (Array.isArray(body.removed)) [body.removed, body.not_removed] = [body.not_removed, body.removed];
      }),
    ),
  },
  {
    what: 'subscribing others silently subscribes the requester as well',
    rule: 'subscriptions/model-based-sequence',
    mutate: on('POST', '/users/me/subscriptions', async (request, next, app) => {
      const response = await next(request);
      const form = formOf(request);
      const user = caller(app, request);
      if (response.status !== 200 || !user || !form.has('principals')) return response;
      const items = JSON.parse(form.get('subscriptions')!) as Array<{ name: string }>;
      for (const item of items) {
        const stream = app.world.streamByName(item.name);
        const sub = stream && app.world.subscriptions.get(stream.id)?.get(user.id);
        if (stream && sub) sub.active = true;
        else if (stream) {
          const template = [...app.world.subscribersOf(stream.id).values()][0];
          if (template) app.world.subscribersOf(stream.id).set(user.id, { ...template, userId: user.id, active: true });
        }
      }
      return response;
    }),
  },
  {
    what: 'channel typing reaches queues without stream_typing_notifications',
    rule: 'typing/channel-event-delivered-to-capable-clients',
    mutate: on('POST', '/register', (request, next) => {
      const form = formOf(request);
      form.set('client_capabilities', JSON.stringify({ stream_typing_notifications: true }));
      return next(withForm(request, form));
    }),
  },
  {
    what: 'channel typing without stream_id answers REQUEST_VARIABLE_MISSING',
    rule: 'typing/channel-without-stream-id-bad-request',
    mutate: on('POST', '/typing', async (request, next) => mapJsonBody(await next(request), (body) => body.msg === "Missing 'stream_id' argument" && (body.code = 'REQUEST_VARIABLE_MISSING'))),
  },
  {
    what: 'direct typing to an empty list notifies the sender only',
    rule: 'typing/direct-recipient-errors',
    mutate: on('POST', '/typing', (request, next, app) => {
      const form = formOf(request);
      if (form.get('to') !== '[]') return next(request);
      form.set('to', JSON.stringify([caller(app, request)?.id ?? 1]));
      return next(withForm(request, form));
    }),
  },
  {
    what: 'the followed policy (3) is refused',
    rule: 'user-topics/set-policy-read-back',
    mutate: on('POST', '/user_topics', (request, next) => {
      const form = formOf(request);
      if (form.get('visibility_policy') !== '3') return next(request);
      form.set('visibility_policy', '7');
      return next(withForm(request, form));
    }),
  },
  {
    what: 'over-long topics are truncated instead of refused',
    rule: 'user-topics/topic-length-limit',
    mutate: on('POST', '/user_topics', (request, next) => {
      const form = formOf(request);
      form.set('topic', [...(form.get('topic') ?? '')].slice(0, 60).join(''));
      return next(withForm(request, form));
    }),
  },
  {
    what: 'mark_topic_as_read marks nothing',
    rule: 'mark-topic-as-read/marks-topic-messages-read',
    mutate: on('POST', '/mark_topic_as_read', async (request, next, app) => {
      const form = formOf(request);
      const stream = app.world.streams.get(Number(form.get('stream_id')));
      if (!stream || !caller(app, request)) return next(request);
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ result: 'success', msg: '' }) };
    }),
  },
  {
    what: 'a deactivated user can still authenticate',
    rule: 'deactivate-user/deactivated-user-unauthorized',
    mutate: async (request, next, app) => {
      const user = caller(app, request);
      if (user && !user.isActive && request.path === `${API}/users/me`) return next(as(app, request, 'hamlet@zulip.com'));
      return next(request);
    },
  },
  {
    what: 'members may deactivate users',
    rule: 'deactivate-user/non-administrators-refused',
    mutate: on('DELETE', /^\/api\/v1\/users\/\d+$/, (request, next, app) => next(caller(app, request)?.role === 400 ? as(app, request, 'iago@zulip.com') : request)),
  },
  {
    what: 'get_stream_id finds private channels the caller cannot access',
    rule: 'get-stream-id/unknown-or-inaccessible-bad-request',
    mutate: on('GET', '/get_stream_id', (request, next, app) => next(as(app, request, 'iago@zulip.com'))),
  },
];

t.test('every rule of the area passes against the unbroken reference server, at 415 and 207', async (t) => {
  for (const level of [415, 207]) {
    const result = await runOnReference({ featureLevel: level, numRuns: 10, seed: 3, only: AREA });
    t.same(failureLines(result), [], `level ${level}`);
    t.ok(result.results.filter((r) => r.outcome === 'passed').length >= 40, `level ${level}: most rules ran`);
  }
});

for (const breakage of BREAKAGES) {
  t.test(`the suite fails naming ${breakage.rule} when ${breakage.what}`, async (t) => {
    const result = await runOnReference({ mutate: breakage.mutate, numRuns: 10, seed: 4, only: [breakage.rule] });
    t.same(failedIds(result), [breakage.rule]);
  });
}

t.test('subscriptions-list/entry-shape fails at level 100 when subscriptions lose the role levels 31-132 carry', async (t) => {
  const mutate = on('GET', '/users/me/subscriptions', async (request, next) =>
    mapJsonBody(await next(request), (body) => {
      for (const sub of body.subscriptions as Record<string, unknown>[]) delete sub.role;
    }),
  );
  const result = await runOnReference({ mutate, featureLevel: 100, numRuns: 3, seed: 4, only: ['subscriptions-list/entry-shape'] });
  t.same(failedIds(result), ['subscriptions-list/entry-shape']);
});
