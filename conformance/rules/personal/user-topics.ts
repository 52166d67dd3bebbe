/**
 * `POST /user_topics` (sections 3.1 and 4.4; endpoint since level 170): each visibility policy
 * (followed since 219), read back through the `user_topics` state of `POST /register`; the topic
 * length limit of section 8; the empty-topic display name (334); unknown channels and invalid
 * values. Every policy the rules set is removed again (policy 0) at the end.
 */
import fc from 'fast-check';
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { caseVariant, printableText } from '../support/arbitraries.js';
import { type Channel, createChannels, realmLimits } from '../support/channel-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { codePoints, textOfLength } from '../channels/subscribe-support.js';
import type { Rule, RuleContext } from '../types.js';
import { clearPolicyLater, memberTopicRule, policiesAt, topicsIn, USER_TOPIC_LEVELS } from './user-topics-support.js';

const LEVELS = USER_TOPIC_LEVELS;

/** Topics (per rule context) whose removal is already registered. */
const clearing = new WeakMap<RuleContext, Set<string>>();

/** Sets a policy as the member; a policy that was set is removed again after the rule. */
async function setPolicy(ctx: RuleContext, client: ApiClient, channel: Channel, topic: string, policy: number) {
  const reply = await client.post('/user_topics', { stream_id: channel.streamId, topic, visibility_policy: policy });
  const seen = clearing.get(ctx) ?? new Set<string>();
  clearing.set(ctx, seen);
  const key = `${channel.streamId}:${topic}`;
  if (reply.status === 200 && policy !== 0 && !seen.has(key)) {
    seen.add(key);
    clearPolicyLater(ctx, `clear the policy of ${topic}`, channel.streamId, topic);
  }
  return reply;
}

const setAndReadBack = memberTopicRule({
  id: 'user-topics/set-policy-read-back',
  title: 'each visibility policy succeeds for topics without any message and is what user_topics then holds (none for policy 0)',
  section: '3.1; 4.4',
  channel: 'topics',
}, async (ctx, client, channel) => {
  const { maxTopicLength } = await realmLimits(client);
  const text = printableText(20).filter((t) => t.trim() === t);
  // Two policies in a row on one topic: setting, changing and removing.
  await ctx.property('text x first policy x second policy', [text, fc.constantFrom(...policiesAt(ctx.featureLevel)), fc.constantFrom(...policiesAt(ctx.featureLevel))], async (tail, first, second) => {
    const topic = [...`${ctx.name('topic')} ${tail}`].slice(0, maxTopicLength).join('').trim();
    for (const policy of [first, second]) {
      const reply = await setPolicy(ctx, client, channel, topic, policy);
      expectPlainSuccess(reply);
      const mine = (await topicsIn(ctx, client, channel)).filter((entry) => entry.topic_name.toLowerCase() === topic.toLowerCase());
      expectEqual(mine.map((entry) => [entry.topic_name, entry.visibility_policy]), policy === 0 ? [] : [[topic, policy]], `user_topics for ${JSON.stringify(topic)} after policy ${policy}`);
    }
  }, { maxRuns: 8 });
});

const caseInsensitive = memberTopicRule({
  id: 'user-topics/topic-matched-case-insensitively',
  title: 'a topic differing from one with a policy only in letter case updates that policy instead of adding another',
  section: '3.1; 4.4',
  channel: 'topic-case',
}, async (ctx, client, channel) => {
  const base = `${ctx.name('Topic')} Case`;
  const nonzero = policiesAt(ctx.featureLevel).filter((p) => p !== 0);
  expectSuccess(await setPolicy(ctx, client, channel, base, 1));
  await ctx.property('case variants x policy', [caseVariant(base), fc.constantFrom(...nonzero)], async (variant, policy) => {
    expectSuccess(await setPolicy(ctx, client, channel, variant, policy));
    const same = (await topicsIn(ctx, client, channel)).filter((entry) => entry.topic_name.toLowerCase() === base.toLowerCase());
    expectEqual(same.map((entry) => entry.visibility_policy), [policy], `policies of ${base} in any letter case`);
  }, { maxRuns: 5 });
});

const topicLength = memberTopicRule({
  id: 'user-topics/topic-length-limit',
  title: 'a topic of max_topic_length code points is accepted; a longer one is refused with 400 BAD_REQUEST and stores nothing',
  section: '4.4; 8',
  channel: 'topic-length',
}, async (ctx, client, channel) => {
  const { maxTopicLength: max } = await realmLimits(client);
  await ctx.property('one to five code points over', [fc.integer({ min: 1, max: 5 }).chain((over) => textOfLength(max + over)), fc.constantFrom(1, 2)], async (topic, policy) => {
    expectError(await setPolicy(ctx, client, channel, topic, policy), { status: 400, code: 'BAD_REQUEST' });
  });
  expectEqual(await topicsIn(ctx, client, channel), [], 'user_topics after the refused requests');
  await ctx.property('exactly the limit', [textOfLength(max)], async (topic) => {
    check(codePoints(topic) === max, 'generator: wrong length');
    expectSuccess(await setPolicy(ctx, client, channel, topic, 1));
    const stored = (await topicsIn(ctx, client, channel)).map((entry) => entry.topic_name);
    check(stored.includes(topic), `the topic of ${max} code points is not in user_topics: ${JSON.stringify(stored)}`);
  }, { maxRuns: 3 });
});

