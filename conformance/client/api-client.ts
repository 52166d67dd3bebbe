/**
 * The suite's HTTP client: undici with an injectable `Dispatcher` (an in-process target or a real
 * connection pool), HTTP Basic credentials, parameters encoded as real clients send them, every
 * exchange recorded, and 429 `RATE_LIMIT_HIT` answered by waiting `Retry-After` (capped), a wait
 * no deadline of the run counts (see `rate-limit-waits.ts`).
 */
import type { Dispatcher } from 'undici';
import { basicAuthorization, type FilePart, formEncode, multipartEncode, type Params, paramPairs } from './encode.js';
import type { Exchange, Transcript } from './exchange.js';
import { type Deadline, RateLimitWaits } from './rate-limit-waits.js';
import { exchangeRaw } from './transport.js';

export type JsonObject = Readonly<Record<string, unknown>>;

/** What the target answered. */
export interface Reply {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed as JSON (whatever the content type), or undefined when it is not JSON. */
  readonly json: unknown;
  /** The JSON body when it is an object, else undefined. */
  readonly body: JsonObject | undefined;
  /** The recorded exchange (for failure reports). */
  readonly exchange: Exchange;
}

export interface CallOptions {
  /** Where `params` go: `query` (default for GET and HEAD), `form` (default otherwise) or `multipart`. */
  readonly encoding?: 'query' | 'form' | 'multipart';
  /** Extra parameters in the query string, on any method. */
  readonly query?: Params;
  /** File parts (with `encoding: 'multipart'`). */
  readonly files?: readonly FilePart[];
  /** Extra request headers (they override the defaults). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A raw body instead of encoding `params` (which then go to the query string). */
  readonly rawBody?: { readonly contentType?: string; readonly body: string | Uint8Array };
  /** Wait and retry on 429 `RATE_LIMIT_HIT` (default true). */
  readonly retryRateLimited?: boolean;
}

export interface RateLimitPolicy {
  /**
   * Retries per request (default 100). Concurrent requests of one user past the limit take turns:
   * each window slot that frees lets one through, and the others are refused again.
   */
  readonly maxRetries: number;
  /** Longest single wait; a longer `Retry-After` returns the 429 as it is (default 65 s). */
  readonly maxWaitMs: number;
  /** Longest total wait of one request, then the 429 is returned as it is (default 5 minutes; none when absent from a policy given). */
  readonly maxTotalWaitMs?: number;
}

/**
 * The policy of cleanups: wait out every `Retry-After`, however often and long, so that a restore
 * is never abandoned only because of the rate limit. A 429 without a usable `Retry-After` still
 * returns as it is.
 */
export const UNTIL_ANSWERED: RateLimitPolicy = { maxRetries: Number.POSITIVE_INFINITY, maxWaitMs: Number.POSITIVE_INFINITY };

export interface ClientConfig {
  /** Scheme and host (and port) of the target, e.g. `http://localhost:9991`. */
  readonly baseUrl: string;
  readonly dispatcher: Dispatcher;
  readonly transcript: Transcript;
  /** The full `Authorization` header value; none when undefined. */
  readonly authorization?: string;
  readonly signal?: AbortSignal;
  /** Longest wait for one answer (headers and body), in ms; none when undefined. */
  readonly requestTimeoutMs?: number;
  readonly rateLimit?: RateLimitPolicy;
  /** The run's rate-limit waits and deadline clock (default: one of this client's own). */
  readonly waits?: RateLimitWaits;
  readonly userAgent?: string;
  /** Called before waiting out a rate limit (for notes in the report). */
  readonly onRateLimited?: (waitMs: number, url: string) => void;
}

/** The target gave no HTTP answer (refused, reset, aborted, or silent past the request timeout). */
export class TransportError extends Error {
  override readonly name = 'TransportError';
}

interface RequestSignal {
  readonly signal?: AbortSignal;
  /** Whether the request timeout (not the run's signal) aborted it. */
  timedOut(): boolean;
  /** Frees the timer and the listener on the run's signal once the request is over. */
  done(): void;
}

/**
 * The signal a request runs under: the run's, plus the request timeout when one is set. One
 * controller and one timer, freed when the request ends: `AbortSignal.timeout` with
 * `AbortSignal.any` cost a large share of an in-process run's time in signal bookkeeping.
 */
