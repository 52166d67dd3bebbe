/**
 * Domain names as the real server's `validate_domain` (zerver/lib/domains.py) takes them: the
 * first failing check gives the error, in its order. A label may end with one newline because
 * the real pattern's `$` also matches before a final newline.
 */

/** `validate_domain`'s own limit; the real column holds only `MAX_STORED_DOMAIN_LENGTH`. */
const MAX_DOMAIN_LENGTH = 255;
/** `RealmDomain.domain` is a column of 80 characters: a longer domain cannot be stored. */
export const MAX_STORED_DOMAIN_LENGTH = 80;
const LABEL = /^[a-z0-9-]*\n?$/;

/** Length in code points, as the real server's `len` counts. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** The reason `domain` is refused (without the `Invalid domain: ` prefix), or undefined. */
export function domainError(domain: string): string | undefined {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  const length = codePoints(domain);
  if (length > MAX_DOMAIN_LENGTH) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!LABEL.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  // Valid for the real server's check, but too long for its column (there a database error).
  if (length > MAX_STORED_DOMAIN_LENGTH) return 'Domain is too long';
  return undefined;
}
