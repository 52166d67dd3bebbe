/**
 * The app as a web `fetch` handler (an adapter, as the node:http one): a `Request` in, a `Response` out, so anything that speaks
 * fetch (the conformance suite's `runSuite({ app })`, test tools, service-worker style hosts) can
 * call it in-process without an adapter of its own.
 */
import type { ApiRequest, ApiResponse } from '../app/request.js';

/** Statuses whose answers have no body in the Fetch standard (a `Response` with one throws). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export async function toApiRequest(request: Request): Promise<ApiRequest> {
  const url = new URL(request.url);
  const headers = new Map<string, string>(request.headers);
  if (!headers.has('host')) headers.set('host', url.host);
  const body = request.method === 'GET' || request.method === 'HEAD' ? new Uint8Array() : new Uint8Array(await request.arrayBuffer());
  return { method: request.method.toUpperCase(), path: url.pathname, query: [...url.searchParams], headers, body, signal: request.signal };
}

export function toResponse(answer: ApiResponse, method: string): Response {
  const payload = answer.bytes ?? answer.body;
  const empty = method === 'HEAD' || NULL_BODY_STATUSES.has(answer.status) || payload.length === 0;
  return new Response(empty ? null : payload, { status: answer.status, headers: answer.headers });
}

/** Answers `request` with `answer` (an app's or a front's). */
export async function answerFetch(answer: (request: ApiRequest) => ApiResponse | Promise<ApiResponse>, request: Request): Promise<Response> {
  return toResponse(await answer(await toApiRequest(request)), request.method);
}
