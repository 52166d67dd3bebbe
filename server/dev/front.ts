/**
 * What a development server adds in front of the API, without touching it: a request log
 * (method, path, status, user, ms), CORS for browser clients (preflights answered, Authorization
 * allowed), and dev-only endpoints outside `/api/v1` (`POST /__dev/reset`). The API handler is
 * looked up per request, so a reset can swap in a new app.
 */
import type { ChatApp } from '../app/app.js';
import type { ApiRequest, ApiResponse } from '../app/request.js';
import { jsonResponse } from '../app/respond.js';

export interface DevFrontOptions {
  /** Log one line per request: true for stderr, or a function receiving each line. */
  readonly log?: boolean | ((line: string) => void);
  /** Answer CORS preflights and mark answers readable by any origin. */
  readonly cors?: boolean;
  /** Serve `/__dev/*` (off together with dev_fetch_api_key by `devEndpoints: false`). */
  readonly devEndpoints: boolean;
  /** Puts the server back to its starting state. */
  readonly reset: () => void;
}

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, X-Requested-With, User-Agent';

/** The email of Basic credentials (what the log shows as the user), or '-'. */
function claimedUser(request: ApiRequest): string {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(request.headers.get('authorization') ?? '');
  if (!match?.[1]) return '-';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : '-';
}

function corsHeaders(request: ApiRequest): Record<string, string> {
  const origin = request.headers.get('origin');
  return { 'Access-Control-Allow-Origin': origin ?? '*', 'Access-Control-Expose-Headers': 'Retry-After, Content-Length', ...(origin ? { Vary: 'Origin' } : {}) };
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

function devEndpoint(request: ApiRequest, options: DevFrontOptions): ApiResponse {
  if (!options.devEndpoints) return jsonResponse(404, { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  if (request.path === '/__dev/reset') {
    if (request.method !== 'POST') return jsonResponse(405, { result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST' });
    options.reset();
    return jsonResponse(200, { result: 'success', msg: '' });
  }
  return jsonResponse(404, { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
}

/**
 * The handler a development server listens with (an answer, or a promise of one, as
 * `ChatApp.answer`). Decided once here: without log and CORS it adds one path check.
 */
export function devFront(currentApp: () => ChatApp, options: DevFrontOptions): (request: ApiRequest) => ApiResponse | Promise<ApiResponse> {
  const log = options.log === true ? (line: string) => void process.stderr.write(`${line}\n`) : options.log || undefined;
  const route = (request: ApiRequest): Promise<ApiResponse> | ApiResponse => {
    if (options.cors && request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) return preflight(request);
    if (request.path.startsWith('/__dev/')) return devEndpoint(request, options);
    return currentApp().answer(request);
  };
  if (!log && !options.cors) return route;
  return async (request) => {
    const started = performance.now();
    let response = await route(request);
    if (options.cors) response = { ...response, headers: { ...response.headers, ...corsHeaders(request) } };
    log?.(`${new Date().toISOString()} ${request.method} ${request.path} ${response.status} ${claimedUser(request)} ${(performance.now() - started).toFixed(1)}ms`);
    return response;
  };
}
