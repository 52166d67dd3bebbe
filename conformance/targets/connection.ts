/**
 * How requests reach a target over the network: extra headers on every request (an auth proxy's
 * token), an HTTP(S) proxy (given, or `HTTPS_PROXY`/`HTTP_PROXY` with `NO_PROXY` from the
 * environment, as curl reads them), and TLS settings (an extra CA, or no verification) for staging
 * servers with self-signed certificates. undici's own agents do the work.
 */
import { Agent, Dispatcher, EnvHttpProxyAgent } from 'undici';
import type { DirectAnswering, RawAnswer, RawRequest } from '../client/transport.js';
import { UsageError } from '../errors.js';
import { headerRecord } from './in-process.js';

export interface ConnectionOptions {
  /** Sent with every request, after the suite's own headers (so they win, `Authorization` included). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Proxy URL for every request (`http://proxy.internal:3128`); without it, the environment's. */
  readonly proxy?: string;
  /** Where `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (or their lower-case forms) are read. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Certificates (PEM) trusted besides the system's, for a target or proxy with a private CA. */
  readonly ca?: string;
  /** Skip certificate verification (a self-signed certificate); the traffic is still encrypted. */
  readonly insecure?: boolean;
  /** Connection timeout in ms (default 10 s). */
  readonly connectTimeoutMs?: number;
  /** Simultaneous connections per origin (default 8). */
  readonly connections?: number;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses `-H 'Name: value'` values into a header record (names lower-cased; a repeated name keeps the last). */
export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    const value = colon === -1 ? '' : line.slice(colon + 1).trim();
    if (!HEADER_NAME.test(name)) throw new UsageError(`--header: expected 'Name: value', got '${line.split(':')[0]}...'`);
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header ${name}: the value must be one line`);
    headers.set(name.toLowerCase(), value);
  }
  return Object.fromEntries(headers);
}

/** Header names whose values are secrets: never printed as they are. */
export const looksLikeCredential = (name: string): boolean => /auth|token|key|secret|pass|cookie|session|credential|signature/i.test(name);

/** A proxy URL with its password (if any) hidden, for printing. */
export function redactedUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password === '') return text;
    url.password = 'redacted';
    return url.toString();
  } catch {
    return text;
  }
}

function proxySettings(options: ConnectionOptions): { httpProxy: string; httpsProxy: string; noProxy: string } | undefined {
  const env = options.env ?? {};
  // As curl: the lower-case name first; an empty value counts as unset.
  const read = (name: string) => env[name.toLowerCase()] || env[name] || '';
  const httpProxy = options.proxy ?? read('HTTP_PROXY');
  const httpsProxy = options.proxy ?? (read('HTTPS_PROXY') || httpProxy);
  if (httpProxy === '' && httpsProxy === '') return undefined;
  for (const uri of [httpProxy, httpsProxy]) {
    if (uri !== '' && !/^https?:\/\//i.test(uri)) throw new UsageError(`--proxy: expected an http:// or https:// URL, got '${redactedUrl(uri)}'`);
  }
  return { httpProxy, httpsProxy, noProxy: read('NO_PROXY') };
}

/** The dispatcher for a target reached over the network, with `options` applied. */
export function networkDispatcher(options: ConnectionOptions = {}): Dispatcher {
  const tls = { ...(options.ca === undefined ? {} : { ca: options.ca }), ...(options.insecure ? { rejectUnauthorized: false } : {}) };
  const agentOptions = {
    connect: { timeout: options.connectTimeoutMs ?? 10_000, ...tls },
    connections: options.connections ?? 8,
    keepAliveTimeout: 10_000,
  };
  const proxy = proxySettings(options);
  // Through a proxy, `requestTls` is the target's TLS inside the tunnel and `proxyTls` the proxy's own.
  const dispatcher = proxy ? new EnvHttpProxyAgent({ ...agentOptions, ...proxy, requestTls: tls, proxyTls: tls }) : new Agent(agentOptions);
  const headers = options.headers ?? {};
  return Object.keys(headers).length === 0 ? dispatcher : new HeaderDispatcher(dispatcher, headers);
}

/** Adds `headers` to every request of `inner` (and to the direct answers of an in-process one). */
export class HeaderDispatcher extends Dispatcher implements Partial<DirectAnswering> {
  /** Present only when `inner` answers directly, so transports still see a network dispatcher as one. */
  readonly answerDirectly?: (request: RawRequest) => Promise<RawAnswer>;

  constructor(
    private readonly inner: Dispatcher,
    private readonly headers: Readonly<Record<string, string>>,
  ) {
    super();
    const direct = inner as Partial<DirectAnswering>;
    if (typeof direct.answerDirectly === 'function') {
      const answer = direct.answerDirectly.bind(inner);
      this.answerDirectly = (request) => answer({ ...request, headers: this.merged(request.headers) });
    }
  }

  private merged(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
    return { ...headerRecord(headers), ...this.headers };
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.inner.dispatch({ ...options, headers: this.merged(options.headers) }, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closing = this.inner.close();
    if (callback) return void closing.then(callback, callback);
    return closing;
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const callback = typeof a === 'function' ? a : b;
    const destroying = this.inner.destroy(typeof a === 'function' ? null : (a ?? null));
    if (callback) return void destroying.then(callback, callback);
    return destroying;
  }
}
