/**
 * Refused edits (`PATCH /messages/{message_id}`): malformed requests in the real server's
 * `validate_message_edit_payload` order, unknown and inaccessible messages, missing credentials,
 * unknown parameters, and the `prev_content_sha256` guard of level 379 (an unknown parameter
 * before it).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expectEqual, expectError } from '../../expect/assert.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { checkUnknownParamsReported } from '../conventions/unknown-parameters.js';
import { FAR_ID_FLOOR, maxMessageId } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';
import { expectEditSuccess } from './message-edit.js';
import { EDIT_LEVELS, editChannels, memberMessageRule, mustRead, send, sendDirect } from './message-edit-support.js';

const ENDPOINT = 'PATCH /messages/{message_id}';
const BAD_REQUEST = { status: 400, code: 'BAD_REQUEST' } as const;
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const malformed: Rule = {
  id: 'message-edit/malformed-requests-bad-request',
  title: 'an edit with nothing to change, a propagate_mode without a topic or channel change or outside its enum, content with stream_id, a topic or channel for a direct message, a stream_id or notification flag that is not JSON, a topic with a null byte, an unknown channel, or the bare resolved prefix (level 334) answers 400 BAD_REQUEST and changes nothing',
  endpoint: ENDPOINT,
  section: 'api/update-message',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const { open, other } = await editChannels(ctx);
    const member = ctx.as('member');
    const topic = ctx.name('topic');
    const content = ctx.name('original');
    const id = await send(member, open, topic, content);
    const direct = await sendDirect(member, [ctx.identity('second-member').userId], content);
    const unknownChannel = FAR_ID_FLOOR + open.id;
    const rows: Array<[string, number, Record<string, unknown>]> = [
      ['no parameter', id, {}],
      ['content with propagate_mode change_all', id, { content: ctx.name('x'), propagate_mode: 'change_all' }],
      ['content with propagate_mode change_later', id, { content: ctx.name('x'), propagate_mode: 'change_later' }],
      ['a propagate_mode outside the enum', id, { topic: ctx.name('t'), propagate_mode: 'change_some' }],
      ['content and stream_id together', id, { content: ctx.name('x'), stream_id: other.id }],
      ['a topic for a direct message', direct, { topic: ctx.name('t') }],
      ['a stream_id for a direct message', direct, { stream_id: open.id }],
      ['a stream_id that is not JSON', id, { stream_id: 'other' }],
      ['send_notification_to_new_thread that is not JSON', id, { topic: ctx.name('t'), send_notification_to_new_thread: 'maybe' }],
      ['a topic with a null byte', id, { topic: `${ctx.name('t')}\u0000` }],
      ['a channel that does not exist', id, { stream_id: unknownChannel }],
      ...(ctx.featureLevel >= EDIT_LEVELS.EMPTY_TOPIC ? [['the bare resolved prefix as topic', id, { topic: '✔' }] as [string, number, Record<string, unknown>]] : []),
    ];
    for (const [what, target, params] of rows) {
      const reply = await member.patch(`/messages/${target}`, params);
      try {
        expectError(reply, BAD_REQUEST);
      } catch (error) {
        throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
      }
    }
    const after = await mustRead(member, id);
    expectEqual([after.content, after.topic, after.streamId], [content, topic, open.id], 'content, topic and channel after the refused edits');
    expectEqual((await mustRead(member, direct)).content, content, 'direct message content after the refused edits');
  },
};

const unknownOrHidden: Rule = {
  id: 'message-edit/unknown-or-inaccessible-message-bad-request',
  title: 'editing a message ID that does not exist, or a message of a private channel the caller is not in, answers 400 BAD_REQUEST (the same answer for both) and the hidden message is unchanged',
  endpoint: ENDPOINT,
  section: 'api/update-message',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const { secret } = await editChannels(ctx);
    const topic = ctx.name('topic');
    const hidden = await send(ctx.as('admin'), secret, topic, ctx.name('secret'));
    const outsider = ctx.as('second-member');
    const floor = Math.max(FAR_ID_FLOOR, (await maxMessageId(outsider)) + 1);
    await ctx.property('unknown IDs x edit kind', [fc.integer({ min: floor, max: 2 ** 31 - 1 }), fc.constantFrom('content', 'topic')], async (unknown, kind) => {
      for (const target of [unknown, hidden]) expectError(await outsider.patch(`/messages/${target}`, { [kind]: ctx.name('x') }), BAD_REQUEST);
    }, { maxRuns: 4 });
    expectEqual((await mustRead(ctx.as('admin'), hidden)).topic, topic, 'topic of the private message after the refused edits');
  },
};

const noCredentials = credentialsRequired({
  id: 'message-edit/no-credentials-unauthorized',
  endpoint: ENDPOINT,
  section: 'api/update-message',
  requests: [
    ['PATCH', '/messages/1', { content: 'x' }],
    ['PATCH', '/messages/1', { topic: 'x', propagate_mode: 'change_all' }],
  ],
});

const unknownParameters = memberMessageRule(
  {
    id: 'message-edit/unknown-parameters-reported',
    title: 'unknown parameters sent with an edit are listed, sorted, in ignored_parameters_unsupported and the edit is made',
    section: '1 convention 4; api/update-message',
    levels: { min: EDIT_LEVELS.IGNORED },
  },
  async (ctx, { member, id }) => {
    const declared = ['message_id', 'stream_id', 'topic', 'subject', 'propagate_mode', 'send_notification_to_old_thread', 'send_notification_to_new_thread', 'content', 'prev_content_sha256'];
    await checkUnknownParamsReported(ctx, {
      declared,
      send: (pairs) => member.patch(`/messages/${id}`, [['content', ctx.name('edited')], ...pairs]),
      maxRuns: 5,
    });
  },
);

const prevContentChecked = memberMessageRule(
  {
    id: 'message-edit/prev-content-sha256-guards-the-edit',
    title: 'from level 379 an edit with prev_content_sha256 equal to the SHA-256 of the current raw content succeeds; any other value answers 400 and the content stays',
    section: 'api/update-message (level 379)',
    levels: { min: EDIT_LEVELS.PREV_CONTENT_SHA256 },
  },
  async (ctx, { member, id, content: original }) => {
    for (const stale of [sha256(`${original} `), sha256(''), original, sha256(original).toUpperCase()]) {
      const reply = await member.patch(`/messages/${id}`, { content: ctx.name('lost'), prev_content_sha256: stale });
      expectEqual([reply.status, reply.body?.result], [400, 'error'], `status and result with a prev_content_sha256 that does not match (${stale.slice(0, 12)}...)`);
    }
    expectEqual((await mustRead(member, id)).content, original, 'content after the refused edits');
    const edited = ctx.name('edited');
    expectEditSuccess(ctx, await member.patch(`/messages/${id}`, { content: edited, prev_content_sha256: sha256(original) }));
    expectEqual((await mustRead(member, id)).content, edited, 'content after the edit with the matching hash');
  },
);

const prevContentIgnored = memberMessageRule(
  {
    id: 'message-edit/prev-content-sha256-unknown-before-379',
    title: 'before level 379 prev_content_sha256 is an unknown parameter: reported in ignored_parameters_unsupported, and a wrong hash does not stop the edit',
    section: 'api/update-message (level 379); 1 convention 4',
    levels: { min: EDIT_LEVELS.IGNORED, max: EDIT_LEVELS.PREV_CONTENT_SHA256 - 1 },
  },
  async (ctx, { member, id }) => {
    const edited = ctx.name('edited');
    expectEqual((await member.patch(`/messages/${id}`, { content: edited, prev_content_sha256: sha256('not the content') })).body?.ignored_parameters_unsupported, ['prev_content_sha256'], 'ignored_parameters_unsupported');
    expectEqual((await mustRead(member, id)).content, edited, 'content after the edit');
  },
);

export const rules: readonly Rule[] = [malformed, unknownOrHidden, noCredentials, unknownParameters, prevContentChecked, prevContentIgnored];
