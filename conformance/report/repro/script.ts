/**
 * A failing case as a bash script: every exchange of the case (its setup included), in order, as
 * curl commands against `$BASE_URL` (default: the recorded target), each answer printed and its
 * status compared with the recorded one. Credentials live in `AUTH_n` variables at the top; when
 * redacted, the script asks for them instead of sending a placeholder.
 */
import { shellQuote } from '../../client/curl.js';
import type { Exchange } from '../../client/exchange.js';
import type { RuleResult } from '../../results.js';
import { multipartBoundary, parseMultipart } from './multipart.js';
import type { Redactor } from '../redact.js';

/** Headers curl sets itself, or that the script sets another way. */
const OMITTED_HEADERS = new Set(['host', 'content-length', 'connection', 'authorization', 'transfer-encoding']);

export interface ScriptOptions {
  /** The target's base URL as recorded (the default of `$BASE_URL`). */
  readonly baseUrl: string;
  /** Replaces credentials; undefined to show them. */
  readonly redactor?: Redactor;
  /** Extra comment lines for the header (how to start an equivalent target). */
  readonly notes?: readonly string[];
}

/** The identity an Authorization header stands for (the email of Basic credentials). */
function whoseAuthorization(value: string): string {
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/.exec(value);
  if (!basic?.[1]) return 'the identity of the run';
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  return decoded.slice(0, Math.max(0, decoded.indexOf(':'))) || 'the identity of the run';
}

/** `"$BASE_URL"'/api/v1/...'`: the recorded URL with its base replaced by the variable. */
function urlWord(url: string, baseUrl: string): string {
  return url.startsWith(baseUrl) ? `"$BASE_URL"${shellQuote(url.slice(baseUrl.length))}` : shellQuote(url);
}

function bodyArgs(exchange: Exchange, index: number, setup: string[], text: (value: string) => string): string[] {
  if (exchange.requestBody === '') return [];
  const boundary = multipartBoundary(exchange.requestHeaders['content-type']);
  const parts = boundary === undefined ? undefined : parseMultipart(exchange.requestBody, boundary);
  if (!parts) return ['--data-binary', shellQuote(text(exchange.requestBody))];
  const args: string[] = [];
  parts.forEach((part, partIndex) => {
    if (part.filename === undefined) {
      // -F would read a value starting with @ or < from a file.
      args.push(/^[@<]/.test(part.value) ? '--form-string' : '-F', shellQuote(`${part.name}=${text(part.value)}`));
      return;
    }
    const file = `"$WORK/request${index}-file${partIndex}"`;
    setup.push(`printf '%s' ${shellQuote(text(part.value))} > ${file}`);
    const type = part.contentType ? `;type=${part.contentType}` : '';
    args.push('-F', `${shellQuote(`${part.name}=@`)}${file}${shellQuote(`;filename=${part.filename}${type}`)}`);
  });
  return args;
}

export function reproScript(rule: RuleResult, exchanges: readonly Exchange[], options: ScriptOptions): string {
  const text = (value: string) => options.redactor?.text(value) ?? value;
  const auths = new Map<string, string>();
  for (const exchange of exchanges) {
    const value = exchange.requestHeaders.authorization;
    if (value !== undefined && !auths.has(value)) auths.set(value, `AUTH_${auths.size + 1}`);
  }
  const message = rule.failure?.message.split('\n')[0] ?? '';
  const lines = [
    '#!/usr/bin/env bash',
    `# Reproduction of chat-conformance rule ${rule.id} (${rule.endpoint}, section ${rule.section}).`,
    `# The rule failed: ${text(message)}`,
    `# ${exchanges.length} request(s): the case's setup and the failing exchange last. Each answer is printed`,
    '# and its HTTP status compared with the recorded one; the exit status is 0 when every status matched',
    '# (the failure reproduces), 1 otherwise. IDs created by the setup may differ on another server.',
    ...(options.notes ?? []).map((note) => `# ${note}`),
    `# Usage: bash ${rule.id}.sh [BASE_URL]   (default ${options.baseUrl})`,
    'set -u',
    `BASE_URL=\${1:-\${BASE_URL:-${options.baseUrl}}}`,
  ];
  for (const [value, name] of auths) {
    const who = whoseAuthorization(value);
    if (options.redactor) lines.push(`${name}=\${${name}:?credentials redacted: set ${name} to the Authorization header of ${who} (Basic base64 of email:api_key), or record with --show-credentials}`);
    else lines.push(`${name}=\${${name}:-${shellQuote(value)}}  # ${who}`);
  }
  lines.push(
    'WORK=$(mktemp -d)',
    'trap \'rm -rf "$WORK"\' EXIT',
    'differs=0',
    'answer() {  # recorded status, actual status',
    '  cat "$WORK/body"; echo',
    '  if [ "$1" = "$2" ]; then echo "# HTTP $2 (as recorded)"; else echo "# HTTP $2, recorded HTTP $1"; differs=$((differs + 1)); fi',
    '}',
  );
  exchanges.forEach((exchange, i) => {
    const index = i + 1;
    const setup: string[] = [];
    const args = ['curl', '-sS', '-o', '"$WORK/body"', '-w', "'%{http_code}'"];
    if (exchange.method === 'HEAD') args.push('-I');
    else args.push('-X', exchange.method);
    args.push(urlWord(exchange.url, options.baseUrl));
    const auth = exchange.requestHeaders.authorization;
    if (auth !== undefined) args.push('-H', `"Authorization: $${auths.get(auth)}"`);
    const multipart = multipartBoundary(exchange.requestHeaders['content-type']) !== undefined;
    for (const [name, value] of Object.entries(exchange.requestHeaders)) {
      if (OMITTED_HEADERS.has(name) || (multipart && name === 'content-type')) continue;
      args.push('-H', shellQuote(`${name}: ${text(value)}`));
    }
    const body = bodyArgs(exchange, index, setup, text);
    // A body the parser could not split is sent raw, with its recorded content type.
    if (multipart && body[0] === '--data-binary') args.push('-H', shellQuote(`content-type: ${exchange.requestHeaders['content-type']}`));
    args.push(...body);
    const recorded = exchange.status === 0 ? '000' : String(exchange.status);
    const path = (() => {
      try {
        return new URL(exchange.url).pathname;
      } catch {
        return exchange.url;
      }
    })();
    lines.push('', `echo ${shellQuote(`== ${index}/${exchanges.length} ${exchange.method} ${path}`)}`, ...setup, `answer ${recorded} "$(${args.join(' ')})"`);
  });
  lines.push(
    '',
    'if [ "$differs" -eq 0 ]; then echo "# reproduced: every answer had the recorded status"; exit 0; fi',
    'echo "# not reproduced: $differs answer(s) had another status than recorded"',
    'exit 1',
    '',
  );
  return lines.join('\n');
}
