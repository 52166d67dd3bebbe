/**
 * Uploads and attachments: `POST /user_uploads` (multipart), `GET /attachments` and
 * `DELETE /attachments/{attachment_id}` (section 4.20). Files are uploaded by the member, found in
 * its listing through the `path_id` at the end of the returned URL, and deleted by the rule (or in
 * cleanup). `upload_space_used` counts the whole realm, so it is only compared with itself and
 * with the run's own files.
 */
import fc from 'fast-check';
import type { ApiClient } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { type Infer, v } from '../../expect/shape.js';
import { expectUnauthorized } from '../conventions/credentials-required.js';
import { FAR_ID_FLOOR } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';

/** Levels of the upload response: `url` beside the deprecated `uri` (272), `filename` (285). */
const URL_LEVEL = 272;
const FILENAME_LEVEL = 285;

const attachmentShape = v.object({
  id: v.int({ min: 1 }),
  name: v.string({ nonEmpty: true }),
  path_id: v.string({ nonEmpty: true }),
  size: v.int({ min: 0 }),
  create_time: v.number(),
  messages: v.array(v.object({ id: v.int() })),
});
type ApiAttachment = Infer<typeof attachmentShape>;
const listShape = v.object({ attachments: v.array(attachmentShape), upload_space_used: v.number() });

/** `GET /attachments` as `client`, shape-checked: the caller's attachments and the realm's `upload_space_used`. */
export async function listAttachments(client: ApiClient): Promise<{ attachments: ApiAttachment[]; used: number }> {
  const reply = await client.get('/attachments');
  const body = expectShape(expectSuccess(reply), listShape, 'body', reply);
  return { attachments: body.attachments, used: body.upload_space_used };
}

const uploadShape = (level: number) =>
  v.object({
    uri: v.string({ nonEmpty: true }),
    ...(level >= URL_LEVEL ? { url: v.string({ nonEmpty: true }) } : {}),
    ...(level >= FILENAME_LEVEL ? { filename: v.string({ nonEmpty: true }) } : {}),
  });

/** Uploads `bytes` as `client`; returns the URL the server gave. */
async function upload(ctx: RuleContext, client: ApiClient, bytes: Uint8Array): Promise<string> {
  const files = [{ name: 'file', filename: `${ctx.name('upload')}.bin`, contentType: 'application/octet-stream', data: bytes }];
  const reply = await client.post('/user_uploads', {}, { encoding: 'multipart', files });
  const body = expectShape(expectSuccess(reply), uploadShape(ctx.featureLevel), 'body', reply);
  if (ctx.featureLevel >= URL_LEVEL) expectEqual((body as { url?: string }).url, body.uri, 'url (same as uri)', reply);
  return body.uri;
}

/** Uploads, finds the attachment in the owner's listing, and registers its deletion. */
export async function uploadListed(ctx: RuleContext, who: 'member', bytes: Uint8Array): Promise<ApiAttachment> {
  const client = ctx.as(who);
  const url = await upload(ctx, client, bytes);
  const found = (await listAttachments(client)).attachments.find((item) => url.endsWith(`/user_uploads/${item.path_id}`));
  check(found !== undefined, `the uploaded file ${url} is not in GET /attachments (no path_id matches the end of its URL)`);
  ctx.cleanup(`delete attachment ${found.id}`, async (c) => {
    await c.as(who).delete(`/attachments/${found.id}`);
  });
  return found;
}

const noCredentials: Rule = {
  id: 'attachments/no-credentials-unauthorized',
  title: 'uploading, listing and deleting attachments without credentials answer 401 UNAUTHORIZED',
  endpoint: 'DELETE /attachments/{attachment_id}',
  section: '4.20; 5.4',
  writes: false,
  async run(ctx) {
    const files = [{ name: 'file', filename: 'x.txt', contentType: 'text/plain', data: 'x' }];
    expectUnauthorized(await ctx.anonymous.post('/user_uploads', {}, { encoding: 'multipart', files }));
    expectUnauthorized(await ctx.anonymous.get('/attachments'));
    await ctx.property('attachment IDs', [fc.integer({ min: 1, max: 2 ** 31 - 1 })], async (id) => {
      expectUnauthorized(await ctx.anonymous.delete(`/attachments/${id}`));
    }, { maxRuns: 5 });
  },
};

