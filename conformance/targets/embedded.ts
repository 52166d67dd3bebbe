/**
 * A target served by an in-process handler (no socket). The suite never imports the reference
 * server: the caller (the CLI, the project's tests) passes the handler in.
 */
import { InProcessDispatcher, type InProcessHandler } from './in-process.js';
import type { Target } from './target.js';

/** The default base URL of an embedded target: the development server's usual address. */
export const EMBEDDED_BASE_URL = 'http://localhost:9991';

export function embeddedTarget(handler: InProcessHandler, baseUrl: string = EMBEDDED_BASE_URL): Target {
  const dispatcher = new InProcessDispatcher(handler);
  return { kind: 'embedded', baseUrl, dispatcher, close: () => dispatcher.close() };
}
