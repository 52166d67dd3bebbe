/**
 * The file-serving URLs outside `/api/v1`, as the real server answers them:
 * `/user_uploads/<realm_id>/<path>` (the bytes, for the uploader and users who can read a
 * message linking the file; spectators for web-public ones) and
 * `/user_uploads/temporary/<token>/<file name>` (no authentication; a token from the API lasts
 * 60 seconds). The real server authenticates the first form with the browser session; there
 * are no sessions here, so HTTP Basic with the API key is accepted instead (absent, the
 * request is a spectator's).
 */
import { badRequest } from '../../lib/errors.js';
import type { Attachment } from '../../lib/entities/realm-records.js';
import { attachmentByPath, uploadAccess } from '../../lib/queries/personal/upload-access.js';
import { pathOfUploadToken } from '../../lib/uploads/tokens.js';
import type { World } from '../../lib/state/world.js';
import { authenticate } from './auth.js';
import type { ApiRequest, ApiResponse } from './request.js';
import { errorResponse, methodNotAllowed } from './respond.js';

export const UPLOADS_PREFIX = '/user_uploads/';

/** Types a browser may show in place; anything else is sent as a download (the real server's `INLINE_MIME_TYPES`). */
const INLINE_TYPES = new Set([
  'application/pdf', 'audio/aac', 'audio/flac', 'audio/mp4', 'audio/mpeg', 'audio/wav', 'audio/webm',
  'image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp', 'text/plain', 'video/mp4', 'video/webm',
]);

/** The real server's HTML error pages for this view, which vary by `Accept`. */
const html = (status: number, text: string): ApiResponse => ({
  status,
  headers: { 'Content-Type': 'text/html; charset=utf-8', Vary: 'Accept' },
  body: `<p>${text}</p>`,
});

/** RFC 6266 / RFC 8187, as Django's `content_disposition_header` writes it. */
export function contentDisposition(download: boolean, fileName: string): string {
  const kind = download ? 'attachment' : 'inline';
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(fileName)) return `${kind}; filename="${fileName.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return `${kind}; filename*=utf-8''${encodeURIComponent(fileName).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** The stored bytes with their type; non-inline types as downloads. */
export function fileResponse(attachment: Attachment): ApiResponse {
  const type = attachment.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return {
    status: 200,
    headers: {
      'Content-Type': attachment.contentType || 'application/octet-stream',
      'Content-Disposition': contentDisposition(!INLINE_TYPES.has(type), attachment.name),
      'Cache-Control': 'private, immutable',
    },
    body: '',
    bytes: attachment.bytes,
  };
}

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function serveTemporary(world: World, rest: string): ApiResponse {
  const [token = '', ...nameParts] = rest.split('/');
  const pathId = pathOfUploadToken(world, token);
  if (pathId === undefined) return errorResponse(badRequest('Invalid token'));
  if (pathId.split('/').pop() !== decode(nameParts.join('/'))) return errorResponse(badRequest('Invalid filename'));
  const attachment = attachmentByPath(world, pathId);
  return attachment ? fileResponse(attachment) : errorResponse(badRequest('Invalid token'));
}

function serveAuthorized(world: World, request: ApiRequest, pathId: string): ApiResponse {
  const header = request.headers.get('authorization');
  const viewer = header === undefined ? undefined : authenticate(world, header);
  const access = uploadAccess(world, viewer, pathId);
  if (access.kind === 'missing') return html(404, 'This file does not exist or has been deleted.');
  if (access.kind === 'allowed') return fileResponse(access.attachment);
  if (viewer) return html(403, 'You are not authorized to view this file.');
  // A spectator is sent to log in, then back here.
  return { status: 302, headers: { Location: `/login/?next=${encodeURIComponent(request.path).replace(/%2F/g, '/')}`, Vary: 'Accept' }, body: '' };
}

/** Answers a request under `/user_uploads/` (outside the API). */
export function serveWebUpload(world: World, request: ApiRequest): ApiResponse {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET', 'HEAD']);
  const rest = request.path.slice(UPLOADS_PREFIX.length);
  if (rest.startsWith('temporary/')) return serveTemporary(world, rest.slice('temporary/'.length));
  return serveAuthorized(world, request, decode(rest));
}