function requestSignal(signal: AbortSignal | undefined, timeoutMs: number | undefined): RequestSignal {
  if (timeoutMs === undefined) return { ...(signal ? { signal } : {}), timedOut: () => false, done: () => undefined };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Bounds only a target that refuses for good: the sliding window of a real one frees a slot within a minute. */
const DEFAULT_RATE_LIMIT: RateLimitPolicy = { maxRetries: 100, maxWaitMs: 65_000, maxTotalWaitMs: 5 * 60_000 };
export const USER_AGENT = 'chat-conformance/0.1.0';


function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export class ApiClient {
  readonly config: ClientConfig;
  /** Shared by every client derived from this one (`withAuthorization`, `withCredentials`). */
  readonly waits: RateLimitWaits;

  constructor(config: ClientConfig) {
    this.waits = config.waits ?? new RateLimitWaits();
    this.config = { ...config, waits: this.waits };
  }

  /** A deadline `ms` ahead that does not count this run's rate-limit waits (event waits use it). */
  deadline(ms: number): Deadline {
    return this.waits.deadline(ms);
  }

  /** The same client with other credentials (`undefined`: none). */
  withAuthorization(authorization: string | undefined): ApiClient {
    const { authorization: _old, ...rest } = this.config;
    return new ApiClient(authorization === undefined ? rest : { ...rest, authorization });
  }

  /** The same client authenticating as `email` with `apiKey` (HTTP Basic). */
  withCredentials(email: string, apiKey: string): ApiClient {
    return this.withAuthorization(basicAuthorization(email, apiKey));
  }

  /** The absolute URL of an API path: `/users/me` means `/api/v1/users/me`; `/api/...` is kept. */
  url(path: string): string {
    if (/^https?:\/\//.test(path)) return path;
    const base = this.config.baseUrl.replace(/\/+$/, '');
    return path.startsWith('/api/') || path === '/api' ? `${base}${path}` : `${base}/api/v1${path}`;
  }

  get(path: string, params?: Params, options?: CallOptions): Promise<Reply> {
    return this.call('GET', path, params, options);
  }
  post(path: string, params?: Params, options?: CallOptions): Promise<Reply> {
    return this.call('POST', path, params, options);
  }
  patch(path: string, params?: Params, options?: CallOptions): Promise<Reply> {
    return this.call('PATCH', path, params, options);
  }
  delete(path: string, params?: Params, options?: CallOptions): Promise<Reply> {
    return this.call('DELETE', path, params, options);
  }

  /** Sends one request (retrying rate-limited ones) and records every exchange. */
  async call(method: string, path: string, params?: Params, options: CallOptions = {}): Promise<Reply> {
    const policy = this.config.rateLimit ?? DEFAULT_RATE_LIMIT;
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const reply = await this.once(method.toUpperCase(), path, params, options);
      if (reply.status !== 429 || options.retryRateLimited === false || attempt >= policy.maxRetries) return reply;
      const seconds = Number(reply.headers['retry-after'] ?? (reply.body?.['retry-after'] as number | undefined));
      if (!Number.isFinite(seconds) || seconds < 0 || seconds * 1000 > policy.maxWaitMs) return reply;
      const waitMs = Math.ceil(seconds * 1000) + 50;
      if (waited + waitMs > (policy.maxTotalWaitMs ?? Number.POSITIVE_INFINITY)) return reply;
      waited += waitMs;
      this.config.onRateLimited?.(waitMs, reply.exchange.url);
      await this.waits.wait(waitMs, this.config.signal);
    }
  }

  private async once(method: string, path: string, params: Params | undefined, options: CallOptions): Promise<Reply> {
    const url = new URL(this.url(path));
    const pairs = paramPairs(params);
    const encoding = options.encoding ?? (method === 'GET' || method === 'HEAD' || options.rawBody ? 'query' : 'form');
    for (const [name, value] of [...paramPairs(options.query), ...(encoding === 'query' ? pairs : [])]) url.searchParams.append(name, value);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.config.userAgent ?? USER_AGENT };
    let body: string | Uint8Array | undefined;
    if (options.rawBody) {
      if (options.rawBody.contentType !== undefined) headers['content-type'] = options.rawBody.contentType;
      body = options.rawBody.body;
    } else if (encoding === 'form' && pairs.length > 0) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = formEncode(pairs);
    } else if (encoding === 'multipart') {
      const encoded = multipartEncode(pairs, options.files);
      headers['content-type'] = encoded.contentType;
      body = encoded.body;
    }
    if (this.config.authorization !== undefined) headers.authorization = this.config.authorization;
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    return this.send(method, url, headers, body);
  }

  private async send(method: string, url: URL, headers: Record<string, string>, body: string | Uint8Array | undefined): Promise<Reply> {
    const requestBody = body === undefined ? '' : typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    const started = performance.now();
    const base = { method, url: url.toString(), requestHeaders: { ...headers }, requestBody, startedAt: Date.now() };
    const { dispatcher, transcript, requestTimeoutMs } = this.config;
    const deadline = requestSignal(this.config.signal, requestTimeoutMs);
    const { signal } = deadline;
    try {
      if (signal?.aborted) throw signal.reason;
      const answer = await exchangeRaw(dispatcher, { origin: url.origin, path: url.pathname + url.search, method, headers, body, ...(signal ? { signal } : {}) });
      const { text, headers: responseHeaders } = answer;
      const exchange = transcript.record({
        ...base,
        status: answer.status,
        responseHeaders,
        responseBody: text,
        durationMs: performance.now() - started,
      });
      const json = text === '' ? undefined : parseJson(text);
      const object = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as JsonObject) : undefined;
      return { status: answer.status, headers: responseHeaders, text, json, body: object, exchange };
    } catch (error) {
      const silent = deadline.timedOut() && !this.config.signal?.aborted;
      const message = silent ? `timed out after ${requestTimeoutMs} ms` : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const exchange = transcript.record({ ...base, status: 0, responseHeaders: {}, responseBody: '', durationMs: performance.now() - started, error: message });
      const text = silent
        ? `${method} ${url.toString()}: no answer within ${requestTimeoutMs} ms (--request-timeout): the target accepted the request but never answered`
        : `${method} ${url.toString()}: no answer (${message})`;
      throw Object.assign(new TransportError(text), { exchange });
    } finally {
      deadline.done();
    }
  }
}
