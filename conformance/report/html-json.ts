/**
 * JSON pretty-printed as HTML for the report, with one field highlighted (the place a failing
 * check found wrong) or a missing key shown where it should be; in a long body, large parts off
 * the highlighted path are folded to their size. Every key and value is escaped.
 */
import { parsePath } from '../expect/recorded-check.js';

export function htmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface Highlight {
  /** Steps to the highlighted value (`[]`: the whole body). */
  readonly steps: ReadonlyArray<string | number>;
  /** A key missing from the object at `steps`, shown as a highlighted line of its own. */
  readonly missing?: string;
}

/** Bodies longer than this are shown as (cut) text, not pretty-printed. */
const MAX_PRETTY_CHARS = 200_000;
/**
 * In bodies longer than this, arrays and objects off the highlighted path whose JSON is longer
 * than `ELIDED_CHARS` are shown as `[... 40 items]` (the JSON report and the HAR keep them whole).
 */
const ELIDE_ABOVE_CHARS = 8_000;
const ELIDED_CHARS = 300;

/** The highlight for a recorded path (`.a[2]`), and for a missing key its last step apart. */
export function highlightAt(path: string, missing: boolean): Highlight | undefined {
  const steps = parsePath(path);
  if (!steps) return undefined;
  const last = steps.at(-1);
  if (missing && typeof last === 'string') return { steps: steps.slice(0, -1), missing: last };
  return { steps };
}

function sameSteps(a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>): boolean {
  return a.length === b.length && a.every((step, i) => step === b[i]);
}

function scalar(value: unknown): string {
  const kind = value === null ? 'null' : typeof value;
  return `<span class="j-${kind}">${htmlEscape(JSON.stringify(value) ?? 'undefined')}</span>`;
}

/** Whether `steps` lead towards (or to) the highlighted value. */
function onPath(steps: ReadonlyArray<string | number>, highlight: Highlight | undefined): boolean {
  return highlight !== undefined && steps.length <= highlight.steps.length && steps.every((step, i) => step === highlight.steps[i]);
}

function elided(value: object): string | undefined {
  if (JSON.stringify(value).length <= ELIDED_CHARS) return undefined;
  const size = Array.isArray(value) ? `[... ${value.length} items]` : `{... ${Object.keys(value).length} keys}`;
  return `<span class="j-elided">${size}</span>`;
}

function render(value: unknown, indent: string, steps: Array<string | number>, highlight: Highlight | undefined, elide: boolean): string {
  const here = highlight !== undefined && sameSteps(steps, highlight.steps);
  const inner = `${indent}  `;
  const short = elide && steps.length > 0 && value !== null && typeof value === 'object' && !onPath(steps, highlight) ? elided(value) : undefined;
  if (short !== undefined) return short;
  let text: string;
  if (Array.isArray(value)) {
    const items = value.map((item, i) => `${inner}${render(item, inner, [...steps, i], highlight, elide)}`);
    text = items.length === 0 ? '[]' : `[\n${items.join(',\n')}\n${indent}]`;
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${inner}<span class="j-key">${htmlEscape(JSON.stringify(key))}</span>: ${render(item, inner, [...steps, key], highlight, elide)}`);
    if (here && highlight.missing !== undefined) entries.push(`${inner}<mark class="diff missing">${htmlEscape(JSON.stringify(highlight.missing))}: (missing)</mark>`);
    text = entries.length === 0 ? '{}' : `{\n${entries.join(',\n')}\n${indent}}`;
  } else {
    text = scalar(value);
  }
  return here && highlight.missing === undefined ? `<mark class="diff">${text}</mark>` : text;
}

/** The body text pretty-printed when it is JSON (with the highlight), else escaped as it is. */
export function bodyHtml(text: string, highlight?: Highlight): string {
  if (text.length > MAX_PRETTY_CHARS) return `${htmlEscape(text.slice(0, MAX_PRETTY_CHARS))}\n... (${text.length - MAX_PRETTY_CHARS} more characters)`;
  try {
    return render(JSON.parse(text) as unknown, '', [], highlight, text.length > ELIDE_ABOVE_CHARS);
  } catch {
    return htmlEscape(text);
  }
}
