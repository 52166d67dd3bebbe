/**
 * A failing case as a Node script (`<rule id>.mjs`, no dependency): it creates the throwaway users
 * again, replays every exchange of the case against `$BASE_URL` (default: the recorded target)
 * with a fresh run tag and the IDs the fresh answers give, then re-runs the failing check on the
 * same answer and says "reproduced" only when it fails again. The program is runtime.ts; this
 * file writes the data it runs on and the header a person reads.
 */
import type { Exchange } from '../../client/exchange.js';
import type { RuleResult, ThrowawayUserRecord } from '../../results.js';
import type { Redactor } from '../redact.js';
import { secretsOf } from '../redact.js';
import { type AskedValue, type ReproData, type ReproRequest, RUNTIME, type SecretSource } from './runtime.js';
import { describeCheck } from './check-text.js';

/** Headers fetch sets itself, or that the script sets another way. */
const OMITTED_HEADERS = new Set(['host', 'content-length', 'connection', 'authorization', 'transfer-encoding']);

export interface ScriptOptions {
  /** The target's base URL as recorded (the default of `$BASE_URL`). */
  readonly baseUrl: string;
  readonly runTag: string;
  /** Replaces credentials in what the script shows; undefined to keep them as defaults. */
  readonly redactor?: Redactor;
  /** Extra comment lines for the header (how to start an equivalent target). */
  readonly notes?: readonly string[];
  /** The position in `exchanges` of the answer the failing check looked at (-1: none). */
  readonly checkedIndex: number;
  /** How many of `exchanges` (first) made shared fixtures of the run. */
  readonly sharedCount: number;
}

/** The email of Basic credentials, and their key. */
function basicCredentials(value: string): { email: string; key: string } | undefined {
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/.exec(value);
  if (!basic?.[1]) return undefined;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { email: decoded.slice(0, colon), key: decoded.slice(colon + 1) } : undefined;
}

/** Turns secret values into `\u0000secret:N\u0000` markers the script fills in. */
class SecretMarkers {
  readonly sources: SecretSource[] = [];
  private readonly byValue = new Map<string, number>();

  add(value: string, source: SecretSource): void {
    if (value.length < 4 || this.byValue.has(value)) return;
    this.byValue.set(value, this.sources.length);
    this.sources.push(source);
  }

  has(value: string): boolean {
    return this.byValue.has(value);
  }

  mark(text: string): string {
    let out = text;
    for (const [value, index] of [...this.byValue].sort((a, b) => b[0].length - a[0].length)) {
      out = out.split(value).join(`\u0000secret:${index}\u0000`);
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) out = out.split(escaped).join(`\u0000secret:${index}:json\u0000`);
    }
    return out;
  }
}

/** `name` of METHOD PATH: where a secret value was sent, for the question the script asks. */
function whereSent(value: string, exchanges: readonly Exchange[]): string {
  for (const exchange of exchanges) {
    const url = new URL(exchange.url);
    const form = /x-www-form-urlencoded/.test(exchange.requestHeaders['content-type'] ?? '') ? [...new URLSearchParams(exchange.requestBody)] : [];
    const pair = [...url.searchParams, ...form].find(([, v]) => v === value);
    if (pair) return `value of '${pair[0]}' sent to ${exchange.method} ${url.pathname}`;
  }
  return 'secret sent by the recorded requests';
}

interface Plan {
  readonly asked: AskedValue[];
  readonly auth: Map<string, ReproRequest['auth']>;
  readonly secrets: SecretMarkers;
}

/** Who each Authorization header stands for, and which values the script must ask for. */
function plan(exchanges: readonly Exchange[], users: readonly ThrowawayUserRecord[], show: boolean): Plan {
  const asked: AskedValue[] = [];
  const auth = new Map<string, ReproRequest['auth']>();
  const secrets = new SecretMarkers();
  const credential = (email: string, recorded: string | undefined, role = ''): number => {
    const known = asked.findIndex((entry) => entry.email === email);
    if (known >= 0 && role !== '' && !asked[known]!.description.endsWith(role)) asked[known] = { ...asked[known]!, description: `${asked[known]!.description}${role}` };
    if (known >= 0 && show && recorded !== undefined && asked[known]!.recorded === undefined) asked[known] = { ...asked[known]!, recorded };
    if (known >= 0) return known;
    asked.push({ variable: `AUTH_${asked.length + 1}`, description: `API key of ${email}${role}`, email, ...(recorded !== undefined && show ? { recorded } : {}) });
    return asked.length - 1;
  };
  users.forEach((user, i) => secrets.add(user.password, { throwawayPassword: i }));
  for (const exchange of exchanges) {
    const header = exchange.requestHeaders.authorization;
    if (header === undefined || auth.has(header)) continue;
    const basic = basicCredentials(header);
    const throwaway = basic ? users.findIndex((user) => user.email.toLowerCase() === basic.email.toLowerCase()) : -1;
    if (throwaway >= 0) {
      auth.set(header, { throwaway });
      secrets.add(basic!.key, { throwawayKey: throwaway });
    } else {
      auth.set(header, { ask: credential(basic?.email ?? 'the identity of the run', header) });
    }
  }
  for (const user of users) credential(user.createdBy, `Basic ${Buffer.from(`${user.createdBy}:${user.createdByApiKey}`).toString('base64')}`, ' (an administrator: creates the throwaway users)');
  const sent = exchanges.map((exchange) => `${exchange.url}\n${JSON.stringify({ ...exchange.requestHeaders, authorization: '' })}\n${exchange.requestBody}`).join('\n');
  for (const value of exchanges.flatMap(secretsOf)) {
    // Only values the requests carry (a key in an answer is not sent again).
    if (secrets.has(value) || value.length < 4 || !(sent.includes(value) || sent.includes(encodeURIComponent(value)))) continue;
    asked.push({ variable: `SECRET_${asked.length + 1}`, description: whereSent(value, exchanges), ...(show ? { recorded: value } : {}) });
    secrets.add(value, { ask: asked.length - 1 });
  }
  return { asked, auth, secrets };
}

