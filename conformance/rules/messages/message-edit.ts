/**
 * Content edits (`PATCH /messages/{message_id}` with `content`): what is stored (the send-time
 * normalisation: trailing whitespace and leading blank lines dropped, blank content becoming
 * `(deleted)`, content over `max_message_length` cut), the answer's shape, and who may edit: the
 * sender only, whatever their role.
 */
import type { Reply } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fetchState } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { EDIT_LEVELS, editChannels, mustRead, send, sendDirect } from './message-edit-support.js';

const ENDPOINT = 'PATCH /messages/{message_id}';

/** The success answer of an edit: `detached_uploads` (an array) from level 285, nothing before. */
export function expectEditSuccess(ctx: RuleContext, reply: Reply): void {
  const body = expectSuccess(reply, ctx.featureLevel >= EDIT_LEVELS.IGNORED ? { ignored: [] } : {});
  if (ctx.featureLevel >= EDIT_LEVELS.DETACHED_UPLOADS) expectShape(body, v.object({ detached_uploads: v.array(v.object({ id: v.int() })) }), 'body', reply);
  else check(!('detached_uploads' in body), `detached_uploads appears at level ${EDIT_LEVELS.DETACHED_UPLOADS}, the target is at ${ctx.featureLevel}`, reply);
}

/** `max_message_length` as `POST /register` publishes it (10000 before it was published). */
async function maxMessageLength(ctx: RuleContext): Promise<number> {
  const value = (await fetchState(ctx.as('member'), ['realm'])).max_message_length;
  return typeof value === 'number' ? value : 10_000;
}

interface ContentRow {
  readonly what: string;
  readonly sent: string;
  /** What the message must hold afterwards: a text, a test, or `refused` (400, unchanged). */
  readonly stored: string | ((content: string) => boolean) | 'refused';
}

function contentRows(ctx: RuleContext, max: number): ContentRow[] {
  const word = ctx.name('edited');
  const astral = '\u{1F600}';
  const exact = `${word} ${astral.repeat(10)}`;
  const long = 'x'.repeat(max + 1);
  return [
    { what: 'plain Markdown', sent: `${word} *now*`, stored: `${word} *now*` },
    { what: 'blank content', sent: ' \n\t ', stored: '(deleted)' },
    { what: 'leading blank lines and trailing whitespace', sent: `\n\n  ${word}  \n `, stored: `  ${word}` },
    { what: 'exactly max_message_length code points (some outside the BMP)', sent: exact + 'y'.repeat(max - [...exact].length), stored: exact + 'y'.repeat(max - [...exact].length) },
    { what: 'one code point over max_message_length', sent: long, stored: (content) => [...content].length <= max && content !== long && content.startsWith('x'.repeat(max - 40)) },
    { what: 'a null byte', sent: `${word}\u0000`, stored: 'refused' },
  ];
}

const contentReadBack: Rule = {
  id: 'message-edit/content-stored-as-normalised',
  title: 'the sender edits the content: the answer is a success (with detached_uploads from level 285) and the message holds the normalised text: blank becomes (deleted), trailing whitespace and leading blank lines go, max_message_length code points are kept and one more is cut; a null byte is refused with 400 BAD_REQUEST',
  endpoint: ENDPOINT,
  section: 'api/update-message; api/send-message',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { open } = await editChannels(ctx);
    const member = ctx.as('member');
    // One message takes every row in turn: a refused row must leave the previous row's content.
    let current = ctx.name('original');
    const id = await send(member, open, ctx.name('topic'), current);
    for (const row of contentRows(ctx, await maxMessageLength(ctx))) {
      const reply = await member.patch(`/messages/${id}`, { content: row.sent });
      const after = await mustRead(member, id);
      const previous = current;
      current = after.content;
      if (row.stored === 'refused') {
        expectError(reply, { status: 400, code: 'BAD_REQUEST' });
        expectEqual(after.content, previous, `content after a refused edit (${row.what})`);
        continue;
      }
      expectEditSuccess(ctx, reply);
      if (typeof row.stored === 'string') expectEqual(after.content, row.stored, `stored content (${row.what})`);
      else check(row.stored(after.content), `stored content (${row.what}): got ${after.content.length} UTF-16 units ending ${JSON.stringify(after.content.slice(-30))}`);
      check(after.lastEditTimestamp !== undefined && after.lastEditTimestamp >= after.timestamp, `last_edit_timestamp after an edit (${row.what}): expected at least the send time ${after.timestamp}, got ${String(after.lastEditTimestamp)}`);
    }
  },
};

const OTHERS: readonly IdentityName[] = ['owner', 'admin', 'moderator', 'second-member', 'guest'];

const onlySender: Rule = {
  id: 'message-edit/only-sender-edits-content',
  title: "nobody but the sender may edit a message's content, whatever their role (owner, administrator, moderator, member, guest): 400 BAD_REQUEST and the content unchanged, in a channel and in a direct message",
  endpoint: ENDPOINT,
  section: 'api/update-message',
  writes: true,
  needs: ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'],
  async run(ctx) {
    const { open } = await editChannels(ctx);
    const member = ctx.as('member');
    const original = ctx.name('original');
    const inChannel = await send(member, open, ctx.name('topic'), original);
    const direct = await sendDirect(member, [ctx.identity('second-member').userId], original);
    for (const who of OTHERS) {
      expectError(await ctx.as(who).patch(`/messages/${inChannel}`, { content: ctx.name(`by-${who}`) }), { status: 400, code: 'BAD_REQUEST' });
    }
    expectError(await ctx.as('second-member').patch(`/messages/${direct}`, { content: ctx.name('by-recipient') }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual((await mustRead(member, inChannel)).content, original, 'channel message content after the refused edits');
    expectEqual((await mustRead(member, direct)).content, original, 'direct message content after the refused edit');
  },
};

export const rules: readonly Rule[] = [contentReadBack, onlySender];
