/** Renders recorded exchanges as `curl` commands a person can paste into a POSIX shell. */
import type { Exchange } from './exchange.js';

/** Header names curl sets by itself or that would confuse a replay. */
const OMITTED_HEADERS = new Set(['host', 'content-length', 'connection', 'user-agent', 'authorization']);

/** Quotes for a POSIX shell: plain single quotes, or `$'...'` when control characters occur. */
export function shellQuote(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001f\u007f]/.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  let out = "$'";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\' || char === "'") out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return `${out}'`;
}

/** `email:key` when the Authorization header is plain Basic credentials curl's `-u` can express. */
function basicUser(header: string): string | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  if (Buffer.from(decoded, 'utf8').toString('base64') !== match[1]) return undefined;
  return decoded.split(':').length === 2 ? decoded : undefined;
}

/** One exchange as a curl command (without the answer). */
export function toCurl(exchange: Exchange): string {
  const parts = ['curl', '-sS', '-i'];
  if (exchange.method === 'HEAD') parts.push('-I');
  else if (exchange.method !== 'GET' || exchange.requestBody !== '') parts.push('-X', exchange.method);
  parts.push(shellQuote(exchange.url));
  const authorization = exchange.requestHeaders.authorization;
  if (authorization !== undefined) {
    const user = basicUser(authorization);
    if (user !== undefined) parts.push('-u', shellQuote(user));
    else parts.push('-H', shellQuote(`Authorization: ${authorization}`));
  }
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (!OMITTED_HEADERS.has(name)) parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (exchange.requestBody !== '') parts.push('--data-binary', shellQuote(exchange.requestBody));
  return parts.join(' ');
}

/** A short view of the answer, for a comment line under the command. */
export function summarizeAnswer(exchange: Exchange, maxBody = 2000): string {
  if (exchange.error !== undefined) return `no answer: ${exchange.error}`;
  const body = exchange.responseBody.trimEnd();
  const shown = body.length > maxBody ? `${body.slice(0, maxBody)}... (${body.length} chars)` : body;
  return `HTTP ${exchange.status}${shown === '' ? ' (empty body)' : ` ${shown}`}`;
}

/** Command plus `# -> answer` line, for reports. */
export function exchangeToText(exchange: Exchange): string {
  return `${toCurl(exchange)}\n# -> ${summarizeAnswer(exchange).replace(/\n/g, '\n#    ')}`;
}
