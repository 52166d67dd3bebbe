/**
 * Reading one channel: `GET /streams/{id}` (api/get-stream-by-id), `GET /streams/{id}/members`
 * (api/get-subscribers), `GET /streams/{id}/email_address` (api/get-stream-email-address) and
 * `GET /users/{user_id}/subscriptions/{stream_id}` (api/get-subscription-status), by every role
 * on the run's channel of each kind (channel-kinds.ts). Who may read what follows the real
 * server's access checks: metadata access for the channel and its subscribers, content access
 * for the email address.
 */
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { FAR_ID_FLOOR } from '../support/message-fixtures.js';
import { sorted } from '../support/channel-fixtures.js';
import type { Rule } from '../types.js';
import { hasContent, hasMetadata, isSubscribedTo, perReaderRule, READERS } from './channel-kinds.js';
import { STREAM_LEVELS, streamShape } from './streams-support.js';

const INVALID = { status: 400, code: 'BAD_REQUEST' } as const;
const UNKNOWN_ID = FAR_ID_FLOOR + 7;

const byId = perReaderRule({
  id: 'streams/get-by-id-access-per-role',
  title: 'GET /streams/{id} gives the channel object to every role with metadata access to it (its subscribers, everyone but guests for public channels, administrators for all) and 400 BAD_REQUEST to the others and for unknown IDs',
  endpoint: 'GET /streams/{stream_id}',
  section: 'api/get-stream-by-id',
  levels: { min: STREAM_LEVELS.GET_BY_ID },
}, async (ctx, kind, who) => {
  const reply = await ctx.as(who).get(`/streams/${kind.channel.streamId}`);
  if (!hasMetadata(ctx, kind, who)) return void expectError(reply, INVALID);
  const stream = expectShape(expectSuccess(reply), v.object({ stream: streamShape(ctx.featureLevel) }), 'body', reply).stream;
  expectEqual([stream.stream_id, stream.name, stream.invite_only], [kind.channel.streamId, kind.channel.name, kind.inviteOnly], `the ${kind.label} channel read by the ${who}`, reply);
}, async (ctx) => void expectError(await ctx.as('member').get(`/streams/${UNKNOWN_ID}`), INVALID));

const members = perReaderRule({
  id: 'streams/members-per-role',
  title: 'GET /streams/{id}/members lists exactly the subscriber IDs to every role with metadata access to the channel, and answers 400 BAD_REQUEST to the others and for unknown IDs',
  endpoint: 'GET /streams/{stream_id}/members',
  section: 'api/get-subscribers',
}, async (ctx, kind, who) => {
  const reply = await ctx.as(who).get(`/streams/${kind.channel.streamId}/members`);
  if (!hasMetadata(ctx, kind, who)) return void expectError(reply, INVALID);
  const body = expectShape(expectSuccess(reply), v.object({ subscribers: v.array(v.int({ min: 1 })) }), 'body', reply);
  const want = sorted(kind.subscribers.map((subscriber) => ctx.identity(subscriber).userId));
  expectEqual(sorted(body.subscribers), want, `subscribers of the ${kind.label} channel read by the ${who}`, reply);
}, async (ctx) => void expectError(await ctx.as('member').get(`/streams/${UNKNOWN_ID}/members`), INVALID));

const emailAddress = perReaderRule({
  id: 'streams/email-address-needs-content-access',
  title: 'GET /streams/{id}/email_address gives an address (a string) to every role with content access to the channel, administrators included only where they have it, and 400 BAD_REQUEST to the others',
  endpoint: 'GET /streams/{stream_id}/email_address',
  section: 'api/get-stream-email-address; changelog 226',
  levels: { min: STREAM_LEVELS.EMAIL_ADDRESS_ENDPOINT },
}, async (ctx, kind, who) => {
  const reply = await ctx.as(who).get(`/streams/${kind.channel.streamId}/email_address`);
  // The address format depends on the deployment's email gateway: only its type is checked.
  if (hasContent(kind, who)) expectShape(expectSuccess(reply), v.object({ email: v.string() }), 'body', reply);
  else expectError(reply, INVALID);
});

const subscriptionStatus = perReaderRule({
  id: 'subscription-status/is-subscribed-per-role',
  title: "GET /users/{user_id}/subscriptions/{stream_id} answers is_subscribed for each identity as the channel's subscribers are, to every role with metadata access; 400 BAD_REQUEST without it, for unknown channels and for unknown users",
  endpoint: 'GET /users/{user_id}/subscriptions/{stream_id}',
  section: 'api/get-subscription-status; changelog 12',
  levels: { min: STREAM_LEVELS.IS_SUBSCRIBED_ENDPOINT },
}, async (ctx, kind, who, turn) => {
  // Each request asks about the next identity in turn, so every pair of kind and target comes up.
  const target = READERS[turn % READERS.length]!;
  const reply = await ctx.as(who).get(`/users/${ctx.identity(target).userId}/subscriptions/${kind.channel.streamId}`);
  if (!hasMetadata(ctx, kind, who)) return void expectError(reply, INVALID);
  const body = expectShape(expectSuccess(reply), v.object({ is_subscribed: v.bool() }), 'body', reply);
  check(body.is_subscribed === isSubscribedTo(kind, target), `is_subscribed of the ${target} to the ${kind.label} channel, asked by the ${who}`, reply);
}, async (ctx, kinds) => {
  expectError(await ctx.as('member').get(`/users/${ctx.identity('admin').userId}/subscriptions/${UNKNOWN_ID}`), INVALID);
  expectError(await ctx.as('member').get(`/users/${UNKNOWN_ID}/subscriptions/${kinds[0]!.channel.streamId}`), INVALID);
});

export const rules: readonly Rule[] = [byId, members, emailAddress, subscriptionStatus];
