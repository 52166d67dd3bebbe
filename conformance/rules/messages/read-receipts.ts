/**
 * `GET /messages/{message_id}/read_receipts` (level 137; the real get-read-receipts page): the
 * users whose flags say they read the message, never its sender, none who turned
 * `send_read_receipts` off, none the caller muted or who muted the caller; refused for a message
 * the caller cannot read and when the organization turned read receipts off.
 */
import type { ApiClient } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { ownSettings } from '../support/state-fetch.js';
import type { Rule, RuleContext } from '../types.js';
import { conversationRule, expectRefused, foreignMessages, LEVEL, postFlags } from './message-flags-support.js';
import { readReceiptsOn, realmReadReceipts, setRealmReadReceipts, setReadReceiptsSetting } from './read-receipts-support.js';
import { runChannel, sendToChannel } from '../support/message-fixtures.js';

const ENDPOINT = 'GET /messages/{message_id}/read_receipts';

/** The user IDs `client` is told read message `id`, sorted. */
export async function receipts(client: ApiClient, id: number): Promise<number[]> {
  const reply = await client.get(`/messages/${id}/read_receipts`);
  const body = expectShape(expectSuccess(reply), v.object({ user_ids: v.array(v.int({ min: 1 })) }), 'body', reply);
  return [...body.user_ids].sort((a, b) => a - b);
}

/** The IDs of these identities, sorted. */
const idsOf = (ctx: RuleContext, who: readonly IdentityName[]): number[] => who.map((name) => ctx.identity(name).userId).sort((a, b) => a - b);

const readers = conversationRule({
  id: 'read-receipts/readers-listed-sender-never',
  title: 'read receipts list exactly the users who marked the message read and send read receipts: never the sender, nobody before reading, nobody after marking unread again',
  section: 'api/get-read-receipts; changelog 137',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.READ_RECEIPTS },
  needs: ['moderator'],
}, async (ctx, { sender, reader, thread }) => {
  await readReceiptsOn(ctx);
  const sending = new Map<IdentityName, boolean>();
  for (const who of ['second-member', 'moderator'] as const) sending.set(who, (await ownSettings(ctx.as(who))).send_read_receipts !== false);
  const { ids: [id] } = await thread('receipts', 1);
  const admin = ctx.as('admin');
  expectEqual(await receipts(admin, id!), [], 'read receipts before anyone read the message');
  const expected = (who: readonly IdentityName[]) => idsOf(ctx, who.filter((name) => sending.get(name)));
  expectSuccess(await postFlags(reader, 'add', 'read', [id!]));
  expectEqual(await receipts(admin, id!), expected(['second-member']), 'read receipts after the second member read it');
  expectSuccess(await postFlags(ctx.as('moderator'), 'add', 'read', [id!]));
  expectSuccess(await postFlags(sender, 'add', 'read', [id!]));
  expectEqual(await receipts(admin, id!), expected(['second-member', 'moderator']), 'read receipts after the moderator and the sender read it');
  expectSuccess(await postFlags(reader, 'remove', 'read', [id!]));
  expectEqual(await receipts(admin, id!), expected(['moderator']), 'read receipts after the second member marked it unread');
});

/** Mutes `muted` for `muter` (level 48 endpoint) and registers the unmuting. */
async function mute(ctx: RuleContext, muter: IdentityName, muted: IdentityName): Promise<void> {
  const mutedId = ctx.identity(muted).userId;
  expectSuccess(await ctx.as(muter).post(`/users/me/muted_users/${mutedId}`));
  ctx.cleanup(`${muter} unmutes ${muted}`, async (c) => {
    const reply = await c.as(muter).delete(`/users/me/muted_users/${mutedId}`);
    if (reply.status !== 200) throw new Error(`${muter} could not unmute ${muted}: HTTP ${reply.status}`);
  });
}