function request(exchange: Exchange, baseUrl: string, planned: Plan, redactor: Redactor | undefined): ReproRequest {
  const url = new URL(exchange.url);
  const mark = (text: string) => planned.secrets.mark(text);
  const headers = Object.fromEntries(Object.entries(exchange.requestHeaders).filter(([name]) => !OMITTED_HEADERS.has(name)).map(([name, value]) => [name, mark(value)]));
  const form = /x-www-form-urlencoded/.test(exchange.requestHeaders['content-type'] ?? '');
  const body = exchange.requestBody === '' ? {} : form ? { form: [...new URLSearchParams(exchange.requestBody)].map(([n, v]) => [mark(n), mark(v)] as const) } : { raw: mark(exchange.requestBody) };
  const authorization = exchange.requestHeaders.authorization;
  const auth = authorization === undefined ? undefined : planned.auth.get(authorization);
  return {
    method: exchange.method,
    path: exchange.url.startsWith(baseUrl) ? url.pathname : `${url.origin}${url.pathname}`,
    query: [...url.searchParams].map(([n, v]) => [mark(n), mark(v)] as const),
    headers,
    ...body,
    ...(auth ? { auth } : {}),
    recordedStatus: exchange.status,
    recordedBody: redactor ? redactor.text(exchange.responseBody) : exchange.responseBody,
  };
}

/** One comment line per line of `text`, with nothing that could end the comment. */
const comment = (text: string) => text.split(/\r\n|[\n\r\u2028\u2029]/).map((line) => `// ${line}`);

export function reproScript(rule: RuleResult, exchanges: readonly Exchange[], options: ScriptOptions): string {
  const failure = rule.failure;
  const text = (value: string) => options.redactor?.text(value) ?? value;
  const users = failure?.throwawayUsers ?? [];
  const planned = plan(exchanges, users, options.redactor === undefined);
  const check = failure?.check;
  const index = options.checkedIndex;
  const data: ReproData = {
    rule: rule.id,
    baseUrl: options.baseUrl,
    runTag: options.runTag,
    asked: planned.asked,
    secrets: planned.secrets.sources,
    throwaway: users.map((user) => ({ email: user.email, userId: user.userId, createdBy: planned.asked.findIndex((entry) => entry.email === user.createdBy) })),
    requests: exchanges.map((exchange) => request(exchange, options.baseUrl, planned, options.redactor)),
    ...(check ? { check: { ...(options.redactor ? options.redactor.value(check) : check), index } } : {}),
    summary: text(failure?.message.split('\n')[0] ?? ''),
  };
  const lines = [
    '#!/usr/bin/env node',
    `// Reproduction of chat-conformance rule ${rule.id} (${rule.endpoint}, section ${rule.section}).`,
    '// The rule failed:',
    ...comment(text(failure?.message ?? '')).map((line) => line.replace(/^\/\/ /, '//   ')),
    ...comment(`Checked: ${text(describeCheck(check, index, exchanges.length))}`),
    `// ${exchanges.length} request(s): ${options.sharedCount > 0 ? `${options.sharedCount} that made fixtures the run shared, then ` : ''}the case's setup and the failing exchange. ${users.length > 0 ? `The ${users.length} throwaway user(s) it used are created again (and deactivated at the end). ` : ''}Names carry a fresh`,
    '// run tag; IDs the fresh answers give replace the recorded ones in later requests and in the expected value.',
    '// Exit status: 0 reproduced (the same check failed again), 1 not reproduced (it held), 2 could not run',
    '// (a credential not given, the setup refused, no answer), 3 cannot tell (the check cannot be re-run from an answer).',
    ...planned.asked.map((entry) => `// ${entry.variable}: ${entry.description}${entry.recorded !== undefined ? ' (recorded value below)' : ': asked for on a terminal, or set it in the environment'}`),
    ...(options.notes ?? []).flatMap(comment),
    `// Usage: node ${rule.id.split('/').pop()}.mjs [BASE_URL]   (default ${options.baseUrl}; needs Node 20 or later)`,
    `const DATA = ${JSON.stringify(data, null, 1)};`,
    ...RUNTIME.map((fn) => fn.toString()),
    'process.exitCode = await reproduce(DATA, { argv: process.argv.slice(2), env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });',
    '',
  ];
  return lines.join('\n');
}
