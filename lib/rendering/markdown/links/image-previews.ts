/**
 * What the real server's `message_inline_image` previews show for a link: which links are images
 * (a path ending in an image extension), the image URL behind a GitHub `blob` page or a Wikipedia
 * `File:` page, and the thumbnail URLs of the real server's test cases (`/thumbnail?url=...`
 * for external images and uploads; other local images are shown as they are).
 */

const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];

/** Python's URL parts, enough to look at a link's host and path. */
function hostAndPath(url: string): { host: string; path: string; scheme: string } {
  const match = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)/.exec(url);
  return { scheme: match?.[1] ?? '', host: match?.[2] ?? '', path: match?.[3] ?? '' };
}

/** Whether the real server previews the link as an image. */
export function isImageLink(url: string): boolean {
  const { host, path } = hostAndPath(url);
  if (host === 'pasteboard.co') return false;
  const lower = path.toLowerCase();
  return IMAGE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/** The link shown instead of a Wikipedia `File:` page or a linx.li page, if any. */
export function correctedImageLink(url: string): string | undefined {
  const { host, path } = hostAndPath(url);
  if (host.toLowerCase().endsWith('.wikipedia.org') && path.startsWith('/wiki/File:')) {
    return url.replace('/wiki/File:', '/wiki/Special:FilePath/File:');
  }
  if (host === 'linx.li') return `https://linx.li/s${path}`;
  return undefined;
}

/** The image behind a GitHub `blob` page (its raw file); other URLs are their own image. */
export function actualImageUrl(url: string): string {
  const { host, path } = hostAndPath(url);
  if (host !== 'github.com' && !host.endsWith('.github.com')) return url;
  const segments = path.split('/');
  if (segments.length <= 3 || segments[3] !== 'blob') return url;
  return `https://raw.githubusercontent.com${[...segments.slice(0, 3), ...segments.slice(4)].join('/')}`;
}

/** Python's `quote_plus`: UTF-8 percent-encoding with `+` for spaces. */
function quotePlus(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${(c.charCodeAt(0) as number).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** The `src` and `data-src-fullsize` of a preview's image. */
export function previewSources(imageUrl: string): { src: string; fullsize?: string } {
  const external = hostAndPath(imageUrl).scheme !== '';
  if (!external && !imageUrl.startsWith('/user_uploads/')) return { src: imageUrl };
  const url = quotePlus(imageUrl.replace(/^\/+/, ''));
  return { src: `/thumbnail?url=${url}&size=thumbnail`, fullsize: `/thumbnail?url=${url}&size=full` };
}
