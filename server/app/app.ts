/**
 * The pure request -> response core: routing (404/405), authentication (401), parameters (400),
 * the endpoint, and the envelope. Adapters (server/http/listen.ts, in-process dispatchers) call
 * `handle` and nothing else.
 */
import { answerFetch } from '../http/fetch.js';
import { ApiError, rateLimited } from '../../lib/errors.js';
import { FEATURES } from '../../lib/features/feature-levels.js';
import { RateLimiter, type RateLimitRule } from '../../lib/state/rate-limit.js';
import { compareCodePoints } from '../../lib/input/strings.js';
import type { User } from '../../lib/entities/user.js';
import type { World } from '../../lib/state/world.js';
import { authenticate } from './auth.js';
import { serveWebUpload, UPLOADS_PREFIX } from './user-uploads-web.js';
import { type AppServices, type AuthedContext, type BaseContext, type Endpoint, type Outcome, RawReply } from './endpoint.js';
import { readParams, type RequestParams, sentNames } from './form.js';
import { readDeclared } from './params.js';
import type { ApiRequest, ApiResponse } from './request.js';
import { emptyResponse, errorResponse, internalError, methodNotAllowed, notFound, success } from './respond.js';
import { type EventQueueOptions, type ResolvedEventQueueOptions, resolveEventQueueOptions } from './event-options.js';
import { Router } from './router.js';
import { ROUTES } from './routes.js';
import { SchedulerDriver } from './scheduler-driver.js';
import { listWordsInBackground } from '../../lib/state/history/background-words.js';

export interface AppOptions {
  readonly world: World;
  /** Serve `dev_fetch_api_key` and `dev_list_users` (on by default, as on a development server). */
  readonly devEndpoints?: boolean;
  /** Failed-login limit of `fetch_api_key`: 5 attempts per 30 minutes by default. */
  readonly authRateLimit?: RateLimitRule;
  /** The version string `server_settings` and `register` report. */
  readonly zulipVersion?: string;
  /** Where unexpected errors are reported; defaults to stderr. */
  readonly logger?: (message: string, error?: unknown) => void;
  /** Heartbeat, queue-lifetime and sweep timing of event queues (server/app/event-options.ts). */
  readonly events?: EventQueueOptions;
  /**
   * The real server's per-user API limit (200 requests a minute there), off unless given: with it
   * every authenticated request counts, answers carry `X-RateLimit-*` headers, and a user past the
   * limit gets 429 `RATE_LIMIT_HIT` with `Retry-After`, as on a production server.
   */
  readonly apiRateLimit?: RateLimitRule;
}

/** The real server's default `api_by_user` rule: 200 requests in 60 seconds. */
export const REAL_API_RATE_LIMIT: RateLimitRule = { attempts: 200, windowMs: 60_000 };

export const DEFAULT_ZULIP_VERSION = '11.0-chat-api-reference';

export class ChatApp implements AppServices {
  readonly world: World;
  readonly devEndpoints: boolean;
  readonly zulipVersion: string;
  /**
   * `server_generation`: when this server (re)started, in seconds. A simulated restart
   * (`POST /__dev/queues/restart`) moves it on, as a real restart does.
   */
  serverGeneration = Math.floor(Date.now() / 1000);
  readonly authLimiter: RateLimiter;
  readonly apiLimiter: RateLimiter | undefined;
  readonly eventOptions: ResolvedEventQueueOptions;
  private readonly router = new Router(ROUTES);
  private readonly logger: (message: string, error?: unknown) => void;
  private readonly closers: Array<() => void> = [];
  /** Runs timed work (reminder delivery) as time passes; see lib/actions/scheduler.ts. */
  private readonly scheduler: SchedulerDriver;

  constructor(options: AppOptions) {
    this.world = options.world;
    this.devEndpoints = options.devEndpoints ?? true;
    this.zulipVersion = options.zulipVersion ?? DEFAULT_ZULIP_VERSION;
    this.authLimiter = new RateLimiter(this.world.clock, options.authRateLimit ?? { attempts: 5, windowMs: 30 * 60_000 });
    this.apiLimiter = options.apiRateLimit ? new RateLimiter(this.world.clock, options.apiRateLimit) : undefined;
    this.logger = options.logger ?? ((message, error) => console.error(message, error));
    this.eventOptions = resolveEventQueueOptions(options.events);
    this.scheduler = new SchedulerDriver(this.world);
    this.onClose(() => this.scheduler.stop());
    this.onClose(() => this.world.delayed?.cancel());
    this.onClose(listWordsInBackground(this.world.messages.index));
  }

  /** Registers cleanup to run on close (long polls, timers). */
  onClose(closer: () => void): void {
    this.closers.push(closer);
  }

  close(): void {
    for (const closer of this.closers.splice(0)) closer();
  }

  /** The realm's URL as seen by this request: the fixture's, or the Host the client used. */
  realmUrl(request: ApiRequest): string {
    if (this.world.realm.url) return this.world.realm.url;
    const host = request.headers.get('host');
    return host ? `http://${host}` : 'http://localhost:9991';
  }

  /** Answers a web `Request` (in-process, no socket): `runSuite({ app })`, or any caller that speaks fetch. */
  fetch(request: Request): Promise<Response> {
    return answerFetch((apiRequest) => this.answer(apiRequest), request);
  }

  /** Answers one request (see `answer`), always as a promise. */
  handle(request: ApiRequest): Promise<ApiResponse> {
    const response = this.answer(request);
    return response instanceof Promise ? response : Promise.resolve(response);
  }

