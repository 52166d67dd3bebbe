/**
 * The server in-process for other projects' tests, as undici's MockAgent or MSW do it: an undici
 * dispatcher that answers requests for any origin (or the chosen ones) from a server in this
 * process, with no socket and no port. Install it globally (`fetch` and undici calls without a
 * dispatcher of their own use it) or pass it to one client. Requests for other origins go over the
 * network through `passThrough`, or are refused.
 *
 * Handlers arrive in undici's current (controller) style whatever the caller used: the dispatcher
 * is an interceptor composed over the pass-through agent, and undici wraps older handlers (those
 * of Node's built-in fetch) before an interceptor sees them.
 */
import { Agent, Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import type { ChatApp } from '../app/app.js';
import type { ApiRequest } from '../app/request.js';
import type { World } from '../../lib/state/world.js';
import { type CloseOptions, createServerHost, type ServerOptions } from '../dev/host.js';
import { requestBody, requestHeaders } from './dispatch-request.js';

export interface FakeServerOptions extends Omit<ServerOptions, 'port' | 'host'> {
  /** Origins answered in-process (`https://chat.example.com`); default: every origin. */
  readonly origins?: readonly string[];
  /** Requests for other origins: `pass` (default) sends them through `passThrough`, `refuse` fails them. */
  readonly others?: 'pass' | 'refuse';
  /** The dispatcher other origins go through (default: a new undici Agent, closed with the fake). */
  readonly passThrough?: Dispatcher;
}

export interface FakeServer extends AsyncDisposable {
  /** The dispatcher: `setGlobalDispatcher(fake.dispatcher)`, `fetch(url, { dispatcher })`, `new Client(..., { dispatcher })`. */
  readonly dispatcher: Dispatcher;
  readonly world: World;
  readonly app: ChatApp;
  reset(): void;
  /** Makes the fake the global dispatcher (`fetch`, undici without a dispatcher); `close()` puts the previous one back. */
  install(): FakeServer;
  /** Puts the previous global dispatcher back (if installed), answers held long polls, saves the state when asked. */
  close(options?: CloseOptions): Promise<void>;
}

type Handler = Dispatcher.DispatchHandler;

/** The controller of one in-process exchange: abort releases a waiting long poll. */
class ExchangeController implements Dispatcher.DispatchController {
  private readonly abortion = new AbortController();
  reason: Error | null = null;
  readonly paused = false;

  get aborted(): boolean {
    return this.reason !== null;
  }
  get signal(): AbortSignal {
    return this.abortion.signal;
  }
  abort(reason: Error): void {
    if (this.reason) return;
    this.reason = reason ?? new Error('aborted');
    this.abortion.abort(this.reason);
  }
  pause(): void {}
  resume(): void {}
}

function originOf(origin: Dispatcher.DispatchOptions['origin']): string {
  return new URL(String(origin ?? 'http://localhost')).origin;
}

async function answerInProcess(answer: (request: ApiRequest) => ReturnType<FakeServer['app']['answer']>, options: Dispatcher.DispatchOptions, handler: Handler): Promise<void> {
  const controller = new ExchangeController();
  try {
    handler.onRequestStart?.(controller, {});
    const url = new URL(options.path, originOf(options.origin));
    const headers = requestHeaders(options.headers, url.host);
    const body = await requestBody(options.body);
    const scheme = url.protocol === 'https:' ? 'https' : 'http';
    const response = await answer({ method: options.method.toUpperCase(), path: url.pathname, query: [...url.searchParams], headers, body, signal: controller.signal, remote: `in-process ${scheme}` });
    if (controller.reason) throw controller.reason;
    handler.onResponseStart?.(controller, response.status, { ...response.headers }, '');
    const payload = response.bytes ?? Buffer.from(response.body, 'utf8');
    if (payload.length > 0 && options.method !== 'HEAD' && !controller.reason) handler.onResponseData?.(controller, Buffer.from(payload));
    if (controller.reason) throw controller.reason;
    handler.onResponseEnd?.(controller, {});
  } catch (error) {
    handler.onResponseError?.(controller, error instanceof Error ? error : new Error(String(error)));
  }
}

/** A fake server answering through an undici dispatcher; see FakeServerOptions. */
export function createFakeServer(options: FakeServerOptions = {}): FakeServer {
  const host = createServerHost(options);
  const ownAgent = options.passThrough ? undefined : new Agent();
  const passThrough = options.passThrough ?? ownAgent!;
  const origins = options.origins?.map((origin) => new URL(origin).origin);
  const answers = (origin: string) => origins === undefined || origins.includes(origin);
  const dispatcher = passThrough.compose((dispatch) => (dispatchOptions, handler) => {
    const origin = originOf(dispatchOptions.origin);
    if (answers(origin)) {
      void answerInProcess(host.answer, dispatchOptions, handler);
      return true;
    }
    if (options.others === 'refuse') {
      const controller = new ExchangeController();
      queueMicrotask(() => handler.onResponseError?.(controller, new Error(`the fake chat server refuses requests for ${origin} (others: 'refuse'); it answers ${origins?.join(', ')}`)));
      return true;
    }
    return dispatch(dispatchOptions, handler);
  });
  let previous: Dispatcher | undefined;
  const fake: FakeServer = {
    dispatcher,
    get world() {
      return host.world;
    },
    get app() {
      return host.app;
    },
    reset: () => host.reset(),
    install() {
      if (previous === undefined) previous = getGlobalDispatcher();
      setGlobalDispatcher(dispatcher);
      return fake;
    },
    async close(closeOptions: CloseOptions = {}) {
      if (previous !== undefined && getGlobalDispatcher() === dispatcher) setGlobalDispatcher(previous);
      previous = undefined;
      await host.close(closeOptions);
      await ownAgent?.close();
    },
    [Symbol.asyncDispose]: () => fake.close(),
  };
  return fake;
}
