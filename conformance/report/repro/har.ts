/** A failing case's exchanges as a HAR 1.2 log (browser dev tools and HTTP tools open these). */
import { STATUS_CODES } from 'node:http';
import type { Exchange } from '../../client/exchange.js';

interface HarNameValue {
  readonly name: string;
  readonly value: string;
}

const pairs = (headers: Readonly<Record<string, string>>): HarNameValue[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

function queryOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function entry(exchange: Exchange, fallbackStart: number, comment: string | undefined) {
  const requestType = exchange.requestHeaders['content-type'] ?? '';
  const responseType = exchange.responseHeaders['content-type'] ?? '';
  return {
    startedDateTime: new Date(exchange.startedAt ?? fallbackStart).toISOString(),
    time: Math.round(exchange.durationMs),
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(exchange.requestHeaders),
      queryString: queryOf(exchange.url),
      ...(exchange.requestBody === ''
        ? {}
        : {
            postData: {
              mimeType: requestType,
              text: exchange.requestBody,
              ...(/x-www-form-urlencoded/.test(requestType) ? { params: [...new URLSearchParams(exchange.requestBody)].map(([name, value]) => ({ name, value })) } : {}),
            },
          }),
      headersSize: -1,
      bodySize: Buffer.byteLength(exchange.requestBody),
    },
    response: {
      status: exchange.status,
      statusText: exchange.status === 0 ? '' : (STATUS_CODES[exchange.status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(exchange.responseHeaders),
      content: { size: Buffer.byteLength(exchange.responseBody), mimeType: responseType, text: exchange.responseBody },
      redirectURL: '',
      headersSize: -1,
      bodySize: exchange.status === 0 ? -1 : Buffer.byteLength(exchange.responseBody),
      ...(exchange.error === undefined ? {} : { _error: exchange.error }),
    },
    cache: {},
    timings: { send: 0, wait: Math.round(exchange.durationMs), receive: 0 },
    ...(comment === undefined ? {} : { comment }),
  };
}

/**
 * The HAR document (an object; `JSON.stringify` it). `comment` says which rule and failure;
 * `failing` marks the exchange the failing check looked at with a comment saying why.
 */
export function harLog(exchanges: readonly Exchange[], creator: { name: string; version: string }, comment: string, failing?: { readonly index: number; readonly comment: string }) {
  const start = Date.now();
  const entries = exchanges.map((exchange, i) => entry(exchange, start, i === failing?.index ? failing.comment : undefined));
  return { log: { version: '1.2', creator, comment, pages: [], entries } };
}
