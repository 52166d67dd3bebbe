/**
 * One request to the target and its whole answer, whatever carries it: undici for a URL, or
 * a dispatcher that can answer directly (the in-process target), skipping undici's request
 * machinery (handlers, body streams, signal plumbing), most of an in-process request's cost.
 */
import type { Dispatcher } from 'undici';

export interface RawRequest {
  readonly origin: string;
  /** Path with the query string. */
  readonly path: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array | undefined;
  readonly signal?: AbortSignal;
}

export interface RawAnswer {
  readonly status: number;
  /** Names lower-cased, repeated values joined with `, `. */
  readonly headers: Record<string, string>;
  readonly text: string;
}

/** A dispatcher that answers a request itself, without going through `Dispatcher.request()`. */
export interface DirectAnswering {
  answerDirectly(request: RawRequest): Promise<RawAnswer>;
}

function flatHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out.push([name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]);
  }
  return Object.fromEntries(out);
}

/** Sends `request` through `dispatcher` and reads the whole answer as UTF-8 text. */
export async function exchangeRaw(dispatcher: Dispatcher, request: RawRequest): Promise<RawAnswer> {
  const direct = dispatcher as Partial<DirectAnswering>;
  if (typeof direct.answerDirectly === 'function') return direct.answerDirectly(request);
  const response = await dispatcher.request({
    origin: request.origin,
    path: request.path,
    method: request.method as Dispatcher.HttpMethod,
    headers: request.headers,
    body: request.body ?? null,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const text = Buffer.from(await response.body.arrayBuffer()).toString('utf8');
  return { status: response.statusCode, headers: flatHeaders(response.headers), text };
}
