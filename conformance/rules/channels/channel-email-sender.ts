/**
 * `GET /streams/{stream_id}/email_address?sender_id=` (level 335; the real server's
 * `get_stream_email_address`): the address shows as its sender the Email Gateway bot (the
 * default), the requester, or a bot the requester administers. Each sender has its own address,
 * the same one each time it is asked for; other users and unknown IDs are `No such bot`, bots
 * the requester does not administer `Insufficient permission`.
 */
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { FAR_ID_FLOOR, runChannel } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';
import type { ApiClient } from '../../client/api-client.js';
import { ownedBotRule } from '../users/bots-support.js';

const SENDER_LEVEL = 335;

async function address(client: ApiClient, channelId: number, senderId?: number): Promise<string> {
  const reply = await client.get(`/streams/${channelId}/email_address`, senderId === undefined ? {} : { sender_id: senderId });
  const email = expectSuccess(reply).email;
  check(typeof email === 'string', 'the answer carries the address as a string', reply);
  return email;
}

async function expectRefused(client: ApiClient, channelId: number, senderId: number, msg: string, what: string): Promise<void> {
  const body = expectError(await client.get(`/streams/${channelId}/email_address`, { sender_id: senderId }), { status: 400, code: 'BAD_REQUEST' });
  expectEqual(body.msg, msg, `the error for ${what}`);
}

const senders = ownedBotRule({
  id: 'streams/email-address-sender',
  title: "sender_id picks who an email address shows as sender: the default, the requester and the requester's bot each get their own address, the same when asked again; another user or an unknown ID is refused with No such bot, someone else's bot (for a non-administrator) with Insufficient permission",
  endpoint: 'GET /streams/{stream_id}/email_address',
  section: 'api/get-stream-email-address; changelog 335',
  levels: { min: SENDER_LEVEL },
  needs: ['second-member'],
}, async (ctx, { owner, bot }) => {
  const channel = await runChannel(ctx);
  const client = ctx.as(owner);
  const byDefault = await address(client, channel.id);
  const self = await address(client, channel.id, ctx.identity(owner).userId);
  const viaBot = await address(client, channel.id, bot.userId);
  expectEqual(new Set([byDefault, self, viaBot]).size, 3, 'distinct addresses for the default sender, the requester and their bot');
  expectEqual(await address(client, channel.id, bot.userId), viaBot, "the bot's address asked for again");
  await expectRefused(client, channel.id, ctx.identity('second-member').userId, 'No such bot', 'another human as the sender');
  await expectRefused(client, channel.id, FAR_ID_FLOOR + 11, 'No such bot', 'an unknown sender ID');
  await expectRefused(ctx.as('second-member'), channel.id, bot.userId, 'Insufficient permission', `the ${owner}'s bot asked for by a member who does not own it`);
});

export const rules: readonly Rule[] = [senders];
