/** Requests to a running development server over HTTP: its `/__dev/*` endpoints and the API as a dev-realm user. */
import type { Test } from 'tap';
import { type RunningServer, type ServerOptions, startServer } from '../../server/index.js';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, or the text when it is not JSON. */
  readonly body: Record<string, unknown> & { readonly msg?: string; readonly code?: string };
  readonly text: string;
}

export const quiet = { logger: () => undefined } as const;

/** A quiet server for this test, closed when it ends. */
export async function devServer(t: Test, options: ServerOptions = {}): Promise<RunningServer> {
  const server = await startServer({ ...quiet, ...options });
  t.teardown(() => server.close());
  return server;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: Answer['body'];
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    body = {};
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** A development endpoint: `body` is sent as JSON (a string as it is). */
export async function dev(server: RunningServer, method: string, path: string, body?: unknown): Promise<Answer> {
  const init: RequestInit = { method, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }) };
  return answerOf(await fetch(`${server.url}${path}`, init));
}

export function basicAuth(server: RunningServer, email: string): string {
  const user = server.world.usersByEmail.get(email.toLowerCase());
  if (!user) throw new Error(`no user ${email}`);
  return `Basic ${Buffer.from(`${user.deliveryEmail}:${user.apiKey}`).toString('base64')}`;
}

/** An API request as `email` (`/api/v1` is prepended); form parameters as the API takes them. */
export async function api(server: RunningServer, email: string, method: string, path: string, params?: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
  const query = method === 'GET' && params ? `?${new URLSearchParams(params)}` : '';
  const sendsBody = method !== 'GET' && params !== undefined;
  const response = await fetch(`${server.url}/api/v1${path}${query}`, {
    method,
    headers: { authorization: basicAuth(server, email), ...(sendsBody ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
    ...(sendsBody ? { body: new URLSearchParams(params) } : {}),
  });
  return answerOf(response);
}

/** Sends a channel message as `email`; returns its ID. */
export async function sendMessage(server: RunningServer, email: string, content: string, topic = 'dev tools', to = 'Denmark'): Promise<number> {
  const sent = await api(server, email, 'POST', '/messages', { type: 'stream', to, topic, content });
  if (sent.status !== 200) throw new Error(`send failed: ${sent.text}`);
  return sent.body.id as number;
}

/** Registers an event queue as `email`; returns its ID. */
export async function registerQueue(server: RunningServer, email: string, eventTypes: readonly string[] = ['message']): Promise<string> {
  const registered = await api(server, email, 'POST', '/register', { event_types: JSON.stringify(eventTypes) });
  if (registered.status !== 200) throw new Error(`register failed: ${registered.text}`);
  return registered.body.queue_id as string;
}
