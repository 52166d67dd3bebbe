/**
 * An undici `Dispatcher` that answers by calling an async function in the same process: no
 * socket, no port, a few microseconds per request. The CLI wires the embedded reference server
 * into it; tests wire deliberately broken variants. Supports both undici 7 handler styles (the
 * controller-based one and the legacy callbacks `Dispatcher.request()` still uses).
 */
import { STATUS_CODES } from 'node:http';
import { Dispatcher } from 'undici';
import type { DirectAnswering, RawAnswer, RawRequest } from '../client/transport.js';

export interface InProcessRequest {
  readonly method: string;
  /** Path with the query string, e.g. `/api/v1/users?client_gravatar=true`. */
  readonly path: string;
  /** Header names lower-cased; `host` is always present. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** Aborted when the client gives up (timeout); long polls should release their wait. */
  readonly signal: AbortSignal;
}

export interface InProcessResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

export type InProcessHandler = (request: InProcessRequest) => Promise<InProcessResponse>;

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;

/** Request headers in any of undici's forms as one record, names lower-cased, repeated values joined. */
export function headerRecord(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const pairs: Array<[string, string]> = [];
  const add = (name: string, value: unknown) => {
    if (value !== undefined && value !== null) pairs.push([name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]);
  };
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1]);
  } else if (headers && typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of headers as Iterable<[string, unknown]>) add(name, value);
  } else if (headers) {
    for (const [name, value] of Object.entries(headers)) add(name, value);
  }
  return Object.fromEntries(pairs);
}

async function bodyBytes(body: Dispatcher.DispatchOptions['body']): Promise<Uint8Array> {
  if (body === null || body === undefined) return new Uint8Array();
  if (typeof body === 'string') return new Uint8Array(Buffer.from(body, 'utf8'));
  if (body instanceof Uint8Array) return body;
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<string | Uint8Array>) chunks.push(Buffer.from(chunk));
    return new Uint8Array(Buffer.concat(chunks));
  }
  throw new TypeError('in-process dispatcher: unsupported request body (send a string or bytes)');
}

/** Adapts a legacy handler (onConnect/onHeaders/onData/onComplete/onError) to the controller API. */
function controllerApi(handler: Handler, controller: Controller): Required<Pick<Handler, 'onRequestStart' | 'onResponseStart' | 'onResponseData' | 'onResponseEnd' | 'onResponseError'>> {
  if (handler.onRequestStart) {
    return {
      onRequestStart: (c, ctx) => handler.onRequestStart?.(c, ctx),
      onResponseStart: (c, s, h, m) => handler.onResponseStart?.(c, s, h, m),
      onResponseData: (c, d) => handler.onResponseData?.(c, d),
      onResponseEnd: (c, t) => handler.onResponseEnd?.(c, t),
      onResponseError: (c, e) => handler.onResponseError?.(c, e),
    };
  }
  return {
    onRequestStart: () => handler.onConnect?.((reason) => controller.abort(reason ?? new Error('aborted'))),
    onResponseStart: (_c, status, headers, message) => {
      const raw: Buffer[] = [];
      for (const [name, value] of Object.entries(headers)) raw.push(Buffer.from(name, 'latin1'), Buffer.from(String(value), 'latin1'));
      handler.onHeaders?.(status, raw, () => undefined, message ?? '');
    },
    onResponseData: (_c, data) => void handler.onData?.(data),
    onResponseEnd: () => handler.onComplete?.([]),
    onResponseError: (_c, error) => handler.onError?.(error),
  };
}

/** An answer's headers with their names lower-cased, as undici gives them. */
const lowerCaseNames = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** The signal of a request whose client set none: never aborted. */
const NEVER_ABORTED = new AbortController().signal;

/** `promise`, or the signal's reason once it aborts first. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal === NEVER_ABORTED) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export class InProcessDispatcher extends Dispatcher implements DirectAnswering {
  private closed = false;

  constructor(private readonly handler: InProcessHandler) {
    super();
  }

  /** The same exchange as through `Dispatcher.request()`, without its handlers and streams. */
  async answerDirectly(request: RawRequest): Promise<RawAnswer> {
    if (this.closed) throw new Error('in-process dispatcher is closed');
    const signal = request.signal ?? NEVER_ABORTED;
    if (signal.aborted) throw signal.reason;
    const headers = headerRecord(request.headers);
    headers.host ??= new URL(request.origin).host;
    const body = await bodyBytes(request.body);
    const response = await unlessAborted(this.handler({ method: request.method, path: request.path, headers, body, signal }), signal);
    const responseHeaders = lowerCaseNames(response.headers);
    const text = request.method === 'HEAD' ? '' : typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('utf8');
    return { status: response.status, headers: responseHeaders, text };
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Handler): boolean {
    void this.run(options, handler);
    return true;
  }

  private async run(options: Dispatcher.DispatchOptions, handler: Handler): Promise<void> {
    let abortReason: Error | null = null;
    const requestAbort = new AbortController();
    let rejectAborted: (reason: Error) => void = () => undefined;
    const aborted = new Promise<never>((_resolve, reject) => {
      rejectAborted = reject;
    });
    aborted.catch(() => undefined);
    const controller: Controller = {
      get aborted() {
        return abortReason !== null;
      },
      get paused() {
        return false;
      },
      get reason() {
        return abortReason;
      },
      abort(reason: Error) {
        if (abortReason) return;
        abortReason = reason;
        requestAbort.abort(reason);
        rejectAborted(reason);
      },
      pause() {},
      resume() {},
    };
    const api = controllerApi(handler, controller);
    try {
      if (this.closed) throw new Error('in-process dispatcher is closed');
      api.onRequestStart(controller, {});
      const origin = options.origin === undefined ? 'http://localhost' : new URL(String(options.origin));
      const headers = headerRecord(options.headers);
      headers.host ??= typeof origin === 'string' ? 'localhost' : origin.host;
      const body = await bodyBytes(options.body);
      const request: InProcessRequest = { method: options.method, path: options.path, headers, body, signal: requestAbort.signal };
      if (abortReason) throw abortReason;
      const response = await Promise.race([this.handler(request), aborted]);
      const responseHeaders = lowerCaseNames(response.headers);
      api.onResponseStart(controller, response.status, responseHeaders, STATUS_CODES[response.status] ?? '');
      const payload = typeof response.body === 'string' ? Buffer.from(response.body, 'utf8') : Buffer.from(response.body);
      if (payload.length > 0 && options.method !== 'HEAD' && !abortReason) api.onResponseData(controller, payload);
      if (abortReason) throw abortReason;
      api.onResponseEnd(controller, {});
    } catch (error) {
      api.onResponseError(controller, error instanceof Error ? error : new Error(String(error)));
    }
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.closed = true;
    if (callback) return void queueMicrotask(callback);
    return Promise.resolve();
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    this.closed = true;
    const callback = typeof a === 'function' ? a : b;
    if (callback) return void queueMicrotask(callback);
    return Promise.resolve();
  }
}
