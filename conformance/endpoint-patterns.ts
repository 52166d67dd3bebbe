/**
 * `--endpoint` patterns: `GET /messages`, `/users/*` (any method), `POST` (every POST endpoint),
 * `*` and `?` as in rule-id globs. A rule's `endpoint` text names one or more endpoints
 * (`POST /messages`, `POST, GET, DELETE /users/me/subscriptions`, `/users/me/subscriptions,
 * /get_stream_id`); a rule is selected when a pattern matches one of them. Rules whose endpoint is
 * `*` check a convention of every endpoint and are selected only by the pattern `*`.
 */
import { UsageError } from './errors.js';
import { globToRegExp } from './glob.js';

interface EndpointName {
  /** Upper case; `*` when the rule names a path without a method (any method). */
  readonly method: string;
  readonly path: string;
}

/** The endpoints a rule's `endpoint` text names. */
export function endpointNames(text: string): EndpointName[] {
  if (text.trim() === '*') return [{ method: '*', path: '*' }];
  const names: EndpointName[] = [];
  let methods: string[] = [];
  for (const part of text.split(',').map((piece) => piece.trim()).filter((piece) => piece !== '')) {
    const match = /^(?:([A-Z]+)\s+)?(\/\S*)$/.exec(part);
    if (!match) {
      if (/^[A-Z]+$/.test(part)) methods.push(part);
      continue;
    }
    const all = match[1] === undefined ? methods : [...methods, match[1]];
    for (const method of all.length === 0 ? ['*'] : all) names.push({ method, path: match[2]! });
    methods = [];
  }
  return names;
}

export interface EndpointPattern {
  readonly text: string;
  readonly method: RegExp;
  readonly path: RegExp;
}

export function parseEndpointPattern(text: string): EndpointPattern {
  const trimmed = text.trim();
  const match = /^(?:([A-Za-z*?]+)(?:\s+|$))?(\/\S*|\*)?$/.exec(trimmed);
  if (trimmed === '' || !match || (match[1] === undefined && match[2] === undefined)) {
    throw new UsageError(`--endpoint: expected 'METHOD /path', '/path' or 'METHOD' (globs allowed), got '${text}'`);
  }
  return { text: trimmed, method: globToRegExp((match[1] ?? '*').toUpperCase()), path: globToRegExp(match[2] ?? '*') };
}

/** Whether a rule with this `endpoint` text is selected by `pattern`. */
export function endpointMatches(pattern: EndpointPattern, endpoint: string): boolean {
  if (endpoint.trim() === '*') return pattern.text === '*';
  return endpointNames(endpoint).some((name) => (name.method === '*' || pattern.method.test(name.method)) && pattern.path.test(name.path));
}
