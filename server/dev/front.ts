/**
 * What a development server adds in front of the API, without touching it: a request log
 * (method, path, status, user, ms), CORS for browser clients (preflights answered, Authorization
 * allowed), and, with dev endpoints on, the `/__dev/*` endpoints (server/dev/dev-routes.ts), the
 * page at `GET /`, injected faults, and the activity log the page shows. The API handler is looked
 * up per request, so a reset or an import can swap in a new app.
 *
 * With dev endpoints off none of that exists: `/__dev/*` and `/` reach the API, which answers them
 * as any unknown route.
 */
import type { ChatApp } from '../app/app.js';
import type { ApiRequest, ApiResponse } from '../app/request.js';
import { claimedUser } from './activity-log.js';
import type { DevControl } from './control.js';
import { answerDevRequest, DEV_PREFIX } from './dev-routes.js';
import { FAULT_HEADER } from './faults.js';
import { devPage } from './page/page.js';

export interface DevFrontOptions {
  /** Log one line per request: true for stderr, or a function receiving each line. */
  readonly log?: boolean | ((line: string) => void);
  /** Answer CORS preflights and mark answers readable by any origin. */
  readonly cors?: boolean;
  /** The development endpoints, page and faults; absent when dev endpoints are off. */
  readonly dev?: DevControl;
}

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, X-Requested-With, User-Agent';
/** Answer headers a browser client may read: the rate limit's (to back off as the real server asks) and the fault marker. */
const EXPOSED_HEADERS = `Retry-After, Content-Length, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, ${FAULT_HEADER}`;

function corsHeaders(request: ApiRequest): Record<string, string> {
  const origin = request.headers.get('origin');
  return { 'Access-Control-Allow-Origin': origin ?? '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS, ...(origin ? { Vary: 'Origin' } : {}) };
}

function preflight(request: ApiRequest): ApiResponse {
  const requested = request.headers.get('access-control-request-headers');
  return {
    status: 204,
    headers: {
      ...corsHeaders(request),
      'Access-Control-Allow-Methods': ALLOWED_METHODS,
      // Echo what the browser asks for (always including Authorization), so custom headers work too.
      'Access-Control-Allow-Headers': requested ? `${ALLOWED_HEADERS}, ${requested}` : ALLOWED_HEADERS,
      'Access-Control-Max-Age': '600',
    },
    body: '',
  };
}

const isPage = (request: ApiRequest): boolean => request.path === '/' && (request.method === 'GET' || request.method === 'HEAD');

/** The development tools' own requests (the page and its polling), which the activity log leaves out. */
const isDevRequest = (request: ApiRequest): boolean => request.path.startsWith(DEV_PREFIX) || isPage(request);

/**
 * The handler a development server listens with (an answer, or a promise of one, as
 * `ChatApp.answer`). Decided once here: without log, CORS and dev endpoints it is the API itself
 * plus one check; a synchronous answer stays synchronous either way.
 */
export function devFront(currentApp: () => ChatApp, options: DevFrontOptions): (request: ApiRequest) => ApiResponse | Promise<ApiResponse> {
  const log = options.log === true ? (line: string) => void process.stderr.write(`${line}\n`) : options.log || undefined;
  const { dev, cors } = options;
  const api = (request: ApiRequest): ApiResponse | Promise<ApiResponse> => currentApp().answer(request);
  const route = (request: ApiRequest): Promise<ApiResponse> | ApiResponse => {
    if (cors && request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) return preflight(request);
    if (!dev) return api(request);
    if (request.path.startsWith(DEV_PREFIX)) return answerDevRequest(request, dev);
    if (isPage(request)) return devPage(request);
    return dev.faults.intercept(request, () => api(request)) ?? api(request);
  };
  if (!log && !cors && !dev) return route;
  const finish = (request: ApiRequest, started: number, answered: ApiResponse): ApiResponse => {
    const response = cors ? { ...answered, headers: { ...answered.headers, ...corsHeaders(request) } } : answered;
    const ms = performance.now() - started;
    if (dev && !isDevRequest(request)) dev.activity.recordRequest(request, response, ms, response.headers[FAULT_HEADER]);
    log?.(`${new Date().toISOString()} ${request.method} ${request.path} ${response.status} ${claimedUser(request.headers.get('authorization'))} ${ms.toFixed(1)}ms`);
    return response;
  };
  return (request) => {
    const started = performance.now();
    const response = route(request);
    return response instanceof Promise ? response.then((answered) => finish(request, started, answered)) : finish(request, started, response);
  };
}
