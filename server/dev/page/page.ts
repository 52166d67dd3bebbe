/**
 * `GET /` of a development server: one HTML document with its stylesheet and script inline and
 * nothing else to load, showing the realm (users with roles and API keys, channels, recent
 * messages, event queues) and a live log, all read from the `/__dev/*` JSON endpoints. The
 * Content-Security-Policy allows exactly that script and stylesheet (by hash) and requests to
 * this server, nothing else: no other script, style, plugin, form target or framing site.
 */
import { createHash } from 'node:crypto';
import type { ApiRequest, ApiResponse } from '../../app/request.js';
import { PAGE_BODY } from './page-markup.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export const PAGE_HTML = [
  '<!doctype html>',
  '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
  // An empty icon, so the browser does not ask the API for /favicon.ico.
  '<title>chat-server</title><link rel="icon" href="data:,">',
  `<style>${PAGE_STYLE}</style></head>`,
  `<body>${PAGE_BODY}`,
  `<script>${PAGE_SCRIPT}</script></body></html>`,
  '',
].join('\n');

export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${hash(PAGE_SCRIPT)}`,
  `style-src ${hash(PAGE_STYLE)}`,
  "connect-src 'self'",
  // Images of a message's stored HTML, in its sandboxed frame, may come from this server's uploads.
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page's size in bytes, as served. */
export const PAGE_BYTES = Buffer.byteLength(PAGE_HTML, 'utf8');

const HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
});

/** The page for `GET /` and `HEAD /`. */
export function devPage(request: ApiRequest): ApiResponse {
  return { status: 200, headers: HEADERS, body: request.method === 'HEAD' ? '' : PAGE_HTML };
}
