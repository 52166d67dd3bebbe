/**
 * Linkifier validation as the real server runs it: the model's full check (behaviour reference
 * §7.3). Field errors come first (`pattern`, then the template field), then the cross-field
 * checks under `__all__` (the regular expression, the group/variable sets), then uniqueness.
 * The failure is 400 BAD_REQUEST whose `msg` is the first message and whose extra `errors`
 * field maps each failing field to its messages.
 */
import { ApiError, badRequest } from '../errors.js';
import type { Linkifier } from '../entities/realm-records.js';
import { checkRe2 } from './re2-syntax.js';
import { compareCodePoints } from '../input/strings.js';
import { MAX_URL_LENGTH } from '../input/profile-field-data.js';
import { codePointLength } from '../input/topic-names.js';
import { parseUriTemplate } from './uri-template.js';
import { formatPlaceholders } from './format-strings.js';

const BLANK = 'This field cannot be blank.';
/** Django's unique-together message for (realm, pattern); the exact text is unconfirmed. */
export const DUPLICATE_PATTERN = 'Realm filter with this Realm and Pattern already exists.';

export interface LinkifierCandidate {
  /** Already stripped. */
  readonly pattern: string;
  /** Already stripped: a URL template, or (legacy) a `%(name)s` format string. */
  readonly target: string;
  /** Before FL 176 the target is a URL format string sent as `url_format_string`. */
  readonly legacyFormat: boolean;
}

/** Variables of a legacy format string: `%(name)s`, not preceded by another `%`. */
const formatVariables = (format: string): string[] => formatPlaceholders(format).map((placeholder) => placeholder.name);

/** The real server's checks of a legacy URL format string (Django's URL validator, then the shape). */
function formatStringErrors(format: string): string[] {
  const errors: string[] = [];
  const url =
    /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s:@/]*)?@)?(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]|(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+[a-z\u00a1-\uffff-]{2,63}\.?)(?::\d{1,5})?(?:[/?#]\S*)?$/i;
  if (codePointLength(format) > MAX_URL_LENGTH || !url.test(format)) errors.push('Enter a valid URL.');
  if (!/^([./:a-zA-Z0-9#_?=&;~-]+%\(([a-zA-Z0-9_-]+)\)s)+[/a-zA-Z0-9#_?=&;~-]*$/.test(format)) errors.push('Invalid URL format string.');
  return errors;
}

/** Python's `min()` over strings: code-point order, not UTF-16 unit order. */
function smallest(names: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const name of names) {
    if (best === undefined || compareCodePoints(name, best) < 0) best = name;
  }
  return best;
}

/** Python's `%r` of a plain name: single quotes (names here never contain quotes that matter). */
const pyRepr = (name: string): string => (name.includes("'") && !name.includes('"') ? `"${name}"` : `'${name.replace(/'/g, "\\'")}'`);

/** The cross-field check (`__all__`): RE2 compilation, then the group/variable sets. */
function crossFieldError(candidate: LinkifierCandidate): string | undefined {
  const regex = checkRe2(candidate.pattern);
  if (!regex.ok) return `Bad regular expression: ${regex.error}`;
  let variables: readonly string[];
  const what = candidate.legacyFormat ? 'URL format string' : 'URL template';
  if (candidate.legacyFormat) {
    variables = formatVariables(candidate.target);
  } else {
    const template = parseUriTemplate(candidate.target);
    // An invalid template is reported only by the field check, not twice.
    if (!template.ok) return undefined;
    variables = template.variableNames;
  }
  const groups = regex.groupNames;
  const missingInPattern = smallest(variables.filter((name) => !groups.has(name)));
  if (missingInPattern !== undefined) return `Group ${pyRepr(missingInPattern)} in ${what} is not present in linkifier pattern.`;
  const used = new Set(variables);
  const missingInUrl = smallest([...groups].filter((name) => !used.has(name)));
  if (missingInUrl !== undefined) return `Group ${pyRepr(missingInUrl)} in linkifier pattern is not present in ${what}.`;
  return undefined;
}

/**
 * Validates a new or changed linkifier against the realm's others (`others` excludes the one
 * being edited). Returns the error to throw, or undefined when the candidate is valid.
 */
export function linkifierError(candidate: LinkifierCandidate, others: Iterable<Linkifier>): ApiError | undefined {
  const targetField = candidate.legacyFormat ? 'url_format_string' : 'url_template';
  const errors: Array<[string, string[]]> = [];
  if (candidate.pattern === '') errors.push(['pattern', [BLANK]]);
  if (candidate.target === '') errors.push([targetField, [BLANK]]);
  else if (candidate.legacyFormat) {
    const formatErrors = formatStringErrors(candidate.target);
    if (formatErrors.length > 0) errors.push([targetField, formatErrors]);
  } else if (!parseUriTemplate(candidate.target).ok) errors.push([targetField, ['Invalid URL template.']]);
  const general: string[] = [];
  const cross = crossFieldError(candidate);
  if (cross !== undefined) general.push(cross);
  // Uniqueness is checked only when the pattern field itself passed.
  if (candidate.pattern !== '' && [...others].some((other) => other.pattern === candidate.pattern)) general.push(DUPLICATE_PATTERN);
  if (general.length > 0) errors.push(['__all__', general]);
  const first = errors[0]?.[1][0];
  if (first === undefined) return undefined;
  return badRequest(first, { errors: Object.fromEntries(errors) });
}
