/**
 * `POST /typing` (section 4.2): the parameters by feature level (`private`, `direct`, `stream`
 * with `to` or `stream_id`, `channel`) and the documented errors. Delivery of the events is in
 * typing-delivery.ts; its rules are part of this file's list.
 */
import fc from 'fast-check';
import { expectAnyError, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { printableText } from '../support/arbitraries.js';
import { highestUserId, userDirectory } from '../support/channel-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule } from '../types.js';
import { rules as delivery } from './typing-delivery.js';
import { channelTypes, channelTyping, directType, sharedChannel, topicText, TYPING } from './typing-support.js';
import { ignoredNames, unknownParams } from '../conventions/unknown-parameters.js';

const TYPING_PARAMS = ['type', 'op', 'to', 'stream_id', 'topic', 'subject'];
const simpleSuccess = v.object({ result: v.literal('success'), msg: v.string(), ignored_parameters_unsupported: v.optional(v.array(v.string())) }, { exact: true });

const directSucceeds: Rule = {
  id: 'typing/direct-start-stop-succeeds',
  title: 'start and stop for any non-empty list of users succeed with an empty success body, the type given or defaulted; unknown parameters are reported',
  endpoint: 'POST /typing',
  section: '4.2',
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const ids = [...(await userDirectory(client)).values()].filter((user) => user.isActive).map((user) => user.userId);
    const extras = ctx.featureLevel >= 167 ? unknownParams(TYPING_PARAMS, { maxLength: 3, valueLength: 6 }) : fc.constant([]);
    await ctx.property(
      'op x type given or not x recipients x unknown parameters',
      [fc.constantFrom('start', 'stop'), fc.boolean(), fc.uniqueArray(fc.constantFrom(...ids), { minLength: 1, maxLength: 4 }), extras, fc.option(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { nil: undefined })],
      async (op, withType, to, extra, streamId) => {
        // stream_id (level 215) is ignored for direct typing, even naming no channel.
        const ignoredStream = ctx.featureLevel >= TYPING.STREAM_ID && streamId !== undefined ? [['stream_id', streamId] as const] : [];
        const reply = await client.post('/typing', [['op', op], ['to', to], ...(withType ? [['type', directType(ctx.featureLevel)] as const] : []), ...ignoredStream, ...extra]);
        expectShape(expectSuccess(reply, { ignored: ignoredNames(extra) }), simpleSuccess, 'body', reply);
      },
    );
  },
};

const privateType: (accepted: boolean) => Rule = (accepted) => ({
  id: accepted ? 'typing/private-type-accepted-before-215' : 'typing/private-type-refused',
  title: accepted ? "the legacy type 'private' is accepted for direct typing before feature level 215" : "the type 'private' is refused with 400 BAD_REQUEST since feature level 215",
  endpoint: 'POST /typing',
  section: '4.2; 9.4',
  levels: accepted ? { min: TYPING.STREAM, max: TYPING.STREAM_ID - 1 } : { min: TYPING.STREAM_ID },
  writes: false,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const reply = await ctx.as('member').post('/typing', { type: 'private', op: 'start', to: [ctx.identity('second-member').userId] });
    if (accepted) expectSuccess(reply);
    else expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  },
});

const channelSucceeds: Rule = {
  id: 'typing/channel-start-stop-succeeds',
  title: "typing in a channel (type stream, or channel since level 248; stream_id since 215, a one-element to before) succeeds for any topic",
  endpoint: 'POST /typing',
  section: '4.2',
  levels: { min: TYPING.STREAM },
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const client = ctx.as('member');
    const channel = await sharedChannel(ctx);
    // Since 215 `to` is ignored for channel typing, whatever it holds.
    const ignoredTo = ctx.featureLevel >= TYPING.STREAM_ID ? fc.option(fc.array(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { maxLength: 3 }), { nil: undefined }) : fc.constant(undefined);
    await ctx.property('type x op x topic x to', [fc.constantFrom(...channelTypes(ctx.featureLevel)), fc.constantFrom('start', 'stop'), topicText, ignoredTo], async (type, op, topic, to) => {
      const reply = await client.post('/typing', { ...channelTyping(ctx.featureLevel, type, op, channel, topic), ...(to === undefined ? {} : { to }) });
      expectPlainSuccess(reply);
    }, { maxRuns: 10 });
  },
};

