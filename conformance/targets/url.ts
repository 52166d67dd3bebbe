/** A target reached over HTTP(S): a loopback development server or a remote one. */
import { Agent } from 'undici';
import { UsageError } from '../errors.js';
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

export interface UrlTargetOptions {
  /** Connection timeout in ms (default 10 s). */
  readonly connectTimeoutMs?: number;
  /** Simultaneous connections (default 8). */
  readonly connections?: number;
}

export function urlTarget(baseUrl: string, options: UrlTargetOptions = {}): Target {
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
    connections: options.connections ?? 8,
    keepAliveTimeout: 10_000,
  });
  return {
    kind: 'url',
    baseUrl: normalizeBaseUrl(baseUrl),
    dispatcher: agent,
    close: () => agent.close(),
  };
}
