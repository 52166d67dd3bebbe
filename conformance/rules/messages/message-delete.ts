/**
 * `DELETE /messages/{message_id}`: who may delete (anyone's message per
 * `can_delete_any_message_group`, one's own per `can_delete_own_message_group` within
 * `message_content_delete_limit_seconds`, channel settings from level 407), the plain success
 * answer, the message gone for every reader, and the refusals (repeated deletion, unknown or
 * inaccessible messages, no credentials).
 */
import fc from 'fast-check';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectError, fail } from '../../expect/assert.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { FAR_ID_FLOOR, maxMessageId } from '../support/message-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { ROLES_AND_GUEST } from '../support/realm-permissions.js';
import type { Rule, RuleContext } from '../types.js';
import { editChannels, readMessage, send, sendDirect, topicMessages } from './message-edit-support.js';
import { derivedRows, MoveRights } from './message-move-rights.js';

const ENDPOINT = 'DELETE /messages/{message_id}';
const BAD_REQUEST = { status: 400, code: 'BAD_REQUEST' } as const;

/** One deletion attempt: success and gone for the deleter, or 400 and still there for the sender. */
async function attempt(ctx: RuleContext, who: IdentityName, sender: IdentityName, allowed: boolean, id: number): Promise<void> {
  const reply = await ctx.as(who).delete(`/messages/${id}`);
  if (allowed) {
    expectPlainSuccess(reply);
    check((await readMessage(ctx.as(who), id)) === undefined, `message ${id} is still readable by the ${who} after deleting it`);
  } else {
    expectError(reply, BAD_REQUEST);
    check((await readMessage(ctx.as(sender), id)) !== undefined, `message ${id} is gone after a refused deletion by the ${who}`);
  }
}

const perRole: Rule = {
  id: 'message-delete/who-may-delete-per-role',
  title: "each role deletes another's message exactly when can_delete_any_message_group allows it (administrators before level 281; the channel's setting too from level 407), and its own message just sent exactly when it may delete any or can_delete_own_message_group allows it (from level 291); success is exactly {result, msg} and the message is gone, a refusal is 400 BAD_REQUEST and the message stays",
  endpoint: ENDPOINT,
  section: 'api/delete-message; help/restrict-message-editing-and-deletion',
  writes: true,
  needs: ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'],
  async run(ctx) {
    const { open } = await editChannels(ctx);
    const rights = await MoveRights.load(ctx, open);
    const others = await derivedRows(ROLES_AND_GUEST, (who) => rights.deleteAny(who));
    const own = await derivedRows(ROLES_AND_GUEST, (who) => rights.deleteOwnJustSent(who));
    if (others.length + own.length === 0) return ctx.skip('the target publishes none of the deletion settings');
    const topic = ctx.name('topic');
    const problems: string[] = [];
    const rows: Array<[IdentityName, IdentityName, boolean]> = [
      ...others.map(([who, allowed]): [IdentityName, IdentityName, boolean] => [who, 'second-member', allowed]),
      ...own.map(([who, allowed]): [IdentityName, IdentityName, boolean] => [who, who, allowed]),
    ];
    for (const [who, sender, allowed] of rows) {
      const id = await send(ctx.as(sender), open, topic, ctx.name('content'));
      try {
        await attempt(ctx, who, sender, allowed, id);
      } catch (error) {
        problems.push(`${who} deleting ${sender === who ? 'its own' : "the second member's"} message (${allowed ? 'allowed' : 'refused'}): ${(error as Error).message}`);
      }
    }
    if (problems.length > 0) fail(`rights derived from POST /register and the channel settings:\n  - ${problems.join('\n  - ')}`);
  },
};

const goneForEveryone: Rule = {
  id: 'message-delete/gone-for-every-reader',
  title: 'after the administrator deletes a channel message, no identity of the run can read it (not by ID, not in its topic); deleting it again answers 400 BAD_REQUEST; a direct message its sender deleted is gone for the recipient too',
  endpoint: ENDPOINT,
  section: 'api/delete-message',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const { open } = await editChannels(ctx);
    const rights = await MoveRights.load(ctx, open);
    if ((await rights.deleteAny('admin')) !== true) return ctx.skip('the administrator may not delete messages of others here');
    const topic = ctx.name('topic');
    const id = await send(ctx.as('member'), open, topic, ctx.name('content'));
    expectPlainSuccess(await ctx.as('admin').delete(`/messages/${id}`));
    for (const identity of ctx.identities.filter((candidate) => !candidate.isBot)) {
      const client = ctx.anonymous.withCredentials(identity.email, identity.apiKey);
      check((await readMessage(client, id)) === undefined, `the ${identity.role} ${identity.email} can still read deleted message ${id}`);
    }
    check((await topicMessages(ctx.as('member'), open, topic)).length === 0, `the topic of deleted message ${id} still lists messages`);
    expectError(await ctx.as('admin').delete(`/messages/${id}`), BAD_REQUEST);
    if ((await rights.deleteOwnJustSent('member')) !== true) {
      ctx.note('the member may not delete its own messages: the direct message part is left out');
      return;
    }
    const direct = await sendDirect(ctx.as('member'), [ctx.identity('second-member').userId], ctx.name('direct'));
    expectPlainSuccess(await ctx.as('member').delete(`/messages/${direct}`));
    check((await readMessage(ctx.as('second-member'), direct)) === undefined, `the recipient can still read deleted direct message ${direct}`);
    expectError(await ctx.as('member').delete(`/messages/${direct}`), BAD_REQUEST);
  },
};

const unknownOrHidden: Rule = {
  id: 'message-delete/unknown-or-inaccessible-message-bad-request',
  title: 'deleting a message ID that does not exist, or a message of a private channel the caller is not in, answers 400 BAD_REQUEST and the hidden message stays',
  endpoint: ENDPOINT,
  section: 'api/delete-message',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const { secret } = await editChannels(ctx);
    const hidden = await send(ctx.as('admin'), secret, ctx.name('topic'), ctx.name('secret'));
    const outsider = ctx.as('second-member');
    const floor = Math.max(FAR_ID_FLOOR, (await maxMessageId(outsider)) + 1);
    await ctx.property('unknown IDs', [fc.integer({ min: floor, max: 2 ** 31 - 1 })], async (unknown) => {
      expectError(await outsider.delete(`/messages/${unknown}`), BAD_REQUEST);
      expectError(await outsider.delete(`/messages/${hidden}`), BAD_REQUEST);
    }, { maxRuns: 3 });
    check((await readMessage(ctx.as('admin'), hidden)) !== undefined, `private message ${hidden} is gone after refused deletions`);
  },
};

const noCredentials = credentialsRequired({
  id: 'message-delete/no-credentials-unauthorized',
  endpoint: ENDPOINT,
  section: 'api/delete-message',
  requests: [['DELETE', '/messages/1']],
});

export const rules: readonly Rule[] = [perRole, goneForEveryone, unknownOrHidden, noCredentials];
