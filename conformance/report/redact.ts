/**
 * Credentials in reports: API keys, passwords and `Authorization` values are replaced by
 * `<redacted>` in every report unless `--show-credentials` is given. The redactor learns the
 * secret values from the exchanges themselves (headers, parameters and answers that carry keys),
 * then replaces each value, in its raw, URL-encoded, form-encoded and JSON-escaped spellings,
 * wherever it occurs in the results.
 */
import type { Exchange } from '../client/exchange.js';
import type { FailureInfo, SuiteResult } from '../results.js';

export const REDACTED = '<redacted>';

/** Parameter and answer fields whose values are credentials. */
const SECRET_FIELDS = new Set(['api_key', 'password', 'old_password', 'new_password', 'otp']);
/** Shorter values are not replaced: they would blank out unrelated text. */
const MIN_SECRET_LENGTH = 4;

function secretFieldsOfJson(value: unknown, found: string[], depth = 0): void {
  if (depth > 4 || value === null || typeof value !== 'object') return;
  for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET_FIELDS.has(name) && typeof inner === 'string') found.push(inner);
    else secretFieldsOfJson(inner, found, depth + 1);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The secret values one exchange carries. */
export function secretsOf(exchange: Exchange): string[] {
  const found: string[] = [];
  const authorization = exchange.requestHeaders.authorization;
  if (authorization !== undefined) {
    const [scheme, credentials = ''] = authorization.split(/ (.*)/s);
    found.push(credentials || (scheme ?? ''));
    if (scheme?.toLowerCase() === 'basic') {
      const decoded = Buffer.from(credentials, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) found.push(decoded.slice(colon + 1));
    }
  }
  const params: Array<[string, string]> = [];
  try {
    params.push(...new URL(exchange.url).searchParams);
  } catch {
    // A URL the client could not parse was never sent.
  }
  if (/x-www-form-urlencoded/.test(exchange.requestHeaders['content-type'] ?? '')) params.push(...new URLSearchParams(exchange.requestBody));
  for (const [name, value] of params) if (SECRET_FIELDS.has(name)) found.push(value);
  secretFieldsOfJson(parseJson(exchange.responseBody), found);
  return found;
}

export class Redactor {
  private readonly secrets = new Set<string>();
  private spellings: string[] = [];

  /** `extra`: values known to be secret up front (`--api-key` values, `ZULIP_API_KEY`). */
  constructor(extra: readonly string[] = []) {
    this.add(extra);
  }

  /** Learns the secrets of these exchanges. */
  learn(exchanges: Iterable<Exchange>): this {
    for (const exchange of exchanges) this.add(secretsOf(exchange));
    return this;
  }

  /** Learns the secrets of a failure: its exchanges, the passwords of its throwaway users and their creator's key. */
  learnFailure(failure: FailureInfo | undefined): this {
    if (!failure) return this;
    this.add((failure.throwawayUsers ?? []).flatMap((user) => [user.password, user.createdByApiKey]));
    return this.learn([...failure.exchanges, ...(failure.sharedSetup ?? []), ...failure.reproduction]);
  }

  private add(values: readonly string[]): void {
    let changed = false;
    for (const value of values) {
      if (value.length < MIN_SECRET_LENGTH || value === REDACTED || this.secrets.has(value)) continue;
      this.secrets.add(value);
      changed = true;
    }
    if (!changed) return;
    const spellings = new Set<string>();
    for (const secret of this.secrets) {
      spellings.add(secret);
      spellings.add(encodeURIComponent(secret));
      spellings.add(new URLSearchParams([['', secret]]).toString().slice(1));
      spellings.add(JSON.stringify(secret).slice(1, -1));
    }
    // Longest first, so a value containing another is replaced whole.
    this.spellings = [...spellings].sort((a, b) => b.length - a.length);
  }

  /** The text with every known secret replaced. */
  text(value: string): string {
    let out = value;
    for (const spelling of this.spellings) if (out.includes(spelling)) out = out.split(spelling).join(REDACTED);
    return out;
  }

  /** A deep copy of a JSON-like value with every string redacted. */
  value<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.value(item)) as T;
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, this.value(inner)])) as T;
  }
}

/** The result with its credentials redacted (learnt from its own exchanges plus `extra`). */
export function redactResult(result: SuiteResult, extra: readonly string[] = []): SuiteResult {
  const redactor = new Redactor(extra);
  for (const rule of result.results) redactor.learnFailure(rule.failure);
  return redactor.value(result);
}
