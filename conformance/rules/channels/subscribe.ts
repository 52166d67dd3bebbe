/**
 * `POST /users/me/subscriptions` (section 4.1): who is subscribed, the response maps, creating
 * channels with the requested settings, and the parameter constraints (channel name and
 * description limits of section 8, forbidden characters, malformed values). Permission rules
 * (guests, principals, private channels) are in subscribe-permissions.ts.
 */
import fc from 'fast-check';
import { check, expectEqual, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { caseVariant, notJsonBoolean, printableText } from '../support/arbitraries.js';
import { type Channel, channelExists, createChannels, INTEGER_PRINCIPALS_LEVEL, KEYED_BY_ID_LEVEL, ownSubscriptions, userDirectory } from '../support/channel-fixtures.js';
import { channelCreationRule, expectCreationRefused, expectSubscribeOutcome, forbiddenNameChar, memberSubscriber, SUBSCRIBE_PARAMS } from './subscribe-support.js';
import { SUBSCRIPTION_LEVELS, subscriptionShape } from './subscription-shape.js';
import type { Rule } from '../types.js';
import { checkUnknownParamsReported } from '../conventions/unknown-parameters.js';

const selfSubscribe: Rule = {
  id: 'subscribe/principals-omitted-subscribes-requester',
  title: 'without principals (or with an empty list) the requester is subscribed; channels it already has are listed as already subscribed',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1 rule 1',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { member, me, directory } = await memberSubscriber(ctx);
    const channels = await createChannels(ctx, 'admin', ['self-a', 'self-b', 'self-c']);
    const mine = new Set<string>();
    ctx.cleanup('member leaves the channels', async (c) => void (await c.as('member').delete('/users/me/subscriptions', { subscriptions: channels.map((x) => x.name) })));
    await ctx.property(
      'subsets of the channels, principals omitted or [], then maybe leaving',
      [fc.subarray(channels, { minLength: 1 }), fc.boolean(), fc.boolean()],
      async (chosen, emptyList, leave) => {
        const names = chosen.map((x) => x.name);
        const reply = await member.post('/users/me/subscriptions', { subscriptions: names.map((name) => ({ name })), principals: emptyList ? [] : undefined });
        expectSubscribeOutcome(ctx, reply, directory, new Map([[me, { subscribed: names.filter((n) => !mine.has(n)), already: names.filter((n) => mine.has(n)) }]]));
        names.forEach((name) => mine.add(name));
        const { entries, reply: listed } = await ownSubscriptions(member);
        for (const name of names) check(entries.some((entry) => entry.name === name), `GET /users/me/subscriptions does not list ${name}`, listed);
        if (leave) {
          expectSuccess(await member.delete('/users/me/subscriptions', { subscriptions: names }));
          names.forEach((name) => mine.delete(name));
        }
      },
      { maxRuns: 8 },
    );
  },
};

/** Both sides of level 289: response maps keyed by user ID, API email before. */
function keyedRule(byId: boolean): Rule {
  return {
    id: byId ? 'subscribe/response-keyed-by-user-id' : 'subscribe/response-keyed-by-email',
    title: byId
      ? 'the subscribed and already_subscribed maps are keyed by user ID (as a string) since feature level 289'
      : 'the subscribed and already_subscribed maps are keyed by API email before feature level 289',
    endpoint: 'POST /users/me/subscriptions',
    section: '4.1; 9',
    // Its principals are user IDs, accepted from level 9.
    levels: byId ? { min: KEYED_BY_ID_LEVEL } : { min: INTEGER_PRINCIPALS_LEVEL, max: KEYED_BY_ID_LEVEL - 1 },
    writes: true,
    needs: ['admin', 'member', 'second-member'],
    async run(ctx) {
      const admin = ctx.as('admin');
      const directory = await userDirectory(admin);
      const [channel] = await createChannels(ctx, 'admin', ['keyed']);
      const users = [ctx.identity('member').userId, ctx.identity('second-member').userId];
      const subscribed = new Set<number>();
      await ctx.property('subsets of two members, by ID', [fc.subarray(users, { minLength: 1 })], async (principals) => {
        const reply = await admin.post('/users/me/subscriptions', { subscriptions: [{ name: channel!.name }], principals });
        const expected = new Map(principals.map((id) => [id, subscribed.has(id) ? { subscribed: [], already: [channel!.name] } : { subscribed: [channel!.name], already: [] }]));
        const body = expectSubscribeOutcome(ctx, reply, directory, expected);
        for (const key of [...Object.keys(body.subscribed as object), ...Object.keys(body.already_subscribed as object)]) {
          if (byId) check(/^[1-9][0-9]*$/.test(key), `key ${key} is not a user ID`, reply);
          else check(!/^[0-9]+$/.test(key) && key.includes('@'), `key ${key} is not an email address`, reply);
        }
        principals.forEach((id) => subscribed.add(id));
      }, { maxRuns: 4 });
    },
  };
}

