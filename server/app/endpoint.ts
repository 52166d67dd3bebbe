/** What an endpoint declares: who may call it, its parameters, and the call into lib/. */
import type { Feature } from '../../lib/features/feature-levels.js';
import type { User } from '../../lib/entities/user.js';
import type { RateLimiter } from '../../lib/state/rate-limit.js';
import type { World } from '../../lib/state/world.js';
import type { ResolvedEventQueueOptions } from './event-options.js';
import type { RequestParams } from './form.js';
import type { ParamSpecs, ParamValues } from './params.js';
import type { ApiRequest, ApiResponse } from './request.js';

/**
 * What endpoints and the long-poll manager use of the running app (`ChatApp` implements it).
 * Declared here, beside the context that carries it, so that endpoints never import the app that
 * imports their route table.
 */
export interface AppServices {
  readonly world: World;
  /** Whether `dev_fetch_api_key` and `dev_list_users` are served. */
  readonly devEndpoints: boolean;
  /** The version string `server_settings` and `register` report. */
  readonly zulipVersion: string;
  /** `server_generation`: when the server last (re)started, in seconds. */
  readonly serverGeneration: number;
  /** The failed-login limit of `fetch_api_key`. */
  readonly authLimiter: RateLimiter;
  readonly eventOptions: ResolvedEventQueueOptions;
  /** The realm's URL as seen by this request: the fixture's, or the Host the client used. */
  realmUrl(request: ApiRequest): string;
  /** Registers cleanup to run when the app closes (long polls, timers). */
  onClose(closer: () => void): void;
}

export interface BaseContext {
  readonly app: AppServices;
  readonly world: World;
  readonly request: ApiRequest;
  readonly params: RequestParams;
  /** Path parameters captured by the route pattern. */
  readonly path: ReadonlyMap<string, string>;
}

export interface AuthedContext extends BaseContext {
  readonly user: User;
}

/**
 * A prepared response instead of data for the success envelope; it never gets
 * `ignored_parameters_unsupported` (like the real server's long-poll replies).
 */
export class RawReply {
  constructor(readonly response: ApiResponse) {}
}

export type Outcome = Readonly<Record<string, unknown>> | RawReply;

interface EndpointCommon<S extends ParamSpecs> {
  readonly params: S;
  /**
   * For an endpoint whose parameters depend on the emulated level and that reads them itself in
   * `run` (the settings endpoints): those parameters, so that whatever lists an endpoint's
   * parameters (the tests that try every parameter) sees them.
   */
  readonly paramsAt?: (world: World) => ParamSpecs;
  /** The endpoint exists from this level; below it the route answers as unknown. */
  readonly since?: Feature;
  /** The endpoint exists only below this level; from it the route answers as if it lacked the method. */
  readonly until?: Feature;
  /** False for views the real server does not wrap in its parsing decorator. */
  readonly reportsIgnored?: boolean;
}

export interface AuthedEndpoint<S extends ParamSpecs> extends EndpointCommon<S> {
  readonly auth: 'user';
  /** Checks that run before parameters are parsed (role gates, drafts-sync gate, ...). */
  readonly gate?: (ctx: AuthedContext) => void;
  run(ctx: AuthedContext, args: ParamValues<S>): Outcome | Promise<Outcome>;
}

export interface PublicEndpoint<S extends ParamSpecs> extends EndpointCommon<S> {
  readonly auth: 'none';
  readonly gate?: (ctx: BaseContext) => void;
  run(ctx: BaseContext, args: ParamValues<S>): Outcome | Promise<Outcome>;
}

export type Endpoint<S extends ParamSpecs = ParamSpecs> = AuthedEndpoint<S> | PublicEndpoint<S>;

/** Identity functions that let TypeScript infer the parameter types of `run`. */
export const authed = <S extends ParamSpecs>(endpoint: Omit<AuthedEndpoint<S>, 'auth'>): Endpoint =>
  ({ ...endpoint, auth: 'user' }) as unknown as Endpoint;

export const open = <S extends ParamSpecs>(endpoint: Omit<PublicEndpoint<S>, 'auth'>): Endpoint =>
  ({ ...endpoint, auth: 'none' }) as unknown as Endpoint;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteDef {
  /** Pattern under `/api/v1`: `{name}` one segment, `{name:int}` digits, `{name:path}` the rest. */
  readonly path: string;
  readonly methods: Partial<Record<Method, Endpoint>>;
  /** Plain Django views answer a wrong method with an empty 405 instead of the JSON one. */
  readonly emptyMethodNotAllowed?: boolean;
}
