/**
 * An app that answers web `Request`s with `Response`s (the `fetch(request)` shape of this
 * package's `ChatApp`, Hono, itty-router and others) as an in-process target: no socket, and no
 * adapter for the caller to write.
 */
import type { InProcessHandler, InProcessResponse } from './in-process.js';

export interface FetchApp {
  fetch(request: Request): Response | Promise<Response>;
}

/** `app` as the in-process dispatcher's handler; `origin` is the address requests are made to. */
export function fetchAppHandler(app: FetchApp): InProcessHandler {
  return async (request): Promise<InProcessResponse> => {
    const url = new URL(request.path, `http://${request.headers.host ?? 'localhost'}`);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body.length > 0;
    const answer = await app.fetch(
      new Request(url, { method: request.method, headers: request.headers, ...(hasBody ? { body: request.body } : {}), signal: request.signal }),
    );
    return { status: answer.status, headers: Object.fromEntries(answer.headers), body: new Uint8Array(await answer.arrayBuffer()) };
  };
}
