/**
 * The real server's `sanitize_url`, on the URL splitting it relies on (Python's `urlsplit` and
 * `urlunsplit`): spaces become `%20`; a URL without scheme and host is a `mailto:` address when
 * its path has an `@`, kept as it is when it is a path (`/...`) or a fragment (`#...`), and
 * otherwise gets `http://`; a scheme outside the allowed list makes the URL text.
 */

/** The schemes the real server's `sanitize_url` lets through. */
const ALLOWED_SCHEMES = new Set(
  'http https ftp file bitcoin geo im irc ircs magnet mailto matrix mms news nntp openpgp4fpr sip sms smsto ssh tel urn webcal wtai xmpp'.split(' '),
);

/** Schemes whose URLs keep `//` before an empty host when joined again (Python's `uses_netloc`). */
const USES_NETLOC = new Set(
  'ftp http gopher nntp telnet imap wais file mms https shttp snews prospero rtsp rtsps rtspu rsync svn svn+ssh sftp nfs git git+ssh ws wss itms-services'.split(' '),
);

const SCHEME_CHARACTERS = /^[A-Za-z][A-Za-z0-9+.-]*$/;

interface SplitUrl {
  readonly scheme: string;
  readonly netloc: string;
  readonly path: string;
  readonly query: string;
  readonly fragment: string;
}

function splitUrl(input: string): SplitUrl {
  let rest = input.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\r\n]/g, '');
  let scheme = '';
  const colon = rest.indexOf(':');
  if (colon > 0 && SCHEME_CHARACTERS.test(rest.slice(0, colon))) {
    scheme = rest.slice(0, colon).toLowerCase();
    rest = rest.slice(colon + 1);
  }
  let netloc = '';
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    netloc = end < 0 ? rest.slice(2) : rest.slice(2, end + 2);
    rest = end < 0 ? '' : rest.slice(end + 2);
  }
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) [rest, fragment] = [rest.slice(0, hash), rest.slice(hash + 1)];
  let query = '';
  const question = rest.indexOf('?');
  if (question >= 0) [rest, query] = [rest.slice(0, question), rest.slice(question + 1)];
  return { scheme, netloc, path: rest, query, fragment };
}

function joinUrl({ scheme, netloc, path, query, fragment }: SplitUrl): string {
  let url = path;
  if (netloc !== '' || (scheme !== '' && USES_NETLOC.has(scheme) && !url.startsWith('//'))) {
    if (url !== '' && !url.startsWith('/')) url = `/${url}`;
    url = `//${netloc}${url}`;
  }
  if (scheme !== '') url = `${scheme}:${url}`;
  if (query !== '') url = `${url}?${query}`;
  if (fragment !== '') url = `${url}#${fragment}`;
  return url;
}

/** The href the real server writes for a URL, or undefined when it renders the URL as text. */
export function sanitizeUrl(url: string, schemeAdded = false): string | undefined {
  const parts = splitUrl(url.replace(/ /g, '%20'));
  let scheme = parts.scheme;
  const local = scheme === '' && parts.netloc === '';
  if (local && parts.path.includes('@')) scheme = 'mailto';
  else if (local && parts.path.startsWith('/')) return joinUrl({ ...parts, scheme: '' });
  else if (local && parts.path === '' && parts.query === '' && parts.fragment !== '') return `#${parts.fragment}`;
  if (scheme === '') return schemeAdded ? undefined : sanitizeUrl(`http://${url}`, true);
  if (!ALLOWED_SCHEMES.has(scheme)) return undefined;
  return joinUrl({ ...parts, scheme });
}

/** Links to the realm's own `#...` views and uploads become relative, as the real server writes them. */
export function relativeToRealm(href: string, realmUrl: string | undefined): string {
  if (realmUrl === undefined) return href;
  const prefix = `${realmUrl.replace(/\/$/, '')}/`;
  return href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`) ? href.slice(prefix.length) : href;
}
