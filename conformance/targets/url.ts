/** A target reached over HTTP(S): a loopback development server or a remote one. */
import { UsageError } from '../errors.js';
import { type ConnectionOptions, networkDispatcher } from './connection.js';
import type { Target } from './target.js';

/** Normalises `--base-url`: scheme + host (+ port), no trailing slash, no `/api/v1` suffix. */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UsageError(`--base-url: not a URL: ${input}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url: expected http or https, got ${url.protocol}`);
  if (url.search || url.hash) throw new UsageError('--base-url: must not carry a query string or fragment');
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '').replace(/\/api$/, '');
  return `${url.origin}${path}`;
}

/** Connection settings: headers, proxy, TLS, pool size (see ConnectionOptions). */
export type UrlTargetOptions = ConnectionOptions;

export function urlTarget(baseUrl: string, options: UrlTargetOptions = {}): Target {
  const dispatcher = networkDispatcher(options);
  return {
    kind: 'url',
    baseUrl: normalizeBaseUrl(baseUrl),
    dispatcher,
    close: () => dispatcher.close(),
  };
}