const hidden = conversationRule({
  id: 'read-receipts/setting-off-and-muting-hide-readers',
  title: 'a reader who turns send_read_receipts off is not listed (and is again once it is back on); a reader the caller muted, or who muted the caller, is not listed to the caller but still is to others',
  section: 'api/get-read-receipts; api/update-settings (send_read_receipts); api/mute-user',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.READ_RECEIPTS },
  needs: ['moderator', 'owner'],
}, async (ctx, { reader, thread }) => {
  await readReceiptsOn(ctx);
  const { ids: [id] } = await thread('receipts-hidden', 1);
  for (const who of ['second-member', 'moderator'] as const) {
    await setReadReceiptsSetting(ctx, who, true);
    expectSuccess(await postFlags(ctx.as(who), 'add', 'read', [id!]));
  }
  const admin = ctx.as('admin');
  const both = idsOf(ctx, ['second-member', 'moderator']);
  expectEqual(await receipts(admin, id!), both, 'read receipts with both readers sending them');
  await setReadReceiptsSetting(ctx, 'second-member', false);
  expectEqual(await receipts(admin, id!), idsOf(ctx, ['moderator']), 'read receipts after the second member turned send_read_receipts off');
  await setReadReceiptsSetting(ctx, 'second-member', true);
  expectEqual(await receipts(admin, id!), both, 'read receipts after the second member turned it back on');
  await mute(ctx, 'admin', 'moderator');
  expectEqual(await receipts(admin, id!), idsOf(ctx, ['second-member']), 'read receipts for the administrator, who muted the moderator');
  check((await receipts(reader, id!)).includes(ctx.identity('moderator').userId), 'the moderator is hidden from the second member too, who did not mute anyone');
  await mute(ctx, 'second-member', 'owner');
  expectEqual(await receipts(ctx.as('owner'), id!), idsOf(ctx, ['moderator']), 'read receipts for the owner, whom the second member muted');
});

const unreadable = conversationRule({
  id: 'read-receipts/unreadable-message-refused',
  title: 'read receipts of a message the caller cannot read (a private channel it is not in, a direct message of others, an unknown ID) are refused with 400 BAD_REQUEST',
  section: 'api/get-read-receipts',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.READ_RECEIPTS },
}, async (ctx, { reader }) => {
  for (const [what, id] of await foreignMessages(ctx)) expectRefused(await reader.get(`/messages/${id}/read_receipts`), { status: 400, code: 'BAD_REQUEST' }, what);
});

const disabled: Rule = {
  id: 'read-receipts/organization-setting-off-refused',
  title: "with the organization's enable_read_receipts off, read receipts are refused with 400 BAD_REQUEST (register shows the setting off); turned on again, they are answered",
  endpoint: ENDPOINT,
  section: 'api/get-read-receipts; api/register-queue (realm_enable_read_receipts)',
  levels: { min: LEVEL.READ_RECEIPTS },
  writes: true,
  realmWide: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const original = await realmReadReceipts(ctx);
    const channel = await runChannel(ctx);
    const member = ctx.as('member');
    const id = await sendToChannel(member, channel.id, ctx.name('receipts-off'), 'read receipts are about to be turned off');
    if (original) await setRealmReadReceipts(ctx, false, original);
    check(!(await realmReadReceipts(ctx)), 'realm_enable_read_receipts still reads true after turning it off');
    expectRefused(await member.get(`/messages/${id}/read_receipts`), { status: 400, code: 'BAD_REQUEST' }, 'read receipts with the organization setting off');
    await setRealmReadReceipts(ctx, true, original);
    expectEqual(await receipts(member, id), [], 'read receipts once the setting is on again');
  },
};

const noCredentials = credentialsRequired({
  id: 'read-receipts/no-credentials-unauthorized',
  endpoint: ENDPOINT,
  section: 'api/get-read-receipts',
  levels: { min: LEVEL.READ_RECEIPTS },
  requests: [['GET', '/messages/1/read_receipts']],
});

export const rules: readonly Rule[] = [readers, hidden, unreadable, disabled, noCredentials];
