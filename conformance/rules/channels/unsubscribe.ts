/**
 * `DELETE /users/me/subscriptions` (unsubscribe; reference section 4): `removed` and
 * `not_removed`, unknown channels, malformed parameters. Refused requests change nothing.
 */
import fc from 'fast-check';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { printableText } from '../support/arbitraries.js';
import { type Channel, createChannels, ownSubscriptions, sorted } from '../support/channel-fixtures.js';
import type { Rule } from '../types.js';

/** The success body (OpenAPI unsubscribe, additionalProperties false). */
const unsubscribeShape = v.object(
  {
    result: v.literal('success'),
    msg: v.string(),
    removed: v.array(v.string()),
    not_removed: v.array(v.string()),
    ignored_parameters_unsupported: v.optional(v.array(v.string())),
  },
  { exact: true },
);

const removedNotRemoved: Rule = {
  id: 'unsubscribe/removed-and-not-removed',
  title: 'unsubscribing lists the channels left under removed and those the user was not subscribed to under not_removed, and the listing agrees',
  endpoint: 'DELETE /users/me/subscriptions',
  section: '4.1',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const member = ctx.as('member');
    const channels = await createChannels(ctx, 'admin', ['leave-a', 'leave-b', 'leave-c']);
    const mine = new Set<string>();
    await ctx.property(
      'join a subset, then leave a subset',
      [fc.subarray(channels), fc.subarray(channels, { minLength: 1 })],
      async (join, leave) => {
        if (join.length > 0) expectSuccess(await member.post('/users/me/subscriptions', { subscriptions: join.map((x: Channel) => ({ name: x.name })) }));
        join.forEach((x) => mine.add(x.name));
        const names = leave.map((x) => x.name);
        const reply = await member.delete('/users/me/subscriptions', { subscriptions: names });
        const body = expectShape(expectSuccess(reply, { ignored: [] }), unsubscribeShape, 'body', reply);
        expectEqual(sorted(body.removed), sorted(names.filter((name) => mine.has(name))), 'removed', reply);
        expectEqual(sorted(body.not_removed), sorted(names.filter((name) => !mine.has(name))), 'not_removed', reply);
        names.forEach((name) => mine.delete(name));
        const { entries, reply: listed } = await ownSubscriptions(member);
        for (const channel of channels) {
          expectEqual(entries.some((entry) => entry.stream_id === channel.streamId), mine.has(channel.name), `${channel.name} listed`, listed);
        }
      },
      { maxRuns: 8 },
    );
  },
};

const unknownChannel: Rule = {
  id: 'unsubscribe/unknown-channel-bad-request',
  title: 'unsubscribing from a name no channel has is refused with 400 BAD_REQUEST, and the other named subscriptions stay',
  endpoint: 'DELETE /users/me/subscriptions',
  section: '4.1; 7',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const member = ctx.as('member');
    const [channel] = (await createChannels(ctx, 'admin', ['stay'], { principals: [ctx.identity('admin').userId, ctx.identity('member').userId] })) as [Channel];
    const suffix = printableText(12).filter((text) => text.trim() === text);
    await ctx.property('a subscribed channel, then an unknown name', [suffix], async (text) => {
      const unknown = `${ctx.name('gone')}${text}`;
      expectError(await member.delete('/users/me/subscriptions', { subscriptions: [channel.name, unknown] }), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 8 });
    const { entries, reply } = await ownSubscriptions(member);
    check(entries.some((entry) => entry.stream_id === channel.streamId), `the refused request removed ${channel.name}`, reply);
  },
};

const malformed: Rule = {
  id: 'unsubscribe/malformed-parameters-refused',
  title: 'unsubscribing without subscriptions is REQUEST_VARIABLE_MISSING; a subscriptions value that is not a JSON list of names is 400 BAD_REQUEST',
  endpoint: 'DELETE /users/me/subscriptions',
  section: '1 convention 2; 7',
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const member = ctx.as('member');
    expectError(await member.delete('/users/me/subscriptions', {}), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    const bad = fc.constantFrom('"Verona"', 'Verona', '{}', '[1]', '[["x"]]', '[null]', 'null', '[{"name": "x"}]');
    await ctx.property('malformed subscriptions', [bad], async (value) => {
      expectError(await member.delete('/users/me/subscriptions', { subscriptions: value }), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 8 });
  },
};

export const rules: readonly Rule[] = [removedNotRemoved, unknownChannel, malformed];
