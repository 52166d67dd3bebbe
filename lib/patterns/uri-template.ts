/**
 * RFC 6570 URL-template syntax, as the real server validates linkifier templates (the Python
 * `uri_template` package: behaviour reference §7.3). A template does not have to look like a
 * URL (`$fgfg` is valid); what matters is that every `{...}` expression parses. Accepted
 * beyond the RFC, as that package does: the `{,x}` / `{,+x}` partial-expansion operators, a
 * trailing joiner (`{/x/}`), `name/key` variables, `[]` array and `=default` suffixes.
 */

export type TemplateResult = { readonly ok: true; readonly variableNames: readonly string[] } | { readonly ok: false };

const VAR_START = /^[A-Za-z0-9_]$/;
const VAR_CHAR = /^[A-Za-z0-9_.]$/;
const HEX = /^[0-9A-Fa-f]$/;
/** Operators whose expressions start after one character (`{+x}`); `,+` takes two. */
const OPERATORS = '+#./;?&,';
const RESERVED_OPERATORS = '=!@|';
const TRAILING_JOINERS = ',./;&';

class Invalid extends Error {}

/** A variable specification such as `x`, `x*`, `x:5`, `x[]`, `x=default`; returns its name. */
function variableName(spec: string): string {
  // The package indexes spec[-1] here: an empty spec raises, making the template invalid.
  if (spec === '') throw new Invalid();
  if (!VAR_START.test(spec[0] as string)) throw new Invalid();
  let body = spec;
  const equals = body.indexOf('=');
  if (equals >= 0) body = body.slice(0, equals);
  const colon = body.indexOf(':');
  if (colon >= 0) {
    const maxLength = body.slice(colon + 1);
    body = body.slice(0, colon);
    if (!/^[0-9]{1,3}$/.test(maxLength) || Number(maxLength) === 0) throw new Invalid();
  } else if (body.endsWith('*')) {
    body = body.slice(0, -1);
  } else if (body.endsWith('[]')) {
    body = body.slice(0, -2);
  }
  let key = '';
  let name = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '%' && i + 2 < body.length && HEX.test(body[i + 1] as string) && HEX.test(body[i + 2] as string)) {
      key += body.slice(i, i + 3);
      i += 2;
    } else if (VAR_CHAR.test(c)) {
      key += c;
    } else if (c === '/') {
      name = key;
      key = '';
    } else {
      throw new Invalid();
    }
  }
  return name || key;
}

/** The variable names of one `{...}` expression (braces included). */
function expressionNames(part: string): string[] {
  const expression = part.slice(1, -1);
  let variables: string;
  if (/^([A-Za-z0-9_]|%[0-9A-Fa-f]{2})/.test(expression)) variables = expression;
  else if (expression.startsWith(',+')) variables = expression.slice(2);
  else if (expression !== '' && OPERATORS.includes(expression[0] as string)) variables = expression.slice(1);
  else if (expression !== '' && RESERVED_OPERATORS.includes(expression[0] as string)) throw new Invalid();
  else throw new Invalid();
  if (variables !== '' && TRAILING_JOINERS.includes(variables[variables.length - 1] as string)) variables = variables.slice(0, -1);
  return variables.split(',').map(variableName);
}

/** Parses `template`; on success returns its variable names in order of first use. */
export function parseUriTemplate(template: string): TemplateResult {
  try {
    const names = new Set<string>();
    // Literal runs and `{...}` expressions (an expression is a `{` up to the next `}`); a brace
    // left in a literal run makes the template invalid. Scanned in one pass, never backtracking.
    let pos = 0;
    while (pos < template.length) {
      const open = template.indexOf('{', pos);
      const literal = template.slice(pos, open < 0 ? undefined : open);
      if (literal.includes('}')) throw new Invalid();
      if (open < 0) break;
      const close = template.indexOf('}', open);
      if (close < 0) throw new Invalid();
      for (const name of expressionNames(template.slice(open, close + 1))) names.add(name);
      pos = close + 1;
    }
    return { ok: true, variableNames: [...names] };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false };
    throw error;
  }
}
