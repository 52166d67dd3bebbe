/** The only place that writes success and error envelopes. */
import { ApiError } from '../../lib/errors.js';
import type { ApiResponse } from './request.js';

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'application/json',
  'Cache-Control': 'max-age=0, no-cache, no-store, must-revalidate, private',
});

/** Compact JSON with a trailing newline, as the real server serialises. */
export function jsonResponse(status: number, body: unknown, headers?: Readonly<Record<string, string>>): ApiResponse {
  return { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS, body: `${JSON.stringify(body)}\n` };
}

const NO_NAMES: readonly string[] = [];
/**
 * `{"result":"success","msg":"", ...data, "ignored_parameters_unsupported": [...]}`. One
 * `JSON.stringify` of a shallow copy: copying the top-level keys costs less than slicing the
 * serialised data into a prefix, which makes V8 flatten the text an extra time (this is the hot
 * path of every request).
 */
export function success(data: Readonly<Record<string, unknown>>, ignored: readonly string[] = NO_NAMES): ApiResponse {
  const envelope = ignored.length > 0 ? { result: 'success', msg: '', ...data, ignored_parameters_unsupported: ignored } : { result: 'success', msg: '', ...data };
  return { status: 200, headers: JSON_HEADERS, body: `${JSON.stringify(envelope)}\n` };
}

/** `result`, `msg`, then the error's data fields, then `code`: the real server's key order. */
export function errorResponse(error: ApiError): ApiResponse {
  return jsonResponse(error.status, { result: 'error', msg: error.message, ...error.data, code: error.code }, error.headers);
}

export function internalError(): ApiResponse {
  return jsonResponse(500, { result: 'error', msg: 'Internal server error' });
}

export function methodNotAllowed(allowed: readonly string[]): ApiResponse {
  return jsonResponse(405, { result: 'error', msg: 'Method Not Allowed', allowed_methods: allowed }, { Allow: allowed.join(', ') });
}

export function emptyResponse(status: number, headers: Readonly<Record<string, string>> = {}): ApiResponse {
  return { status, headers, body: '' };
}

export function notFound(): ApiResponse {
  return errorResponse(new ApiError('BAD_REQUEST', 404, 'Not Found'));
}
