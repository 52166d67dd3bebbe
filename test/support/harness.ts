/**
 * In-process test harness: a fresh world on a manual clock, and clients that call the request
 * handler directly (no socket) with form-encoded parameters, as real clients send them.
 */
import { ManualClock } from '../../lib/state/clock.js';
import type { ChatApp } from '../../server/app/app.js';
import { loadFixture } from '../../fixtures/index.js';
import type { Fixture } from '../../lib/fixture/schema.js';
import { createApp, type CreateAppOptions } from '../../server/index.js';
import { makeRequest } from '../../server/app/request.js';
import type { World } from '../../lib/state/world.js';

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (undefined for an empty body). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  readonly text: string;
}

/** Parameter values: strings are sent as they are, anything else JSON-encoded. */
export type Params = Readonly<Record<string, unknown>>;

export function encodeParams(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

export interface CallOptions {
  /** Parameters in the query string (GET always uses the query string). */
  readonly query?: Params;
  readonly headers?: Record<string, string>;
  /** A raw body with its content type, instead of form-encoding `params`. */
  readonly rawBody?: { readonly contentType: string; readonly body: Uint8Array | string };
  readonly signal?: AbortSignal;
}

export class Client {
  constructor(
    private readonly app: ChatApp,
    readonly authorization: string | undefined,
  ) {}

  async call(method: string, path: string, params: Params = {}, options: CallOptions = {}): Promise<Reply> {
    const upper = method.toUpperCase();
    const url = new URL(path.startsWith('/api/') ? path : `/api/v1${path}`, 'http://localhost:9991');
    const inQuery = upper === 'GET' || upper === 'HEAD';
    for (const [name, value] of encodeParams({ ...(options.query ?? {}), ...(inQuery ? params : {}) })) url.searchParams.append(name, value);
    // As the real server's terminal client: its messages start read for their sender (a bare API
    // client's stay unread, see `defaultReadBySender`).
    const headers: Record<string, string> = { host: 'localhost:9991', 'user-agent': 'ZulipTerminal/0.7.0', ...(options.headers ?? {}) };
    if (this.authorization !== undefined) headers.authorization = this.authorization;
    let body: Uint8Array | string | undefined;
    if (options.rawBody) {
      headers['content-type'] = options.rawBody.contentType;
      body = options.rawBody.body;
    } else if (!inQuery && Object.keys(params).length > 0) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = encodeParams(params).toString();
    }
    const request = makeRequest(upper, url.pathname + url.search, {
      headers,
      ...(body === undefined ? {} : { body }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const response = await this.app.handle(request);
    return {
      status: response.status,
      headers: response.headers,
      text: response.body,
      // The upload views answer their errors as HTML pages, as the real server does.
      body: response.body === '' || response.headers['Content-Type']?.startsWith('text/html') ? undefined : JSON.parse(response.body),
    };
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
}

export const basic = (email: string, key: string): string => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

export interface TestServer {
  readonly app: ChatApp;
  readonly world: World;
  readonly clock: ManualClock;
  /** A client authenticated as the user with this delivery email (e.g. `iago@zulip.com`). */
  as(email: string): Client;
  /** A client without credentials. */
  readonly anonymous: Client;
  /** The user ID of a fixture user, by delivery email. */
  id(email: string): number;
  /** A channel ID by name. */
  streamId(name: string): number;
}

/**
 * The development realm without its seeded messages, for tests that count or list every message
 * they can see (the seeded history is tested on its own).
 */
export function withoutSeededMessages(): Fixture {
  const { messages: _seeded, ...rest } = loadFixture();
  return rest;
}

/** A fresh development realm on a manual clock; every test gets its own. */
export function testServer(options: CreateAppOptions & { clock?: ManualClock } = {}): TestServer {
  const clock = options.clock ?? new ManualClock(Date.UTC(2025, 5, 1, 12, 0, 0));
  const app = createApp({ logger: () => undefined, ...options, clock });
  const world = app.world;
  const user = (email: string) => {
    const found = world.usersByEmail.get(email.toLowerCase());
    if (!found) throw new Error(`no fixture user ${email}`);
    return found;
  };
  return {
    app,
    world,
    clock,
    as: (email) => new Client(app, basic(user(email).deliveryEmail, user(email).apiKey)),
    anonymous: new Client(app, undefined),
    id: (email) => user(email).id,
    streamId(name) {
      const stream = world.streamByName(name);
      if (!stream) throw new Error(`no channel ${name}`);
      return stream.id;
    },
  };
}

/** The error envelope's three fields, for compact assertions. */
export const errorOf = (reply: Reply): { status: number; code: unknown; msg: unknown } => ({
  status: reply.status,
  code: reply.body?.code,
  msg: reply.body?.msg,
});

/** What `errorOf` gives for a BAD_REQUEST error with this message (HTTP 400 unless said). */
export const bad = (msg: string, status = 400): { status: number; code: string; msg: string } => ({ status, code: 'BAD_REQUEST', msg });
