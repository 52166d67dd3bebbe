/**
 * Attachments checked exactly on every run (section 4.20): deleting one's own attachment twice
 * (the second time it is an invalid ID), and the meaning of `messages` in the listing: exactly the
 * messages that link the file.
 */
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { listAttachments, uploadListed } from './attachments.js';
import { runChannel, sendToChannel } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';

const ENDPOINT = 'DELETE /attachments/{attachment_id}';

const deleteTwice: Rule = {
  id: 'attachments/delete-twice-bad-request',
  title: 'deleting an own attachment succeeds once and removes it from the listing; deleting it again answers 400 BAD_REQUEST',
  endpoint: ENDPOINT,
  section: '4.20; 7',
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const item = await uploadListed(ctx, 'member', new Uint8Array(Buffer.from(ctx.name('twice'))));
    expectSuccess(await client.delete(`/attachments/${item.id}`));
    check(!(await listAttachments(client)).attachments.some((listed) => listed.id === item.id), `attachment ${item.id} is still listed after its deletion`);
    expectError(await client.delete(`/attachments/${item.id}`), { status: 400, code: 'BAD_REQUEST' });
  },
};

const linkingMessages: Rule = {
  id: 'attachments/messages-lists-linking-messages',
  title: "an attachment's messages list is empty until a message links the file, then lists exactly that message's ID",
  endpoint: 'GET /attachments',
  section: '4.20',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const client = ctx.as('member');
    const item = await uploadListed(ctx, 'member', new Uint8Array(Buffer.from(ctx.name('linked'))));
    expectEqual(item.messages, [], `attachment ${item.id}: messages before any message links it`);
    const channel = await runChannel(ctx);
    const messageId = await sendToChannel(client, channel.id, ctx.name('topic'), `[${ctx.name('file')}](/user_uploads/${item.path_id})`);
    const listed = (await listAttachments(client)).attachments.find((candidate) => candidate.id === item.id);
    check(listed !== undefined, `attachment ${item.id} is no longer listed after a message linked it`);
    expectEqual(listed.messages.map((message) => message.id), [messageId], `attachment ${item.id}: IDs in messages after message ${messageId} linked it`);
  },
};

export const rules: readonly Rule[] = [deleteTwice, linkingMessages];
