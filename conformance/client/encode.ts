/**
 * Parameter encoding the way real clients send it (spec section 1, convention 2): strings go as
 * they are, every other value JSON-encoded; form-urlencoded bodies for POST/PATCH/DELETE, the
 * query string for GET; multipart on request.
 */
import { randomBytes } from 'node:crypto';

/**
 * Request parameters. A record is convenient; a list of pairs keeps order, allows repeated names
 * and names such as `__proto__` (never build a record from generated names: use pairs or
 * `Object.fromEntries`). `undefined` values are left out.
 */
export type Params = Readonly<Record<string, unknown>> | ReadonlyArray<readonly [string, unknown]>;

/** One file part of a multipart body. */
export interface FilePart {
  readonly name: string;
  readonly filename: string;
  readonly contentType?: string;
  readonly data: Uint8Array | string;
}

/** The wire text of one value: strings raw, anything else as JSON. */
export function encodeValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The parameters as ordered name/value pairs of wire text. */
export function paramPairs(params: Params | undefined): Array<[string, string]> {
  if (params === undefined) return [];
  const entries: ReadonlyArray<readonly [string, unknown]> = Array.isArray(params)
    ? (params as ReadonlyArray<readonly [string, unknown]>)
    : Object.entries(params as Readonly<Record<string, unknown>>);
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of entries) if (value !== undefined) pairs.push([name, encodeValue(value)]);
  return pairs;
}

/** `application/x-www-form-urlencoded` text (also the query-string syntax). */
export function formEncode(pairs: ReadonlyArray<readonly [string, string]>): string {
  const form = new URLSearchParams();
  for (const [name, value] of pairs) form.append(name, value);
  return form.toString();
}

export interface EncodedBody {
  readonly contentType: string;
  readonly body: Uint8Array;
}

/** A `multipart/form-data` body with the fields, then the files. */
export function multipartEncode(pairs: ReadonlyArray<readonly [string, string]>, files: readonly FilePart[] = []): EncodedBody {
  const boundary = `----chat-conformance-${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  const quote = (text: string) => text.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
  for (const [name, value] of pairs) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.name)}"; filename="${quote(file.filename)}"\r\n` +
      `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`;
    chunks.push(Buffer.from(head), Buffer.from(file.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: new Uint8Array(Buffer.concat(chunks)) };
}

/** HTTP Basic credentials header for `email:apiKey`. */
export function basicAuthorization(email: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${email}:${apiKey}`, 'utf8').toString('base64')}`;
}