  /**
   * Answers one request: the answer itself when nothing was asynchronous, otherwise a promise of
   * it (a multipart body, a long poll). The HTTP adapter writes a synchronous answer at once, with
   * no promise hop; errors become answers either way.
   */
  answer(request: ApiRequest): ApiResponse | Promise<ApiResponse> {
    this.scheduler.tick();
    let outcome: ApiResponse | Promise<ApiResponse>;
    try {
      outcome = this.dispatch(request);
    } catch (error) {
      outcome = this.failure(request, error);
    }
    if (outcome instanceof Promise) {
      return outcome.then(
        (response) => this.finish(request, response),
        (error: unknown) => this.finish(request, this.failure(request, error)),
      );
    }
    return this.finish(request, outcome);
  }

  private finish(request: ApiRequest, response: ApiResponse): ApiResponse {
    // Re-arm for whatever the request scheduled.
    this.scheduler.tick();
    if (request.method !== 'HEAD') return response;
    const { bytes: _bytes, ...withoutBytes } = response;
    return { ...withoutBytes, body: '' };
  }

  private failure(request: ApiRequest, error: unknown): ApiResponse {
    if (error instanceof ApiError) return errorResponse(error);
    this.logger(`internal error on ${request.method} ${request.path}`, error);
    return internalError();
  }

  private dispatch(request: ApiRequest): ApiResponse | Promise<ApiResponse> {
    // A form POST may name another method in its `method` field (the real server's override),
    // so a POST body is read before routing; other bodies only after authentication.
    if (request.path.startsWith(UPLOADS_PREFIX)) return serveWebUpload(this.world, request);
    if (request.method !== 'POST') return this.route(request, undefined);
    const posted = readParams(request);
    return posted instanceof Promise ? posted.then((params) => this.route(request, params)) : this.route(request, posted);
  }

  private route(request: ApiRequest, posted: RequestParams | undefined): ApiResponse | Promise<ApiResponse> {
    const method = posted?.body.get('method')?.toUpperCase() ?? request.method;
    const match = this.router.match(this.world, method, request.path);
    if (match.kind === 'not-found') return notFound();
    if (match.kind === 'options') return emptyResponse(204, { Allow: [...match.allowed].sort().join(', ') });
    if (match.kind === 'method-not-allowed') {
      return match.def.emptyMethodNotAllowed ? emptyResponse(405, { Allow: match.allowed.join(', ') }) : methodNotAllowed(match.allowed);
    }
    const { endpoint } = match;
    const user = endpoint.auth === 'user' ? authenticate(this.world, request.headers.get('authorization')) : undefined;
    const limitHeaders = user && this.apiLimiter ? this.countRequest(this.apiLimiter, user.id) : undefined;
    const params = posted ?? readParams(request);
    // The usual request (parameters read at once, no API limit) allocates no closure.
    if (!limitHeaders && !(params instanceof Promise)) return this.invoke(endpoint, this.context(request, params, match.path, user));
    const invoke = (read: RequestParams) => this.invoke(endpoint, this.context(request, read, match.path, user));
    if (!limitHeaders) return (params as Promise<RequestParams>).then(invoke);
    const labelled = (response: ApiResponse): ApiResponse => ({ ...response, headers: { ...response.headers, ...limitHeaders } });
    const answer = (read: RequestParams) => {
      try {
        const outcome = invoke(read);
        return outcome instanceof Promise ? outcome.then(labelled, (error: unknown) => labelled(this.failure(request, error))) : labelled(outcome);
      } catch (error) {
        return labelled(this.failure(request, error));
      }
    };
    return params instanceof Promise ? params.then(answer) : answer(params);
  }

  /** An endpoint's context: one shape for every endpoint (`user` undefined on public ones). */
  private context(request: ApiRequest, params: RequestParams, path: ReadonlyMap<string, string>, user: User | undefined): BaseContext | AuthedContext {
    return { app: this, world: this.world, request, params, path, user };
  }

  /** Counts a user's request against the API limit: the headers to report, or 429 past the limit. */
  private countRequest(limiter: RateLimiter, userId: number): Record<string, string> {
    const key = `user:${userId}`;
    const wait = limiter.attempt(key);
    const { remaining, resetAtSeconds } = limiter.status(key);
    const headers = {
      'X-RateLimit-Limit': String(limiter.rule.attempts),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(resetAtSeconds),
    };
    if (wait === undefined) return headers;
    const limited = rateLimited(wait);
    throw new ApiError(limited.code, limited.status, limited.message, limited.data, { ...limited.headers, ...headers });
  }

  private invoke(endpoint: Endpoint, context: BaseContext | AuthedContext, params = context.params): ApiResponse | Promise<ApiResponse> {
    (endpoint.gate as ((ctx: BaseContext) => void) | undefined)?.(context);
    const { values, consumed } = readDeclared(this.world, endpoint.params, params);
    const outcome = (endpoint.run as (ctx: BaseContext, args: unknown) => Outcome | Promise<Outcome>)(context, values);
    if (outcome instanceof Promise) return outcome.then((result) => this.envelope(endpoint, params, consumed, result));
    return this.envelope(endpoint, params, consumed, outcome);
  }

  /** The success envelope around an endpoint's data, with the parameters it ignored. */
  private envelope(endpoint: Endpoint, params: RequestParams, consumed: ReadonlySet<string>, result: Outcome): ApiResponse {
    if (result instanceof RawReply) return result.response;
    const reports = endpoint.reportsIgnored !== false && this.world.has(FEATURES.IGNORED_PARAMETERS_EVERYWHERE);
    if (!reports || (params.body.size === 0 && params.query.size === 0)) return success(result);
    return success(result, [...sentNames(params)].filter((name) => name !== 'client' && !consumed.has(name)).sort(compareCodePoints));
  }
}

