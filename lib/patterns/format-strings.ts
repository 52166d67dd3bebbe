/**
 * The `%(name)s` placeholders of a legacy linkifier URL format string, as the real server's
 * pattern `(?<!%)%\(([^()]+)\)s` finds them (one not preceded by `%`, a name without parentheses),
 * found in one left-to-right pass: every scan of a name stops at the next parenthesis, so no
 * character is read more than twice however the string is built.
 */

export interface FormatPlaceholder {
  /** Where `%(` starts. */
  readonly start: number;
  /** Just after the closing `)s`. */
  readonly end: number;
  readonly name: string;
}

export function formatPlaceholders(format: string): FormatPlaceholder[] {
  const found: FormatPlaceholder[] = [];
  let from = 0;
  for (;;) {
    const start = format.indexOf('%(', from);
    if (start === -1) return found;
    let close = start + 2;
    while (close < format.length && format[close] !== '(' && format[close] !== ')') close++;
    const matches = format[start - 1] !== '%' && close > start + 2 && format[close] === ')' && format[close + 1] === 's';
    if (matches) found.push({ start, end: close + 2, name: format.slice(start + 2, close) });
    from = matches ? close + 2 : start + 1;
  }
}

/** `%(name)s` to `{name}`: how a legacy format string is stored. */
export function formatToTemplate(format: string): string {
  let template = '';
  let copied = 0;
  for (const { start, end, name } of formatPlaceholders(format)) {
    template += `${format.slice(copied, start)}{${name}}`;
    copied = end;
  }
  return template + format.slice(copied);
}
