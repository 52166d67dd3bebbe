/**
 * Reading subscriptions: `GET /users/me/subscriptions` (entry shape per feature level,
 * `include_subscribers`) and `GET /get_stream_id`; plus the credentials check shared by every
 * subscription endpoint.
 */
import fc from 'fast-check';
import { check, expectEqual, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { isJsonBoolean, notJsonBoolean, printableText } from '../support/arbitraries.js';
import { type Channel, createChannels, ownSubscriptions, sorted } from '../support/channel-fixtures.js';
import { subscriptionShape } from './subscription-shape.js';
import type { Rule } from '../types.js';
import { ignoredNames, unknownParams } from '../conventions/unknown-parameters.js';

/** Level 412: include_subscribers also accepts `partial`. */
const PARTIAL_LEVEL = 412;

const entryShape: Rule = {
  id: 'subscriptions-list/entry-shape',
  title: "every entry of GET /users/me/subscriptions is a subscription object of the level's shape, for every identity",
  endpoint: 'GET /users/me/subscriptions',
  section: '4.1',
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    // At least one private and one public channel of ours, with a description to render.
    await createChannels(ctx, 'admin', ['shape-public'], { description: '**bold** and `code`' });
    await createChannels(ctx, 'admin', ['shape-private'], { inviteOnly: true, principals: [ctx.identity('admin').userId] });
    for (const identity of ctx.identities) {
      const client = ctx.anonymous.withCredentials(identity.email, identity.apiKey);
      const { entries, reply } = await ownSubscriptions(client);
      expectShape(entries, v.array(subscriptionShape(ctx.featureLevel, { includeSubscribers: false })), `subscriptions of ${identity.email}`, reply);
      const ids = entries.map((entry) => entry.stream_id);
      check(new Set(ids).size === ids.length, `a channel is listed twice for ${identity.email}`, reply);
    }
  },
};

const includeSubscribers: Rule = {
  id: 'subscriptions-list/include-subscribers',
  title: 'include_subscribers=true adds each channel\'s subscriber IDs (exactly the subscribers); false or absent leaves them out; unknown parameters are reported',
  endpoint: 'GET /users/me/subscriptions',
  section: '4.1',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const admin = ctx.identity('admin').userId;
    const member = ctx.identity('member').userId;
    const [channel] = (await createChannels(ctx, 'admin', ['subscribers'], { principals: [admin, member] })) as [Channel];
    const client = ctx.as('member');
    const extras = ctx.featureLevel >= 167 ? unknownParams(['include_subscribers'], { maxLength: 3, valueLength: 6 }) : fc.constant([]);
    await ctx.property('true, false or absent, with unknown parameters', [fc.option(fc.boolean(), { nil: undefined }), extras], async (include, extra) => {
      const reply = await client.get('/users/me/subscriptions', [['include_subscribers', include], ...extra]);
      const body = expectSuccess(reply, { ignored: ignoredNames(extra) });
      const entries = expectShape(body.subscriptions, v.array(subscriptionShape(ctx.featureLevel, { includeSubscribers: include === true })), 'subscriptions', reply);
      const entry = entries.find((candidate) => candidate.stream_id === channel.streamId);
      if (!entry) fail(`channel ${channel.name} is not listed`, reply);
      if (include === true) expectEqual(sorted(entry.subscribers as number[]), sorted([admin, member]), `subscribers of ${channel.name}`, reply);
    }, { maxRuns: 10 });
  },
};

const includeSubscribersInvalid: Rule = {
  id: 'subscriptions-list/include-subscribers-refuses-non-boolean',
  title: 'include_subscribers values that are not JSON booleans (nor partial, since level 412) are refused with 400 BAD_REQUEST',
  endpoint: 'GET /users/me/subscriptions',
  section: '1 convention 2',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const value = notJsonBoolean().filter((text) => !(text === 'partial' && ctx.featureLevel >= PARTIAL_LEVEL) && !isJsonBoolean(text));
    await ctx.property('non-boolean texts', [value], async (text) => {
      expectError(await client.get('/users/me/subscriptions', { include_subscribers: text }), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const streamIdMatches: Rule = {
  id: 'get-stream-id/returns-listed-id',
  title: "GET /get_stream_id returns, for the name of each of the caller's subscriptions, the stream_id the listing gives",
  endpoint: 'GET /get_stream_id',
  section: '4.1',
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    const client = ctx.as('admin');
    await createChannels(ctx, 'admin', ['id-a', 'id-b']);
    await createChannels(ctx, 'admin', ['id-private'], { inviteOnly: true, principals: [ctx.identity('admin').userId] });
    const { entries } = await ownSubscriptions(client);
    const pairs = entries.map((entry) => [String(entry.name), Number(entry.stream_id)] as const);
    await ctx.property('subscribed channels', [fc.constantFrom(...pairs)], async ([name, id]) => {
      const reply = await client.get('/get_stream_id', { stream: name });
      const body = expectShape(expectSuccess(reply, { ignored: [] }), v.object({ result: v.literal('success'), msg: v.string(), stream_id: v.int() }, { exact: true }), 'body', reply);
      expectEqual(body.stream_id, id, `stream_id of ${name}`, reply);
    });
  },
};

const streamIdUnknown: Rule = {
  id: 'get-stream-id/unknown-or-inaccessible-bad-request',
  title: 'GET /get_stream_id answers 400 BAD_REQUEST for names of no channel and of private channels the caller cannot access; REQUEST_VARIABLE_MISSING without stream',
  endpoint: 'GET /get_stream_id',
  section: '4.1; 7',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const member = ctx.as('member');
    expectError(await member.get('/get_stream_id'), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    const [secret] = (await createChannels(ctx, 'admin', ['hidden'], { inviteOnly: true, principals: [ctx.identity('admin').userId] })) as [Channel];
    expectError(await member.get('/get_stream_id', { stream: secret.name }), { status: 400, code: 'BAD_REQUEST' });
    await ctx.property('names no channel has', [printableText(20)], async (text) => {
      expectError(await member.get('/get_stream_id', { stream: `${ctx.name('nothing')}${text}` }), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const noCredentials: Rule = {
  id: 'subscriptions/no-credentials-unauthorized',
  title: 'every subscription endpoint answers a request without credentials with 401 UNAUTHORIZED and changes nothing',
  endpoint: '/users/me/subscriptions, /get_stream_id',
  section: '5.4',
  writes: false,
  async run(ctx) {
    const calls = [
      () => ctx.anonymous.get('/users/me/subscriptions'),
      () => ctx.anonymous.post('/users/me/subscriptions', { subscriptions: [{ name: ctx.name('anonymous') }] }),
      () => ctx.anonymous.delete('/users/me/subscriptions', { subscriptions: ['Verona'] }),
      () => ctx.anonymous.get('/get_stream_id', { stream: 'Verona' }),
    ];
    await ctx.property('each endpoint', [fc.integer({ min: 0, max: calls.length - 1 })], async (index) => {
      expectError(await calls[index]!(), { status: 401, code: 'UNAUTHORIZED' });
    }, { maxRuns: 8 });
  },
};

export const rules: readonly Rule[] = [entryShape, includeSubscribers, includeSubscribersInvalid, streamIdMatches, streamIdUnknown, noCredentials];
