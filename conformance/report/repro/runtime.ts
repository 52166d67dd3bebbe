/**
 * The program of a reproduction script (`--repro-dir`). These functions are copied into every
 * script as their source text (`Function.prototype.toString`, see script.ts), so each one uses
 * only its parameters, the other functions listed in `RUNTIME` (some imported from expect/, kept
 * self-contained for this) and Node's globals: no module-level values. A script needs Node 20 and nothing else.
 *
 * Exit statuses: 0 reproduced (the recorded check failed again), 1 not reproduced (it held),
 * 2 could not run (a credential not given, the setup refused, the target unreachable), 3 cannot
 * tell (the failure has no check that can be re-run from an answer: a condition the rule computed,
 * a timeout, an error in the rule).
 */
import { jsonEqual } from '../../expect/json-equal.js';
import { parsePath, type RecordedCheck, valueAt } from '../../expect/recorded-check.js';

/** A value a script asks for (environment variable, else a prompt on a terminal). */
export interface AskedValue {
  readonly variable: string;
  /** What to ask for: "API key of iago@zulip.com", "password of POST /fetch_api_key". */
  readonly description: string;
  /** The email of a credential: a bare API key given for it becomes its Basic header. */
  readonly email?: string;
  /** The recorded value (only with --show-credentials). */
  readonly recorded?: string;
}

/** Where a secret of a request comes from. */
export type SecretSource = { readonly ask: number } | { readonly throwawayPassword: number } | { readonly throwawayKey: number };

export interface ReproRequest {
  readonly method: string;
  /** The path under the base URL (`/api/v1/...`), or a whole URL when another host was reached. */
  readonly path: string;
  readonly query: ReadonlyArray<readonly [string, string]>;
  readonly headers: Readonly<Record<string, string>>;
  /** Form fields (sent form-encoded) or a raw body (JSON, multipart, other). */
  readonly form?: ReadonlyArray<readonly [string, string]>;
  readonly raw?: string;
  /** Whose credentials: an asked credential's index, or a throwaway user's. */
  readonly auth?: { readonly ask: number } | { readonly throwaway: number };
  readonly recordedStatus: number;
  /** The recorded answer (redacted): IDs in it are matched against the fresh answer's. */
  readonly recordedBody: string;
}

export interface ReproData {
  readonly rule: string;
  readonly baseUrl: string;
  /** The recorded run's tag, replaced by a fresh one so names and emails do not collide. */
  readonly runTag: string;
  readonly asked: readonly AskedValue[];
  /** Secrets inside requests, by the number in their `\u0000secret:N\u0000` marker. */
  readonly secrets: readonly SecretSource[];
  /** Users to create again; `createdBy` is the asked credential of an administrator. */
  readonly throwaway: ReadonlyArray<{ readonly email: string; readonly userId: number; readonly createdBy: number }>;
  readonly requests: readonly ReproRequest[];
  /** The check to re-run on the answer of `requests[index]`. */
  readonly check?: RecordedCheck & { readonly index: number };
  readonly summary: string;
}

