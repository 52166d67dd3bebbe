/** An undici dispatch's request headers and body as the app reads them (the fake server's input). */
import type { Dispatcher } from 'undici';

/** Header names lower-cased in a Map (never object keys), repeated values joined; `host` from the URL when absent. */
export function requestHeaders(headers: Dispatcher.DispatchOptions['headers'], host: string): Map<string, string> {
  const out = new Map<string, string>();
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    const previous = out.get(key);
    out.set(key, previous === undefined ? text : `${previous}, ${text}`);
  };
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1]);
  } else if (headers && typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of headers as Iterable<[string, unknown]>) add(name, value);
  } else if (headers) {
    for (const [name, value] of Object.entries(headers)) add(name, value);
  }
  if (!out.has('host')) out.set('host', host);
  return out;
}

/** The whole body: a string, bytes, or a stream / async iterable of chunks (what fetch passes). */
export async function requestBody(body: Dispatcher.DispatchOptions['body']): Promise<Uint8Array> {
  if (body === null || body === undefined) return new Uint8Array();
  if (typeof body === 'string') return new Uint8Array(Buffer.from(body, 'utf8'));
  if (body instanceof Uint8Array) return body;
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<string | Uint8Array>) chunks.push(Buffer.from(chunk));
    return new Uint8Array(Buffer.concat(chunks));
  }
  throw new TypeError('fake server: unsupported request body (send a string, bytes or a stream)');
}