const channelWithoutStreamId: Rule = {
  id: 'typing/channel-without-stream-id-bad-request',
  title: 'channel typing without stream_id is refused with 400 BAD_REQUEST',
  endpoint: 'POST /typing',
  section: '4.2',
  levels: { min: TYPING.STREAM_ID },
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    await ctx.property('type x op x topic present or not', [fc.constantFrom(...channelTypes(ctx.featureLevel)), fc.constantFrom('start', 'stop'), fc.option(topicText, { nil: undefined })], async (type, op, topic) => {
      expectError(await client.post('/typing', { type, op, topic }), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 10 });
  },
};

const directErrors: Rule = {
  id: 'typing/direct-recipient-errors',
  title: 'direct typing without to, with an empty to, or naming a user ID nobody has is refused with 400 BAD_REQUEST',
  endpoint: 'POST /typing',
  section: '4.2; 7',
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const directory = await userDirectory(client);
    const known = [...directory.keys()];
    const unknown = fc.integer({ min: highestUserId(directory) + 1, max: 2 ** 31 - 1 });
    const to = fc.oneof(
      fc.constant(undefined),
      fc.constant([] as number[]),
      fc.tuple(fc.subarray(known, { maxLength: 3 }), unknown).map(([valid, bad]) => [...valid, bad]),
    );
    await ctx.property('missing, empty or with an unknown ID', [to, fc.constantFrom('start', 'stop'), fc.boolean()], async (recipients, op, withType) => {
      const reply = await client.post('/typing', { op, to: recipients, type: withType ? directType(ctx.featureLevel) : undefined });
      // Before 215 `to` was a framework-required parameter; since then the view raises BAD_REQUEST.
      if (recipients === undefined && ctx.featureLevel < TYPING.STREAM_ID) expectAnyError(reply, 400);
      else expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const invalidValues: Rule = {
  id: 'typing/invalid-op-type-or-to-refused',
  title: 'a missing op is REQUEST_VARIABLE_MISSING; an op or type outside the allowed values, or a to that is not a JSON list of integers, is 400 BAD_REQUEST',
  endpoint: 'POST /typing',
  section: '4.2; 1 convention 2',
  writes: false,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const client = ctx.as('member');
    const to = [ctx.identity('second-member').userId];
    expectError(await client.post('/typing', { to }), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    const allowedTypes = new Set(['direct', 'private', 'stream', 'channel']);
    const broken = fc.oneof(
      printableText(10).filter((op) => op !== 'start' && op !== 'stop').map((op) => ({ op, to })),
      ...(ctx.featureLevel >= TYPING.STREAM ? [printableText(10).filter((type) => !allowedTypes.has(type)).map((type) => ({ op: 'start', to, type }))] : []),
      fc.constantFrom('2', '"2"', '[2, "a"]', '{"a": 1}', '[1.5]', 'abc', '[[1]]').map((text) => ({ op: 'start', to: text })),
    );
    await ctx.property('one invalid value', [broken], async (params) => {
      expectError(await client.post('/typing', params), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const noCredentials: Rule = {
  id: 'typing/no-credentials-unauthorized',
  title: 'a typing notification without credentials is answered 401 UNAUTHORIZED',
  endpoint: 'POST /typing',
  section: '5.4',
  writes: false,
  async run(ctx) {
    await ctx.property('any op', [fc.constantFrom('start', 'stop'), fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 3 })], async (op, to) => {
      expectError(await ctx.anonymous.post('/typing', { op, to }), { status: 401, code: 'UNAUTHORIZED' });
    }, { maxRuns: 5 });
  },
};

export const rules: readonly Rule[] = [
  directSucceeds,
  privateType(true),
  privateType(false),
  channelSucceeds,
  channelWithoutStreamId,
  directErrors,
  invalidValues,
  ...delivery,
  noCredentials,
];
