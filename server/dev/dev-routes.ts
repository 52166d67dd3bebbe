/**
 * The development endpoints under `/__dev/` (docs/dev-server.md): the table, and the dispatch
 * that answers an unknown path 404 and a known path with another method 405, in the API's error
 * envelope. Nothing here is reachable when dev endpoints are off: the front answers 404 first.
 */
import type { ApiRequest, ApiResponse } from '../app/request.js';
import { internalError } from '../app/respond.js';
import { clockRoutes } from './clock-endpoints.js';
import type { DevControl, DevHandler, DevRoute } from './control.js';
import { devError, DevRequestError, devSuccess, queryInteger } from './dev-json.js';
import { faultRoutes } from './fault-endpoints.js';
import { queueRoutes } from './queue-endpoints.js';
import { realmViewRoutes } from './realm-views.js';
import { stateRoutes } from './state-endpoints.js';

export const DEV_PREFIX = '/__dev/';

const ownRoutes: readonly DevRoute[] = [
  {
    path: '/__dev/reset',
    methods: {
      POST: (_request, control) => {
        control.reset();
        return devSuccess();
      },
    },
  },
  {
    path: '/__dev/log',
    methods: {
      GET: (request, control) => {
        const { entries, lastSeq } = control.activity.since(queryInteger(request, 'after', 0, 0, Number.MAX_SAFE_INTEGER), queryInteger(request, 'limit', 200, 1, 1000));
        return devSuccess({ entries, last_seq: lastSeq });
      },
    },
  },
];

export const DEV_ROUTES: readonly DevRoute[] = [...ownRoutes, ...realmViewRoutes, ...queueRoutes, ...clockRoutes, ...faultRoutes, ...stateRoutes];

const routeTable = DEV_ROUTES.map((route) => ({ segments: route.path.split('/'), methods: new Map(Object.entries(route.methods) as Array<[string, DevHandler]>) }));

/** The methods of the route whose path matches, with its `{name}` segments. */
function matchRoute(path: string): { methods: ReadonlyMap<string, DevHandler>; params: Map<string, string> } | undefined {
  const segments = path.split('/');
  for (const { segments: pattern, methods } of routeTable) {
    if (pattern.length !== segments.length) continue;
    const params = new Map<string, string>();
    const matches = pattern.every((part, i) => {
      const actual = segments[i] as string;
      if (!part.startsWith('{')) return part === actual;
      params.set(part.slice(1, -1), actual);
      return actual !== '';
    });
    if (matches) return { methods, params };
  }
  return undefined;
}

/** The answer of a development endpoint (the path starts with `/__dev/`). */
export function answerDevRequest(request: ApiRequest, control: DevControl): ApiResponse | Promise<ApiResponse> {
  const found = matchRoute(request.path);
  if (!found) return devError(404, 'Not Found');
  const head = request.method === 'HEAD';
  const handler = found.methods.get(head ? 'GET' : request.method);
  if (!handler) {
    const allowed = [...found.methods.keys()].sort();
    return { ...devError(405, 'Method Not Allowed', { allowed_methods: allowed }), headers: { ...devError(405, '').headers, Allow: allowed.join(', ') } };
  }
  const finish = (response: ApiResponse): ApiResponse => (head ? { ...response, body: '' } : response);
  try {
    const answer = handler(request, control, found.params);
    return answer instanceof Promise ? answer.then(finish, refusal) : finish(answer);
  } catch (error) {
    return refusal(error);
  }
}

/** A refused request's error answer; anything else is a defect, answered 500 and reported. */
function refusal(error: unknown): ApiResponse {
  if (error instanceof DevRequestError) return devError(error.status, error.message, error.data);
  console.error('internal error in a development endpoint', error);
  return internalError();
}
