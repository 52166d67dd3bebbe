/**
 * Request parameters: the query string for every method, plus urlencoded or multipart bodies.
 * JSON bodies are ignored, as on the real server. The body wins over the query string and the
 * last of duplicate keys wins.
 */
import { badRequest } from '../../lib/errors.js';
import { MAX_PARAMETERS } from '../../lib/input/limits.js';
import type { ApiRequest } from './request.js';

export interface UploadedFile {
  readonly fieldName: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

export interface RequestParams {
  readonly body: ReadonlyMap<string, string>;
  readonly query: ReadonlyMap<string, string>;
  readonly files: readonly UploadedFile[];
}

const decoder = new TextDecoder('utf-8', { fatal: false });
/** Shared empty parts: most requests have no body and many no query string. */
const NONE: ReadonlyMap<string, string> = new Map();
const NO_FILES: readonly UploadedFile[] = [];
const NO_PARAMS: RequestParams = Object.freeze({ body: NONE, query: NONE, files: NO_FILES });

function mediaType(request: ApiRequest): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

async function parseMultipart(request: ApiRequest): Promise<{ fields: Map<string, string>; files: UploadedFile[] }> {
  const fields = new Map<string, string>();
  const files: UploadedFile[] = [];
  let form: FormData;
  try {
    form = await new Response(request.body, {
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
    }).formData();
  } catch {
    throw badRequest('Malformed payload');
  }
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields.set(name, value);
    else {
      files.push({
        fieldName: name,
        fileName: value.name,
        contentType: value.type || 'application/octet-stream',
        bytes: new Uint8Array(await value.arrayBuffer()),
      });
    }
  }
  return { fields, files };
}

/** One name or value of a form, its `+` already made spaces: percent escapes as UTF-8. */
const unescapePart = (part: string): string => (part.indexOf('%') === -1 ? part : decodeURIComponent(part));

/**
 * An urlencoded body, the last of duplicate names winning, as `URLSearchParams` reads it but four
 * to ten times faster on a large body (its parser is JavaScript in node 20, and a million `+`
 * took it 50 to 100 ms): `+` become spaces on the bytes, escapes are decoded by the engine's
 * `decodeURIComponent`. A body with an escape that is not valid UTF-8, which `decodeURIComponent`
 * refuses, goes through `URLSearchParams`, which keeps or replaces such bytes.
 */
function decodeForm(body: Uint8Array): Map<string, string> {
  const spaced = body.slice();
  for (let i = 0; i < spaced.length; i++) if (spaced[i] === 0x2b) spaced[i] = 0x20;
  const fields = new Map<string, string>();
  try {
    for (const pair of decoder.decode(spaced).split('&')) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      if (equals === -1) fields.set(unescapePart(pair), '');
      else fields.set(unescapePart(pair.slice(0, equals)), unescapePart(pair.slice(equals + 1)));
    }
    return fields;
  } catch {
    return new Map(new URLSearchParams(decoder.decode(body)));
  }
}

const tooManyParameters = () => badRequest(`Too many parameters (limit: ${MAX_PARAMETERS}).`);

/** How many times `separator` occurs in `body`, counting no further than `limit + 1`. */
function occurrences(body: Uint8Array, separator: Uint8Array | number, limit: number): number {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let count = 0;
  for (let at = bytes.indexOf(separator); at !== -1 && count <= limit; at = bytes.indexOf(separator, at + 1)) count++;
  return count;
}

/**
 * Refuses a body of more than MAX_PARAMETERS fields before it is parsed: each field costs a
 * string or two, and 32 MiB of tiny fields took the multipart parser seconds. Counted on the
 * bytes: `&` for urlencoded bodies, the boundary line for multipart ones.
 */
function checkFieldCount(request: ApiRequest, type: string): void {
  if (type === 'application/x-www-form-urlencoded') {
    if (occurrences(request.body, 0x26, MAX_PARAMETERS) >= MAX_PARAMETERS) throw tooManyParameters();
    return;
  }
  const boundary = /;\s*boundary="?([^";]+)"?/i.exec(request.headers.get('content-type') ?? '')?.[1];
  // One delimiter line before each field and one closing the body.
  if (boundary && occurrences(request.body, Buffer.from(`--${boundary}`), MAX_PARAMETERS + 1) > MAX_PARAMETERS + 1) throw tooManyParameters();
}

/** Synchronous except for multipart bodies, which the platform's parser reads asynchronously. */
export function readParams(request: ApiRequest): RequestParams | Promise<RequestParams> {
  if (request.query.length > MAX_PARAMETERS) throw tooManyParameters();
  const query = request.query.length === 0 ? NONE : new Map<string, string>(request.query);
  if (request.method === 'GET' || request.method === 'HEAD' || request.body.length === 0) {
    return query === NONE ? NO_PARAMS : { body: NONE, query, files: NO_FILES };
  }
  const type = mediaType(request);
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') checkFieldCount(request, type);
  if (type === 'application/x-www-form-urlencoded') return { body: decodeForm(request.body), query, files: [] };
  if (type === 'multipart/form-data') {
    return parseMultipart(request).then(({ fields, files }) => ({ body: fields, query, files }));
  }
  return { body: new Map(), query, files: [] };
}

/** Every parameter name the client sent, for `ignored_parameters_unsupported`. */
export function sentNames(params: RequestParams): Set<string> {
  return new Set([...params.body.keys(), ...params.query.keys()]);
}