const ANONYMOUS_GROUP_LEVEL = SUBSCRIPTION_LEVELS.CAN_ADD_SUBSCRIBERS;

const createsWithSettings: Rule = {
  id: 'subscribe/creates-channel-with-requested-settings',
  title: 'a channel that does not exist is created with the requested privacy, history, description and group settings, and the creator as channel administrator',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1; 3.4',
  writes: true,
  needs: ['admin', 'second-member'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const me = ctx.identity('admin').userId;
    const other = ctx.identity('second-member').userId;
    const description = printableText(40).filter((text) => text.trim() === text);
    await ctx.property(
      'invite_only x history_public_to_subscribers x description x can_add_subscribers_group',
      [fc.boolean(), fc.option(fc.boolean(), { nil: undefined }), description, fc.boolean()],
      async (inviteOnly, history, text, withGroup) => {
        const group = withGroup && ctx.featureLevel >= ANONYMOUS_GROUP_LEVEL ? { direct_members: [other], direct_subgroups: [] } : undefined;
        const name = ctx.name('created');
        const reply = await admin.post('/users/me/subscriptions', {
          subscriptions: [{ name, description: text }],
          invite_only: inviteOnly,
          history_public_to_subscribers: history,
          can_add_subscribers_group: group,
        });
        ctx.cleanup(`archive ${name}`, async (c) => {
          const id = (await c.as('admin').get('/get_stream_id', { stream: name })).body?.stream_id;
          if (typeof id === 'number') await c.as('admin').delete(`/streams/${id}`);
          await c.as('admin').delete('/users/me/subscriptions', { subscriptions: [name] });
        });
        expectSuccess(reply, { ignored: [] });
        const { entries, reply: listed } = await ownSubscriptions(admin);
        const entry = entries.find((candidate) => candidate.name === name);
        if (!entry) fail(`the new channel ${name} is not among the creator's subscriptions`, listed);
        expectShape(entry, subscriptionShape(ctx.featureLevel, { includeSubscribers: false }), `subscriptions[${name}]`, listed);
        expectEqual(entry.invite_only, inviteOnly, 'invite_only', listed);
        expectEqual(entry.is_web_public, false, 'is_web_public', listed);
        expectEqual(entry.description, text, 'description', listed);
        // Public channels always have public history; private ones default to protected history.
        expectEqual(entry.history_public_to_subscribers, inviteOnly ? history === true : true, 'history_public_to_subscribers', listed);
        if (ctx.featureLevel >= SUBSCRIPTION_LEVELS.CREATOR_ID) expectEqual(entry.creator_id, me, 'creator_id', listed);
        if (ctx.featureLevel >= SUBSCRIPTION_LEVELS.CAN_ADMINISTER) {
          expectEqual(entry.can_administer_channel_group, { direct_members: [me], direct_subgroups: [] }, 'can_administer_channel_group (default: the creator)', listed);
        }
        if (group) expectEqual(entry.can_add_subscribers_group, group, 'can_add_subscribers_group', listed);
      },
      { maxRuns: 4 },
    );
  },
};

