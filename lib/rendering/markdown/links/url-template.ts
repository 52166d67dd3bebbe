/**
 * RFC 6570 expansion of linkifier URL templates (levels 1 to 3: simple, `+`, `#`, `.`, `/`,
 * `;`, `?` and `&` expressions). Variables that did not take part in the match are undefined
 * and expand to nothing, as in the real server's `uri_template` package.
 */

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function encode(value: string, allowReserved: boolean): string {
  let out = '';
  for (const char of value) {
    if (UNRESERVED.test(char) || (allowReserved && RESERVED.test(char))) out += char;
    else for (const byte of new TextEncoder().encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

interface Operator {
  readonly first: string;
  readonly separator: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  readonly allowReserved: boolean;
}

const OPERATORS = new Map<string, Operator>([
  ['', { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: false }],
  ['+', { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: true }],
  ['#', { first: '#', separator: ',', named: false, ifEmpty: '', allowReserved: true }],
  ['.', { first: '.', separator: '.', named: false, ifEmpty: '', allowReserved: false }],
  ['/', { first: '/', separator: '/', named: false, ifEmpty: '', allowReserved: false }],
  [';', { first: ';', separator: ';', named: true, ifEmpty: '', allowReserved: false }],
  ['?', { first: '?', separator: '&', named: true, ifEmpty: '=', allowReserved: false }],
  ['&', { first: '&', separator: '&', named: true, ifEmpty: '=', allowReserved: false }],
]);

function expandExpression(expression: string, variables: ReadonlyMap<string, string>): string {
  const first = expression[0] ?? '';
  const operatorChar = first !== '' && OPERATORS.has(first) ? first : '';
  const operator = OPERATORS.get(operatorChar) as Operator;
  const parts: string[] = [];
  for (const spec of expression.slice(operatorChar.length).split(',')) {
    const [rawName, maxLength] = spec.replace(/\*$/, '').split(':');
    const name = rawName ?? '';
    const value = variables.get(name);
    if (value === undefined) continue;
    const cut = maxLength === undefined ? value : [...value].slice(0, Number(maxLength)).join('');
    const encoded = encode(cut, operator.allowReserved);
    if (!operator.named) parts.push(encoded);
    else parts.push(encoded === '' ? `${name}${operator.ifEmpty}` : `${name}=${encoded}`);
  }
  return parts.length === 0 ? '' : operator.first + parts.join(operator.separator);
}

/** Expands every `{...}` expression of `template` with `variables`. */
export function expandUrlTemplate(template: string, variables: ReadonlyMap<string, string>): string {
  return template.replace(/\{([^{}]*)\}/g, (_, expression: string) => expandExpression(expression, variables));
}
