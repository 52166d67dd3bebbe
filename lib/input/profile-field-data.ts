/**
 * `field_data` of custom profile fields: the parameter's shape (an object whose values are
 * strings or objects of strings), the per-type rules of list (SELECT) and external account
 * fields, and its stored JSON text. Objects are Maps, so choice keys such as `__proto__` are data.
 * Error texts are the real server's validators'.
 */
import { badRequest } from '../errors.js';
import { type JsonValue, parseJson } from './json.js';
import { schema } from './schema.js';
import { codePointLength } from './topic-names.js';
import { MAX_LIST_ITEMS, tooManyItems } from './limits.js';

export type ProfileFieldData = ReadonlyMap<string, string | ReadonlyMap<string, string>>;

/** The default external account providers: subtype to the field's name and hint. */
export const DEFAULT_EXTERNAL_ACCOUNTS: ReadonlyMap<string, { readonly name: string; readonly hint: string }> = new Map([
  ['twitter', { name: 'Twitter username', hint: '' }],
  ['github', { name: 'GitHub username', hint: '' }],
]);

const notAllowed = (path: string) => badRequest(`${path} contains a value that is not an allowed_type`);

/** `check_profile_field_data`: a dict whose values are strings or dicts of strings. */
export const profileFieldDataSchema = schema<ProfileFieldData>((value, path) => {
  if (!(value instanceof Map)) throw badRequest(`${path} is not a dict`);
  if (value.size > MAX_LIST_ITEMS) throw tooManyItems(path, MAX_LIST_ITEMS);
  const out = new Map<string, string | Map<string, string>>();
  for (const [key, item] of value) {
    if (typeof item === 'string') {
      out.set(key, item);
      continue;
    }
    if (!(item instanceof Map)) throw notAllowed(path);
    const inner = new Map<string, string>();
    for (const [innerKey, innerValue] of item as Map<string, JsonValue>) {
      if (typeof innerValue !== 'string') throw notAllowed(path);
      inner.set(innerKey, innerValue);
    }
    out.set(key, inner);
  }
  return out;
});

/** `check_required_string` inside `field_data`. */
function requiredString(data: ReadonlyMap<string, string | ReadonlyMap<string, string>>, key: string, where: string): string {
  const value = data.get(key);
  if (value === undefined) throw badRequest(`${key} key is missing from ${where}`);
  if (typeof value !== 'string') throw badRequest(`${where}["${key}"] is not a string`);
  if (value.trim() === '') throw badRequest(`${where}["${key}"] cannot be blank.`);
  return value;
}

function onlyKeys(data: ReadonlyMap<string, unknown>, allowed: readonly string[]): void {
  const extra = [...data.keys()].filter((key) => !allowed.includes(key));
  if (extra.length > 0) throw badRequest(`Unexpected arguments: ${extra.join(', ')}`);
}

/** List fields: at least one choice, each `{text, order}` with non-blank strings, texts distinct. */
function checkSelectData(data: ProfileFieldData): void {
  if (data.size < 1) throw badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, choice] of data) {
    if (key.trim() === '') throw badRequest("'value' cannot be blank.");
    if (typeof choice === 'string') throw badRequest('field_data is not a dict');
    const text = requiredString(choice, 'text', 'field_data');
    requiredString(choice, 'order', 'field_data');
    onlyKeys(choice, ['text', 'order']);
    texts.add(text);
  }
  if (texts.size !== data.size) throw badRequest('Field must not have duplicate choices.');
}

/**
 * A URL as the real server's `check_url` (Django's `URLValidator`) accepts it: http(s) or
 * ftp(s), a host name with a top-level domain, `localhost` or an IP address, an optional port.
 */
const URL_PATTERN =
  /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s:@/]*)?@)?(?:localhost|(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+[a-z\u00a1-\uffff-]{2,63}\.?|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/**
 * Django's `URLValidator.max_length`, checked before the pattern as Django does: the pattern is
 * quadratic on some inputs, so its input must stay short.
 */
export const MAX_URL_LENGTH = 2048;

export const isUrl = (text: string): boolean => codePointLength(text) <= MAX_URL_LENGTH && URL_PATTERN.test(text);

/** External account fields: a known `subtype`, or `custom` with a `url_pattern` holding one `%(username)s`. */
function checkExternalAccountData(data: ProfileFieldData): void {
  const subtype = requiredString(data, 'subtype', 'field_data');
  const pattern = data.get('url_pattern');
  if (pattern !== undefined) {
    if (typeof pattern !== 'string') throw badRequest('field_data["url_pattern"] is not a string');
    if (pattern.split('%(username)s').length !== 2) throw badRequest("URL pattern must contain '%(username)s'.");
    if (!isUrl(pattern.replace('%(username)s', 'username'))) throw badRequest('field_data["url_pattern"] is not a URL');
  }
  onlyKeys(data, ['subtype', 'url_pattern']);
  if (DEFAULT_EXTERNAL_ACCOUNTS.has(subtype)) return;
  if (subtype !== 'custom') throw badRequest('Invalid external account type');
  if (pattern === undefined) throw badRequest('Custom external account must define URL pattern');
}

/** `validate_custom_field_data`: only list and external account fields have rules. */
export function checkFieldData(type: number, data: ProfileFieldData): void {
  if (type === 3) checkSelectData(data);
  else if (type === 7) checkExternalAccountData(data);
}

/** Whether this is one of the default external account providers (name and hint come from it). */
export function defaultExternalSubtype(type: number, data: ProfileFieldData): string | undefined {
  if (type !== 7) return undefined;
  const subtype = data.get('subtype');
  return typeof subtype === 'string' && DEFAULT_EXTERNAL_ACCOUNTS.has(subtype) ? subtype : undefined;
}

/** The stored text: compact JSON in the client's key order, as the real server's `orjson.dumps`. */
export function fieldDataJson(data: ProfileFieldData): string {
  const entry = (key: string, value: string | ReadonlyMap<string, string>): string =>
    `${JSON.stringify(key)}:${typeof value === 'string' ? JSON.stringify(value) : fieldDataJson(value)}`;
  return `{${[...data].map(([key, value]) => entry(key, value)).join(',')}}`;
}

/** Parses stored text back (for comparisons and the choices kept on update). */
export function parseFieldData(text: string | undefined): ProfileFieldData {
  if (text === undefined || text === '') return new Map();
  return profileFieldDataSchema.parse(parseJson(text), 'field_data');
}

/** Dict equality regardless of key order (Python's `==` on the decoded values). */
export function sameFieldData(a: ProfileFieldData, b: ProfileFieldData): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) {
    const other = b.get(key);
    if (other === undefined) return false;
    if (typeof value === 'string' || typeof other === 'string') {
      if (value !== other) return false;
    } else if (!sameFieldData(value, other)) return false;
  }
  return true;
}