const uploadListDelete: Rule = {
  id: 'attachments/upload-listed-then-deleted',
  title: 'uploaded files are listed with their size and no messages; each delete removes exactly that file and upload_space_used never grows from a delete',
  endpoint: 'DELETE /attachments/{attachment_id}',
  section: '4.20',
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const files = fc.array(fc.uint8Array({ minLength: 1, maxLength: 4096 }), { minLength: 1, maxLength: 3 });
    await ctx.property('files x delete order', [files, fc.array(fc.nat(), { minLength: 3, maxLength: 3 })], async (contents, order) => {
      const ours: ApiAttachment[] = [];
      for (const bytes of contents) {
        const item = await uploadListed(ctx, 'member', bytes);
        expectEqual(item.size, bytes.length, `attachment ${item.id}: size`);
        expectEqual(item.messages, [], `attachment ${item.id}: messages (never sent in a message)`);
        ours.push(item);
      }
      let { attachments, used } = await listAttachments(client);
      const total = ours.reduce((sum, item) => sum + item.size, 0);
      check(used >= total, `upload_space_used ${used} is less than the ${total} bytes of the run's own files`);
      const remaining = [...ours];
      for (const pick of order.slice(0, ours.length)) {
        const [gone] = remaining.splice(pick % remaining.length, 1);
        expectSuccess(await client.delete(`/attachments/${gone!.id}`));
        const before = used;
        ({ attachments, used } = await listAttachments(client));
        const listed = new Set(attachments.map((item) => item.id));
        check(!listed.has(gone!.id), `attachment ${gone!.id} is still listed after its deletion`);
        for (const kept of remaining) check(listed.has(kept.id), `attachment ${kept.id} vanished when ${gone!.id} was deleted`);
        check(used <= before, `upload_space_used grew from ${before} to ${used} after a delete`);
      }
    }, { maxRuns: 5 });
  },
};

const unknownId: Rule = {
  id: 'attachments/delete-unknown-bad-request',
  title: 'deleting an attachment ID that does not exist answers 400 BAD_REQUEST',
  endpoint: 'DELETE /attachments/{attachment_id}',
  section: '4.20; 7',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const own = (await listAttachments(client)).attachments.map((item) => item.id);
    const id = fc.integer({ min: Math.max(FAR_ID_FLOOR, ...own.map((x) => x + 1)), max: 2 ** 31 - 1 });
    await ctx.property('unknown IDs', [id], async (attachmentId) => {
      expectError(await client.delete(`/attachments/${attachmentId}`), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 10 });
  },
};

const othersRefused: Rule = {
  id: 'attachments/delete-other-users-bad-request',
  title: "another user's attachment is never listed for the caller, and deleting it answers 400 BAD_REQUEST and keeps it",
  endpoint: 'DELETE /attachments/{attachment_id}',
  section: '4.20; 7',
  writes: true,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const theirs = await uploadListed(ctx, 'member', new Uint8Array(Buffer.from(ctx.name('private-bytes'))));
    const other = ctx.as('second-member');
    check(!(await listAttachments(other)).attachments.some((item) => item.id === theirs.id), `attachment ${theirs.id} of another user is listed for the second member`);
    expectError(await other.delete(`/attachments/${theirs.id}`), { status: 400, code: 'BAD_REQUEST' });
    check((await listAttachments(ctx.as('member'))).attachments.some((item) => item.id === theirs.id), `attachment ${theirs.id} vanished after another user tried to delete it`);
  },
};

const noFile: Rule = {
  id: 'attachments/upload-without-file-bad-request',
  title: 'an upload request without a file part answers 400 BAD_REQUEST',
  endpoint: 'POST /user_uploads',
  section: '4.20; 7',
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const fields = fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.stringMatching(/^[a-z0-9]{0,8}$/)), { maxLength: 3 });
    await ctx.property('multipart fields without files', [fields], async (pairs) => {
      expectError(await ctx.as('member').post('/user_uploads', pairs, { encoding: 'multipart' }), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 5 });
  },
};

export const rules: readonly Rule[] = [noCredentials, uploadListDelete, unknownId, othersRefused, noFile];