export interface ReproIo {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: { readonly isTTY?: boolean };
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/**
 * Learns which IDs the fresh answer gave where the recorded one had others: an `id(s)` or
 * `*_id(s)` value at the same place (event and update counters left out: they are positions, not
 * objects). Lists are not matched by position, which differs between servers: list items are
 * paired by a name, email or text that carries the run tag (what the run made), and lists of IDs
 * by the IDs only one side has, when both sides have as many.
 */
export function learnIds(recorded: unknown, fresh: unknown, key: string, ids: Map<string, number | string>, runTag: readonly [string, string]): void {
  const idKey = /^(?:ids?|.*_ids?)$/.test(key) && !/^(?:last_event_id|presence_last_update_id|max_message_id|realm_id)$/.test(key);
  const learn = (was: unknown, now: unknown) => {
    if (was === now || typeof was !== typeof now) return;
    if ((typeof was === 'number' && Number.isInteger(was) && was > 0) || (typeof was === 'string' && was.length >= 3)) ids.set(`${typeof was}:${String(was)}`, now as number | string);
  };
  if (Array.isArray(recorded) && Array.isArray(fresh)) {
    if (recorded.every((item) => item === null || typeof item !== 'object')) {
      if (!idKey) return;
      const wasOnly = recorded.filter((item) => !fresh.includes(item));
      const nowOnly = fresh.filter((item) => !recorded.includes(item));
      if (wasOnly.length === nowOnly.length) wasOnly.forEach((item, i) => learn(item, nowOnly[i]));
      return;
    }
    const fields = ['name', 'delivery_email', 'email', 'full_name', 'subject', 'topic', 'content', 'description'];
    for (const item of recorded) {
      if (item === null || typeof item !== 'object') continue;
      const was = item as Record<string, unknown>;
      const field = fields.find((name) => typeof was[name] === 'string' && (was[name] as string).includes(runTag[0]));
      if (field === undefined) continue;
      const want = (was[field] as string).split(runTag[0]).join(runTag[1]);
      const match = fresh.find((candidate) => candidate !== null && typeof candidate === 'object' && (candidate as Record<string, unknown>)[field] === want);
      if (match !== undefined) learnIds(item, match, key, ids, runTag);
    }
    return;
  }
  if (recorded !== null && typeof recorded === 'object' && fresh !== null && typeof fresh === 'object') {
    for (const [name, value] of Object.entries(recorded)) learnIds(value, (fresh as Record<string, unknown>)[name], name, ids, runTag);
    return;
  }
  if (idKey) learn(recorded, fresh);
}

/** A recorded JSON value as the fresh run would have it: learnt IDs replaced, the run tag too. */
export function freshValue(value: unknown, ids: Map<string, number | string>, runTag: readonly [string, string]): unknown {
  if (Array.isArray(value)) return value.map((item) => freshValue(item, ids, runTag));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, freshValue(v, ids, runTag)]));
  if (typeof value !== 'number' && typeof value !== 'string') return value;
  const id = ids.get(`${typeof value}:${String(value)}`);
  if (id !== undefined) return id;
  return typeof value === 'string' ? value.split(runTag[0]).join(runTag[1]) : value;
}

/**
 * The recorded text for the fresh run: the run tag replaced, secrets filled in (JSON-escaped where
 * the marker says `:json`), and learnt IDs replaced where they stand as whole numbers or strings.
 */
export function substitute(text: string, runTag: readonly [string, string], secrets: readonly string[], ids: Map<string, number | string>): string {
  const strings = [...ids].filter(([key]) => key.startsWith('string:')).map(([key, value]) => [key.slice(7), String(value)] as const);
  const literal = (piece: string) => {
    // A whole number as IDs stand: alone, in a path, a JSON list or object, a parameter (not `lk-136`, `[0-9]`).
    let out = piece.replace(/(?<![^\s/[,:=])\d+(?![^\s/\],}&])/g, (digits) => String(ids.get(`number:${digits}`) ?? digits));
    for (const [from, to] of strings) out = out.split(from).join(to);
    return out;
  };
  return text
    .split(/(\u0000secret:\d+(?::json)?\u0000)/)
    .map((piece) => {
      const marker = /^\u0000secret:(\d+)(:json)?\u0000$/.exec(piece);
      if (marker) {
        const value = secrets[Number(marker[1])] ?? '';
        return marker[2] ? JSON.stringify(value).slice(1, -1) : value;
      }
      return piece.split(runTag[0]).map(literal).join(runTag[1]);
    })
    .join('');
}