const emptyTopicName = memberTopicRule({
  id: 'user-topics/empty-topic-display-name-read-as-empty',
  title: "the realm's empty-topic display name as topic sets the policy of the empty topic (feature level 334)",
  section: '1 convention 6; 4.4',
  levels: { min: LEVELS.EMPTY_TOPIC },
  deviation: 'user-topics-empty-topic-display-name-kept',
  channel: 'empty-topic',
}, async (ctx, client, channel) => {
  const { emptyTopicDisplayName } = await realmLimits(client);
  check(typeof emptyTopicDisplayName === 'string' && emptyTopicDisplayName !== '', 'register gives no realm_empty_topic_display_name at level >= 334');
  clearPolicyLater(ctx, 'clear the empty topic policy', channel.streamId, '');
  expectSuccess(await setPolicy(ctx, client, channel, emptyTopicDisplayName, 1));
  const entries = await topicsIn(ctx, client, channel);
  if (entries.length === 1 && entries[0]!.topic_name === emptyTopicDisplayName) {
    ctx.deviation('user-topics-empty-topic-display-name-kept', `stored under ${JSON.stringify(emptyTopicDisplayName)}`);
    return;
  }
  expectEqual(entries.map((entry) => [entry.topic_name, entry.visibility_policy]), [['', 1]], 'user_topics of the channel (with empty_topic_name)');
});

const unknownChannel: Rule = {
  id: 'user-topics/unknown-channel-bad-request',
  title: 'a stream_id of no channel, or (to set a policy) of a private channel the caller cannot access, is refused with 400 BAD_REQUEST',
  endpoint: 'POST /user_topics',
  section: '4.4; 7',
  levels: { min: LEVELS.ENDPOINT },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const client = ctx.as('member');
    const [secret] = (await createChannels(ctx, 'admin', ['topic-secret'], { inviteOnly: true, principals: [ctx.identity('admin').userId] })) as [Channel];
    const nonzero = policiesAt(ctx.featureLevel).filter((p) => p !== 0);
    const target = fc.oneof(
      fc.tuple(fc.integer({ min: 1_000_000_000, max: 2 ** 31 - 1 }), fc.constantFrom(...policiesAt(ctx.featureLevel))),
      fc.tuple(fc.constant(secret.streamId), fc.constantFrom(...nonzero)),
    );
    await ctx.property('unknown or inaccessible channels', [target, printableText(10).filter((t) => t.trim() !== '')], async ([streamId, policy], topic) => {
      expectError(await client.post('/user_topics', { stream_id: streamId, topic, visibility_policy: policy }), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const invalidValues = memberTopicRule({
  id: 'user-topics/invalid-parameters-refused',
  title: 'a missing parameter is REQUEST_VARIABLE_MISSING; a visibility_policy outside the level\'s set (3 before 219) or a non-integer is 400 BAD_REQUEST',
  section: '3.1; 4.4',
  channel: 'topic-invalid',
}, async (ctx, client, channel) => {
  const complete: JsonObject = { stream_id: channel.streamId, topic: 'x', visibility_policy: 1 };
  clearPolicyLater(ctx, 'clear topic x', channel.streamId, 'x');
  await ctx.property('one parameter left out', [fc.constantFrom('stream_id', 'topic', 'visibility_policy')], async (left) => {
    const params = Object.fromEntries(Object.entries(complete).filter(([name]) => name !== left));
    expectError(await client.post('/user_topics', params), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
  }, { maxRuns: 6 });
  const allowed = new Set(policiesAt(ctx.featureLevel));
  const badPolicy = fc.oneof(
    fc.integer({ min: -1000, max: 1000 }).filter((p) => !allowed.has(p)).map(String),
    fc.constantFrom('"1"', '1.5', 'abc', '[1]', '{}'),
  );
  const badStream = fc.constantFrom('"1"', '1.5', 'abc', '[1]');
  await ctx.property('invalid values', [fc.oneof(badPolicy.map((p) => ({ visibility_policy: p })), badStream.map((s) => ({ stream_id: s })))], async (bad) => {
    expectError(await client.post('/user_topics', { ...complete, ...bad }), { status: 400, code: 'BAD_REQUEST' });
  });
  expectEqual(await topicsIn(ctx, client, channel), [], 'user_topics after the refused requests');
});

const noCredentials: Rule = {
  id: 'user-topics/no-credentials-unauthorized',
  title: 'POST /user_topics without credentials is answered 401 UNAUTHORIZED',
  endpoint: 'POST /user_topics',
  section: '5.4',
  levels: { min: LEVELS.ENDPOINT },
  writes: false,
  async run(ctx) {
    expectError(await ctx.anonymous.post('/user_topics', { stream_id: 1, topic: 'x', visibility_policy: 1 }), { status: 401, code: 'UNAUTHORIZED' });
  },
};

export const rules: readonly Rule[] = [setAndReadBack, caseInsensitive, topicLength, emptyTopicName, unknownChannel, invalidValues, noCredentials];
