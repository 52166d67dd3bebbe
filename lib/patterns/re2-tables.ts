/** RE2's error texts and name tables, for the syntax checker in lib/patterns/re2-syntax.ts. */

/** RE2's `RegexpStatus` code texts (re2/regexp.cc `kErrorStrings`). */
const CODE_TEXTS = {
  badEscape: 'invalid escape sequence',
  badCharClass: 'invalid character class',
  badCharRange: 'invalid character class range',
  missingBracket: 'missing ]',
  missingParen: 'missing )',
  unexpectedParen: 'unexpected )',
  trailingBackslash: 'trailing \\',
  repeatArgument: 'no argument for repetition operator',
  repeatSize: 'invalid repetition size',
  repeatOp: 'bad repetition operator',
  badPerlOp: 'invalid perl operator',
  badUtf8: 'invalid UTF-8',
  badNamedCapture: 'invalid named capture group',
} as const;

export type Re2ErrorCode = keyof typeof CODE_TEXTS;

/** `RegexpStatus::Text()`: the code text, then `: <argument>` when there is one. */
export function errorText(code: Re2ErrorCode, arg = ''): string {
  return arg === '' ? CODE_TEXTS[code] : `${CODE_TEXTS[code]}: ${arg}`;
}

/** `\d \s \w` and their negations. */
export const PERL_CLASS_LETTERS = 'dDsSwW';

const POSIX_NAMES = new Set(['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit']);

/** `[:alpha:]` or `[:^alpha:]`, brackets included. */
export function isPosixClass(text: string): boolean {
  const name = text.slice(2, -2);
  return POSIX_NAMES.has(name.startsWith('^') ? name.slice(1) : name);
}

/** The general categories RE2's Unicode tables carry (no `Cn`, no `LC`, no long names). */
const CATEGORIES = new Set(
  'C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '),
);

/** Script names of four letters that are long names, not ISO 15924 codes. */
const FOUR_LETTER_SCRIPTS = new Set(['Cham', 'Kawi', 'Lisu', 'Modi', 'Newa', 'Thai', 'Toto']);

/** Script names already looked up (the Unicode data is fixed for the process). */
const scripts = new Map<string, boolean>();

/**
 * Whether `\p{name}` exists in RE2: `Any`, a general category, or a script by its long name
 * (`Greek`, `Han`, `Old_Italic`). Scripts are checked against the JavaScript engine's Unicode
 * data, which knows the same long names; ISO codes such as `Grek` are refused as RE2 does.
 */
export function isUnicodeGroup(name: string): boolean {
  if (name === 'Any' || CATEGORIES.has(name)) return true;
  if (!/^[A-Z][A-Za-z_]*$/.test(name) || name === 'Unknown') return false;
  if (/^[A-Z][a-z]{3}$/.test(name) && !FOUR_LETTER_SCRIPTS.has(name)) return false;
  let known = scripts.get(name);
  if (known === undefined) {
    try {
      new RegExp(`\\p{Script=${name}}`, 'u');
      known = true;
    } catch {
      known = false;
    }
    if (scripts.size < 1000) scripts.set(name, known);
  }
  return known;
}


/**
 * A capture name: word characters (letters, marks, digits, connector punctuation), first
 * character unrestricted, as in current RE2 (older RE2 allowed only `[A-Za-z0-9_]`, a subset).
 */
export function isValidCaptureName(name: string): boolean {
  return /^[\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]+$/u.test(name);
}
