/**
 * Operations (`METHOD /path`) as the Markdown tables of docs/endpoints.md write them (`GET`/`POST
 * /drafts`, `PATCH /drafts/{id}`, `POST /dev_fetch_api_key`, `/dev_list_users`),
 * matched against the route table's patterns (`/drafts/{draft_id:int}`).
 */

const METHODS = new Set(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);

export interface Operation {
  readonly method: string;
  /** A path under `/api/v1` with `{placeholders}`, typed (`{draft_id:int}`) in the route table. */
  readonly path: string;
}

/** `GET /drafts/{draft_id}`: the name rules use, the route's pattern without placeholder types. */
export const operationName = (op: Operation): string => `${op.method} ${op.path.replace(/\{([^}:]*):[^}]*\}/g, '{$1}')}`;

/** The backticked spans of a Markdown cell, in order. */
export const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

const withoutApiPrefix = (path: string): string => (path.startsWith('/api/v1/') ? path.slice('/api/v1'.length) : path);

/**
 * The operations a documentation cell names. A method alone (`GET`) shares the path of the next
 * span that has one; a path alone (`/dev_list_users`) takes the methods of the span before it.
 * Spans that are neither (`op`, `starred_messages`) are ignored.
 */
export function mentionedOperations(cell: string): Operation[] {
  const found: Operation[] = [];
  let pending: string[] = [];
  let previous: string[] = [];
  for (const span of codeSpans(cell)) {
    const trimmed = span.trim();
    const [first = '', ...rest] = trimmed.split(' ');
    if (METHODS.has(trimmed)) {
      pending.push(trimmed);
      continue;
    }
    let methods: string[];
    let path: string;
    if (METHODS.has(first) && rest.join(' ').startsWith('/')) [methods, path] = [[...pending, first], rest.join(' ')];
    else if (trimmed.startsWith('/')) [methods, path] = [pending.length > 0 ? pending : previous, trimmed];
    else continue;
    for (const method of methods) found.push({ method, path: withoutApiPrefix(path) });
    previous = methods;
    pending = [];
  }
  return found;
}

const segments = (path: string): string[] => path.split('/').slice(1);
const placeholder = (segment: string): string | undefined => /^\{([^}:]*)(?::[^}]*)?\}$/.exec(segment)?.[1];

/** Same literal segments, a placeholder where the pattern has one. */
function sameShape(written: string, pattern: string): boolean {
  const [a, b] = [segments(written), segments(pattern)];
  return a.length === b.length && a.every((segment, i) => (placeholder(segment) !== undefined) === (placeholder(b[i]!) !== undefined) && (placeholder(segment) !== undefined || segment === b[i]));
}

/** `{id}` names the pattern's `{draft_id:int}`, `{email}` its `{email}`. */
function samePlaceholderNames(written: string, pattern: string): boolean {
  const b = segments(pattern);
  return segments(written).every((segment, i) => {
    const [mine, theirs] = [placeholder(segment), placeholder(b[i]!)];
    return mine === undefined || theirs === undefined || theirs === mine || theirs.endsWith(`_${mine}`);
  });
}

/**
 * The served operations a written one names: those of its method and shape; when several share
 * the shape (`/users/{user_id:int}` and `/users/{email}`), the ones whose placeholder names fit.
 */
export function servedMatches(written: Operation, served: readonly Operation[]): Operation[] {
  const shaped = served.filter((op) => op.method === written.method && sameShape(written.path, op.path));
  return shaped.length <= 1 ? shaped : shaped.filter((op) => samePlaceholderNames(written.path, op.path));
}