const caseInsensitive: Rule = {
  id: 'subscribe/existing-channel-matched-case-insensitively',
  title: 'a name differing from an existing channel only in letter case subscribes to that channel, reported under its stored name',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { member, me, directory } = await memberSubscriber(ctx);
    const [channel] = (await createChannels(ctx, 'admin', ['MixedCase'])) as [Channel];
    let subscribed = false;
    await ctx.property('case variants of the stored name', [caseVariant(channel.name)], async (variant) => {
      const reply = await member.post('/users/me/subscriptions', { subscriptions: [{ name: variant }] });
      expectSubscribeOutcome(ctx, reply, directory, new Map([[me, subscribed ? { subscribed: [], already: [channel.name] } : { subscribed: [channel.name], already: [] }]]));
      subscribed = true;
      const { entries, reply: listed } = await ownSubscriptions(member);
      const same = entries.filter((entry) => String(entry.name).toLowerCase() === channel.name.toLowerCase());
      expectEqual(same.map((entry) => [entry.stream_id, entry.name]), [[channel.streamId, channel.name]], 'channels with that name in any case', listed);
    }, { maxRuns: 6 });
  },
};

const invalidNames = channelCreationRule({
  id: 'subscribe/channel-name-invalid-characters-refused',
  title: 'channel names that are blank or contain control characters or Unicode non-characters are refused with 400 BAD_REQUEST, atomically',
  section: '2.1; 8',
}, async (ctx, admin) => {
  const bad = fc.oneof(
    fc.tuple(printableText(6), forbiddenNameChar(), printableText(6)).map(([a, c, b]) => `x${a}${c}${b}x`),
    fc.constantFrom('', ' ', '   ', '\u00a0', ' \u3000 '),
  );
  await ctx.property('a valid new name, then an invalid one', [bad], async (name) => {
    const valid = ctx.name('chars-ok');
    await expectCreationRefused(admin, [{ name: valid }, { name }], valid, 'an invalid name');
  });
});

const malformed: Rule = {
  id: 'subscribe/malformed-parameters-refused',
  title: 'a missing subscriptions list is REQUEST_VARIABLE_MISSING; malformed subscriptions, principals or booleans are 400 BAD_REQUEST and create nothing',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1; 1 convention 2; 7',
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const member = ctx.as('member');
    const missing = await member.post('/users/me/subscriptions', { invite_only: false });
    expectError(missing, { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    const badSubscriptions = fc.constantFrom('"abc"', '{}', '[1]', '[{"name": 5}]', '[{"name": "x", "description": 5}]', 'not json', '[["x"]]', 'null');
    const badPrincipals = fc.constantFrom('[1, "a@b.c"]', '"x"', '{"a": 1}', '[1.5]', '[null]', '5');
    const booleanParam = fc.constantFrom('invite_only', 'announce', 'authorization_errors_fatal', 'history_public_to_subscribers');
    const broken = fc.oneof(
      badSubscriptions.map((value) => ({ subscriptions: value })),
      badPrincipals.map((value) => ({ principals: value })),
      fc
        .tuple(booleanParam, notJsonBoolean())
        // history_public_to_subscribers is nullable: JSON null means "not given".
        .filter(([param, value]) => !(param === 'history_public_to_subscribers' && value.trim() === 'null'))
        .map(([param, value]) => Object.fromEntries([[param, value]]) as Record<string, string>),
    );
    await ctx.property('one malformed parameter', [broken], async (params) => {
      const name = ctx.name('malformed');
      const reply = await member.post('/users/me/subscriptions', { subscriptions: [{ name }], ...params });
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
      check(!(await channelExists(member, name)), `${name} was created by a refused request`);
    });
  },
};

const ignoredParameters: Rule = {
  id: 'subscribe/ignored-parameters-reported',
  title: 'unknown parameters of a successful subscribe are listed, sorted, in ignored_parameters_unsupported',
  endpoint: 'POST /users/me/subscriptions',
  section: '1 convention 4; 9.3',
  levels: { min: 167 },
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const [channel] = (await createChannels(ctx, 'admin', ['ignored'])) as [Channel];
    await checkUnknownParamsReported(ctx, {
      declared: SUBSCRIBE_PARAMS,
      label: 'unknown names next to supported ones',
      valueLength: 8,
      send: (extra) => admin.post('/users/me/subscriptions', [['subscriptions', [{ name: channel.name }]], ['announce', false], ...extra]),
    });
  },
};

export const rules: readonly Rule[] = [
  selfSubscribe,
  keyedRule(true),
  keyedRule(false),
  createsWithSettings,
  caseInsensitive,
  invalidNames,
  malformed,
  ignoredParameters,
];
