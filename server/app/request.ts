/** The transport-neutral request and response every adapter and in-process test goes through. */

export interface ApiRequest {
  readonly method: string;
  /** URL path without the query string, e.g. `/api/v1/users/10`. */
  readonly path: string;
  /** Query-string pairs in order, already percent-decoded. */
  readonly query: ReadonlyArray<readonly [string, string]>;
  /** Header names lower-cased. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Uint8Array;
  /** Aborted when the client goes away (long polls release their wait). */
  readonly signal?: AbortSignal;
  /** Remote address, for logs. */
  readonly remote?: string;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Binary content (a served upload), sent instead of `body` when present. */
  readonly bytes?: Uint8Array;
}

/** Builds an ApiRequest from a URL string, for tests and in-process callers. */
export function makeRequest(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: Uint8Array | string; signal?: AbortSignal } = {},
): ApiRequest {
  const parsed = new URL(url, 'http://localhost');
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name.toLowerCase(), value);
  const body = typeof options.body === 'string' ? new TextEncoder().encode(options.body) : (options.body ?? new Uint8Array());
  return {
    method: method.toUpperCase(),
    path: parsed.pathname,
    query: [...parsed.searchParams.entries()],
    headers,
    body,
    ...(options.signal ? { signal: options.signal } : {}),
  };
}
