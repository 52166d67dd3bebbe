/**
 * `GET /api/v1/user_uploads/{realm_id}/{path}`: a temporary URL for downloading an upload
 * (`{"url": "/user_uploads/temporary/<token>/<file name>"}`, valid 60 seconds), for clients
 * that cannot send credentials with the download itself, as the real server's
 * `serve_file_url_backend` answers it. Access and its HTML errors are those of the file itself.
 */
import { uploadAccess } from '../../../lib/queries/personal/upload-access.js';
import { temporaryUploadUrl } from '../../../lib/uploads/tokens.js';
import { authed, RawReply, type RouteDef } from '../../app/endpoint.js';

const html = (status: number, text: string): RawReply =>
  new RawReply({ status, headers: { 'Content-Type': 'text/html; charset=utf-8', Vary: 'Accept' }, body: `<p>${text}</p>` });

const temporaryUrl = authed({
  // A plain view on the real server: no `ignored_parameters_unsupported`.
  reportsIgnored: false,
  params: {},
  run({ world, user, path }) {
    const pathId = `${path.get('realm_id_str') ?? ''}/${path.get('filename') ?? ''}`;
    const access = uploadAccess(world, user, pathId);
    if (access.kind === 'missing') return html(404, 'This file does not exist or has been deleted.');
    if (access.kind === 'forbidden') return html(403, 'You are not authorized to view this file.');
    return { url: temporaryUploadUrl(world, pathId) };
  },
});

export const routes: RouteDef[] = [{ path: '/user_uploads/{realm_id_str}/{filename:path}', methods: { GET: temporaryUrl } }];
