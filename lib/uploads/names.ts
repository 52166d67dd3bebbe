/**
 * File names of uploads, as the real server derives them: the multipart layer's cleaning of the
 * client's name, the stored name (URL-unquoted, NUL bytes removed: the `filename` of the upload
 * response and the `name` of the attachment), and the sanitized last path component.
 */
import { randomBytes } from 'node:crypto';

/** Most filesystems limit a path component to 255 bytes; the sanitized name is cut to fit. */
const MAX_FILE_NAME_BYTES = 255;

/**
 * The multipart parser's view of a part's file name: the last path component, without
 * non-printable characters. Undefined when nothing usable is left (`""`, `.`, `..`): such a
 * part is not a file at all.
 */
export function cleanUploadName(raw: string): string | undefined {
  const base = raw.split('/').pop()?.split('\\').pop() ?? '';
  // Python's str.isprintable(): no control, format, private-use, unassigned or separator characters except the space.
  const printable = [...base].filter((c) => c === ' ' || !/[\p{C}\p{Z}]/u.test(c)).join('');
  return printable === '' || printable === '.' || printable === '..' ? undefined : printable;
}

/** Python's `urllib.parse.unquote`: `%XX` runs decoded as UTF-8 with replacement characters. */
export function unquote(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = Buffer.from(run.replace(/%/g, ''), 'hex');
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  });
}

/** The name the upload is recorded under (and returned as `filename`). */
export const storedFileName = (cleaned: string): string => unquote(cleaned).replace(/\0/g, '');

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Python's `os.path.splitext`: the extension starts at the last dot that is not leading. */
function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || /^\.+$/.test(name.slice(0, dot + 1))) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/** Cuts a name to at most `max` UTF-8 bytes, keeping its extension when that leaves room. */
function truncateFileName(name: string, max: number): string {
  if (utf8Length(name) <= max) return name;
  let [stem, extension] = splitExtension(name);
  if (utf8Length(extension) >= max) [stem, extension] = [name, ''];
  const budget = max - utf8Length(extension);
  let cut = '';
  let bytes = 0;
  for (const c of stem) {
    bytes += utf8Length(c);
    if (bytes > budget) break;
    cut += c;
  }
  return cut + extension;
}

/**
 * The sanitized name used as the last component of the upload's path: NFKC-normalized, only
 * word characters, whitespace, `.` and `-` kept, runs of whitespace and dashes turned into one
 * `-`, cut to 255 bytes; `uploaded-file` when nothing usable is left.
 */
export function sanitizeName(value: string): string {
  let name = value.normalize('NFKC').replace(/[^\p{L}\p{N}_\s.-]/gu, '').trim();
  name = name.replace(/[-\s]+/g, '-');
  name = truncateFileName(name, MAX_FILE_NAME_BYTES);
  return name === '' || name === '.' || name === '..' ? 'uploaded-file' : name;
}

/** `<realm_id>/<2 hex chars>/<24 URL-safe random chars>/<sanitized name>`. */
export function newPathId(realmId: number, fileName: string): string {
  return [String(realmId), randomBytes(1).toString('hex'), randomBytes(18).toString('base64url'), sanitizeName(fileName)].join('/');
}
