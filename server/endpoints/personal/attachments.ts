/**
 * Uploads and attachments: `POST /user_uploads` (multipart), `GET /attachments`,
 * `DELETE /attachments/{attachment_id}` (section 4.20; behaviour reference §5). These are plain
 * views on the real server: no `ignored_parameters_unsupported`. The clean-up of files never
 * used runs lazily here, on the world's clock, before each of these requests.
 */
import { deleteAttachment, sweepUnusedAttachments, uploadAttachment } from '../../../lib/actions/personal/attachments.js';
import { badRequest } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { attachmentsState, uploadSpaceUsed } from '../../../lib/queries/personal/attachments.js';
import { cleanUploadName, storedFileName } from '../../../lib/uploads/names.js';
import type { World } from '../../../lib/state/world.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import type { UploadedFile } from '../../app/form.js';

/**
 * The uploaded files as the real server's multipart layer sees them: parts without a usable
 * file name are not files, and files are counted per field name (the last file of a repeated
 * field name wins).
 */
function filesByField(files: readonly UploadedFile[]): Map<string, { name: string; file: UploadedFile }> {
  const byField = new Map<string, { name: string; file: UploadedFile }>();
  for (const file of files) {
    const name = cleanUploadName(file.fileName);
    if (name !== undefined) byField.set(file.fieldName, { name, file });
  }
  return byField;
}

const sweep = (world: World): void => {
  sweepUnusedAttachments(world);
};

const upload = authed({
  reportsIgnored: false,
  params: {},
  run({ world, user, params }) {
    sweep(world);
    const files = filesByField(params.files);
    if (files.size === 0) throw badRequest('You must specify a file to upload');
    if (files.size !== 1) throw badRequest('You may only upload one file at a time');
    const [{ name, file }] = [...files.values()] as [{ name: string; file: UploadedFile }];
    const result = uploadAttachment(world, user, { name: storedFileName(name), contentType: file.contentType, bytes: file.bytes });
    return {
      uri: result.url,
      ...(world.has(FEATURES.UPLOAD_URL_FIELD) ? { url: result.url } : {}),
      ...(world.has(FEATURES.UPLOAD_FILENAME_FIELD) ? { filename: result.filename } : {}),
    };
  },
});

const listAttachments = authed({
  reportsIgnored: false,
  params: {},
  run({ world, user }) {
    sweep(world);
    return { attachments: attachmentsState(world, user), upload_space_used: uploadSpaceUsed(world) };
  },
});

const removeAttachment = authed({
  reportsIgnored: false,
  params: {},
  run({ world, user, path }) {
    sweep(world);
    deleteAttachment(world, user, Number(path.get('attachment_id')));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/user_uploads', methods: { POST: upload } },
  { path: '/attachments', methods: { GET: listAttachments } },
  { path: '/attachments/{attachment_id:int}', methods: { DELETE: removeAttachment } },
];