/** Whether the recorded check fails again on this answer (undefined: it cannot be re-run), and how. */
export function recheck(check: ReproData['check'], status: number, body: unknown, fresh: (recorded: unknown) => unknown): { reproduced: boolean | undefined; detail: string } {
  if (!check) return { reproduced: undefined, detail: 'the failure has no recorded check (a timeout or an error in the rule)' };
  const show = (value: unknown) => (value === undefined ? 'nothing (absent)' : JSON.stringify(value).slice(0, 300));
  const got = body === null || typeof body !== 'object' ? {} : (body as Record<string, unknown>);
  if (check.kind === 'status') {
    const allowed = check.expected as number[];
    return { reproduced: !allowed.includes(status), detail: `HTTP status: expected ${allowed.join(' or ')}, got ${status}` };
  }
  if (check.kind === 'success') return { reproduced: status !== 200 || got.result !== 'success', detail: `expected a success, got HTTP ${status} result ${show(got.result)}` };
  if (check.kind === 'error') {
    const answers = (Array.isArray(check.expected) ? check.expected : [check.expected]) as Array<{ status: number; code?: string }>;
    const matches = answers.some((answer) => status === answer.status && got.result === 'error' && (answer.code === undefined || got.code === answer.code));
    return { reproduced: !matches, detail: `expected the error ${show(check.expected)}, got HTTP ${status} result ${show(got.result)} code ${show(got.code)}` };
  }
  if (check.kind === 'condition' || check.path === undefined) {
    return { reproduced: undefined, detail: 'the failing check is a condition the rule computed, not a value found in an answer: compare the answer printed above with the recorded one' };
  }
  const at = valueAt(body, check.path);
  const where = check.path === '' ? 'the body' : check.path;
  if (check.kind === 'absent') return { reproduced: at.found, detail: `${where}: expected to be absent, got ${show(at.value)}` };
  if (check.kind === 'equal') {
    const expected = fresh(check.expected);
    return { reproduced: !(at.found === (check.expected !== undefined) && jsonEqual(at.value, expected)), detail: `${where}: expected ${show(expected)}, got ${show(at.value)}` };
  }
  // A shape: the same key still missing or present, or the same wrong value still there.
  if (check.expected === 'present') return { reproduced: !at.found, detail: `${where}: expected to be present, ${at.found ? 'present' : 'still missing'}` };
  if (check.expected === 'absent') return { reproduced: at.found, detail: `${where}: expected to be absent, ${at.found ? 'still present' : 'absent'}` };
  const wrong = fresh(check.received);
  return { reproduced: at.found === (check.received !== undefined) && jsonEqual(at.value, wrong), detail: `${where}: expected ${String(check.expected)}, recorded ${show(wrong)}, got ${show(at.value)}` };
}

/** Asks for a value: its environment variable, the recorded one, else a prompt on a terminal. */
export async function askFor(asked: AskedValue, io: ReproIo): Promise<string | undefined> {
  const given = io.env[asked.variable] ?? asked.recorded;
  if (given !== undefined && given !== '') return given;
  if (!io.stdin.isTTY) return undefined;
  const readline = await import('node:readline/promises');
  const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await prompt.question(`${asked.description} (or set ${asked.variable}): `)).trim() || undefined;
  } finally {
    prompt.close();
  }
}

/** Sends one request; the answer's status (0 when none came) and text. */
export async function send(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: string }> {
  try {
    const response = await fetch(url, { method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: 0, text: `(no answer: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})` };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The whole reproduction; resolves to the exit status. */
export async function reproduce(data: ReproData, io: ReproIo): Promise<number> {
  const say = (line: string) => void io.stdout.write(`${line}\n`);
  const stop = (line: string) => (io.stderr.write(`${line}\n`), 2);
  const base = (io.argv[0] ?? io.env.BASE_URL ?? data.baseUrl).replace(/\/+$/, '');
  const authorizations: string[] = [];
  const values: string[] = [];
  for (const asked of data.asked) {
    const value = await askFor(asked, io);
    if (value === undefined) return stop(`not run: set ${asked.variable} to the ${asked.description}${asked.email ? ' (or the whole Authorization header)' : ''}`);
    values.push(value);
    authorizations.push(asked.email !== undefined && !/^\w+ /.test(value) ? `Basic ${Buffer.from(`${asked.email}:${value}`).toString('base64')}` : value);
  }
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const tag = `conf-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => alphabet[byte % 36]).join('')}`;
  const ids = new Map<string, number | string>();
  const created: Array<{ email: string; password: string; key: string; userId: number; admin: string }> = [];
  const form = (pairs: ReadonlyArray<readonly [string, string]>) => new URLSearchParams(pairs.map(([n, v]): [string, string] => [n, v])).toString();
  const formHeaders = (authorization?: string) => ({ 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) });
  let status = 0;
  try {
    for (const [i, user] of data.throwaway.entries()) {
      const email = user.email.split(data.runTag).join(tag);
      const password = `${Array.from(crypto.getRandomValues(new Uint8Array(18)), (byte) => alphabet[byte % 36]).join('')}-Aa1!`;
      const admin = authorizations[user.createdBy]!;
      const made = await send(`${base}/api/v1/users`, 'POST', formHeaders(admin), form([['email', email], ['password', password], ['full_name', `${tag} throwaway ${i + 1}`]]));
      const userId = (parseJson(made.text) as { user_id?: unknown } | undefined)?.user_id;
      if (made.status !== 200 || typeof userId !== 'number') return stop(`not run: creating the throwaway user ${email} answered HTTP ${made.status} ${made.text.slice(0, 300)}`);
      created.push({ email, password, key: '', userId, admin });
      ids.set(`number:${user.userId}`, userId);
      const dev = await send(`${base}/api/v1/dev_fetch_api_key`, 'POST', formHeaders(), form([['username', email]]));
      const byPassword = dev.status === 200 ? dev : await send(`${base}/api/v1/fetch_api_key`, 'POST', formHeaders(), form([['username', email], ['password', password]]));
      const key = (parseJson(byPassword.text) as { api_key?: unknown } | undefined)?.api_key;
      if (typeof key !== 'string') return stop(`not run: no API key for ${email} (development or password login): HTTP ${byPassword.status}`);
      created[i]!.key = key;
      say(`# created the throwaway user ${email} (user ${userId}) for recorded user ${user.userId}`);
    }
    const secrets = data.secrets.map((source) =>
      'ask' in source ? values[source.ask]! : 'throwawayPassword' in source ? created[source.throwawayPassword]!.password : created[source.throwawayKey]!.key,
    );
    const fill = (text: string) => substitute(text, [data.runTag, tag], secrets, ids);
    let checked: { status: number; body: unknown; recorded: number } | undefined;
    for (const [i, request] of data.requests.entries()) {
      const path = request.path.startsWith('/') ? `${base}${request.path.split('/').map((segment) => {
        const decoded = decodeURIComponent(segment);
        const filled = fill(decoded);
        return filled === decoded ? segment : encodeURIComponent(filled);
      }).join('/')}` : fill(request.path);
      const query = request.query.length === 0 ? '' : `?${form(request.query.map(([n, v]) => [fill(n), fill(v)]))}`;
      const headers: Record<string, string> = Object.fromEntries(Object.entries(request.headers).map(([n, v]) => [n, fill(v)]));
      const auth = request.auth;
      if (auth) headers.authorization = 'ask' in auth ? authorizations[auth.ask]! : `Basic ${Buffer.from(`${created[auth.throwaway]!.email}:${created[auth.throwaway]!.key}`).toString('base64')}`;
      const body = request.form ? form(request.form.map(([n, v]) => [fill(n), fill(v)])) : request.raw === undefined ? undefined : fill(request.raw);
      const answer = await send(path + query, request.method, headers, body);
      const json = parseJson(answer.text);
      const same = answer.status === request.recordedStatus ? '' : ` (recorded HTTP ${request.recordedStatus})`;
      say(`== ${i + 1}/${data.requests.length} ${request.method} ${path.startsWith(base) ? path.slice(base.length) : path} -> HTTP ${answer.status}${same}`);
      say(answer.text.length > 2000 ? `${answer.text.slice(0, 2000)}...` : answer.text);
      learnIds(parseJson(request.recordedBody), json, '', ids, [data.runTag, tag]);
      if (data.check?.index === i) checked = { status: answer.status, body: json, recorded: request.recordedStatus };
    }
    const fresh = (value: unknown) => freshValue(value, ids, [data.runTag, tag]);
    // A value check on an answer of another status than recorded: the case went another way.
    const diverged = checked && checked.status !== checked.recorded && !['status', 'success', 'error'].includes(data.check?.kind ?? '');
    const verdict = diverged
      ? { reproduced: undefined, detail: `the checked request answered HTTP ${checked!.status}, recorded HTTP ${checked!.recorded}: the case went another way (see the answers above)` }
      : checked
        ? recheck(data.check, checked.status, checked.body, fresh)
        : data.check
        ? { reproduced: undefined, detail: 'the checked answer is not among the recorded exchanges' }
        : recheck(undefined, 0, undefined, fresh);
    if (verdict.reproduced === undefined) {
      say(`# cannot tell: ${verdict.detail}`);
      status = 3;
    } else if (verdict.reproduced) {
      say(`# reproduced: the same check failed again: ${verdict.detail}`);
      status = 0;
    } else {
      say(`# not reproduced: the check held: ${verdict.detail}`);
      status = 1;
    }
  } finally {
    for (const user of created) {
      const gone = await send(`${base}/api/v1/users/${user.userId}`, 'DELETE', { authorization: user.admin }, undefined);
      if (gone.status !== 200) io.stderr.write(`could not deactivate the throwaway user ${user.email}: HTTP ${gone.status}\n`);
    }
  }
  return status;
}

/** The functions a script carries, in the order they are written into it. */
export const RUNTIME = [jsonEqual, parsePath, valueAt, learnIds, freshValue, substitute, recheck, askFor, send, parseJson, reproduce] as const;
