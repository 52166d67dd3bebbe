/**
 * `unread_msgs` of `POST /register` (the real register-queue page) for the run's own messages:
 * after they arrive, after some are marked read and after they are marked unread again, each is
 * listed exactly where the model says (its channel topic, matched whatever the letter case and
 * shown as its oldest unread message spells it; the one-on-one conversation with the sender; the
 * group conversation by its sorted user IDs; `mentions`) or nowhere once read, and `count`
 * agrees with what is listed, a muted topic's messages listed but not counted.
 */
import fc from 'fast-check';
import { check, expectEqual, expectSuccess } from '../../expect/assert.js';
import { sendToChannel } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';
import { conversationRule, postFlags, sendDirect } from './message-flags-support.js';
import { type UnreadState, unreadState } from './unread-support.js';

/** Level 170: `POST /user_topics`, used to mute the second topic. */
const USER_TOPICS_ENDPOINT = 170;

/** Where one of our messages must be listed while unread. */
type Bucket = { readonly kind: 'stream'; readonly topic: string; readonly spelled: string } | { readonly kind: 'pm'; readonly other: number } | { readonly kind: 'huddle'; readonly users: string };

/** The buckets of `state` that list `id`, described as the model names them. */
function bucketsOf(state: UnreadState, id: number): string[] {
  return [
    ...state.streams.filter((e) => e.unread_message_ids.includes(id)).map((e) => `stream ${e.stream_id} topic ${e.topic}`),
    ...state.pms.filter((e) => e.unread_message_ids.includes(id)).map((e) => `pm ${e.other_user_id ?? e.sender_id}`),
    ...state.huddles.filter((e) => e.unread_message_ids.includes(id)).map((e) => `huddle ${e.user_ids_string}`),
  ];
}

/** Checks every message of ours against the model: listed in its bucket iff unread, each topic bucket exactly ours. */
function checkOurs(state: UnreadState, channelId: number, ours: ReadonlyMap<number, Bucket>, unread: ReadonlySet<number>, mention: number, what: string): void {
  for (const [id, bucket] of ours) {
    const expected = !unread.has(id) ? [] : [bucket.kind === 'stream' ? `stream ${channelId} topic ${spellingFor(ours, unread, bucket.topic)}` : bucket.kind === 'pm' ? `pm ${bucket.other}` : `huddle ${bucket.users}`];
    expectEqual(bucketsOf(state, id), expected, `${what}: where message ${id} is listed`, state.reply);
  }
  for (const topic of new Set([...ours.values()].flatMap((b) => (b.kind === 'stream' ? [b.topic] : [])))) {
    const want = [...ours].filter(([id, b]) => b.kind === 'stream' && b.topic === topic && unread.has(id)).map(([id]) => id);
    const entries = state.streams.filter((e) => e.stream_id === channelId && e.topic.toLowerCase() === topic.toLowerCase());
    expectEqual(entries.map((e) => e.unread_message_ids), want.length === 0 ? [] : [want], `${what}: the topic entries of ${topic}`, state.reply);
  }
  check(state.mentions.includes(mention) === unread.has(mention), `${what}: the mention ${mention} is ${unread.has(mention) ? 'missing from' : 'still in'} mentions`, state.reply);
}

/** How a topic bucket is spelled: as its oldest unread message was sent. */
function spellingFor(ours: ReadonlyMap<number, Bucket>, unread: ReadonlySet<number>, topic: string): string {
  const oldest = [...ours].filter(([id, b]) => b.kind === 'stream' && b.topic === topic && unread.has(id)).sort(([a], [b]) => a - b)[0];
  return oldest && oldest[1].kind === 'stream' ? oldest[1].spelled : topic;
}

const ownMessages = conversationRule({
  id: 'unread/register-lists-own-messages-exactly',
  title: "unread_msgs lists each of the run's unread messages in its channel topic (letter case ignored, shown as the oldest unread spells it), one-on-one or group conversation and mentions, nowhere once read and again once unread; count equals the direct, group and unmuted channel messages listed (a muted topic is listed, not counted)",
  section: 'api/register-queue (unread_msgs); changelog 44, 90, 119',
  endpoint: 'POST /register',
}, async (ctx, { sender, reader, channel }) => {
  const [me, member, admin] = [ctx.identity('second-member'), ctx.identity('member').userId, ctx.identity('admin').userId];
  const level = ctx.featureLevel;
  await ctx.property('read subset x mute second topic', [fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), fc.boolean()], async (readMask, muteSecond) => {
    const [first, second] = [ctx.name('unread-a'), `${ctx.name('unread-b')} Topic`];
    const ours = new Map<number, Bucket>();
    const stream = async (topic: string, spelled: string, content: string) => ours.set(await sendToChannel(sender, channel.id, spelled, content), { kind: 'stream', topic, spelled });
    await stream(first, first, 'one');
    const mention = await sendToChannel(sender, channel.id, first, `@**${me.fullName}|${me.userId}** two`);
    ours.set(mention, { kind: 'stream', topic: first, spelled: first });
    await stream(second, second, 'three');
    await stream(second, second.toUpperCase(), 'four');
    ours.set(await sendDirect(sender, [me.userId], 'five'), { kind: 'pm', other: member });
    ours.set(await sendDirect(sender, [me.userId, admin], 'six'), { kind: 'huddle', users: [member, me.userId, admin].sort((a, b) => a - b).join(',') });
    const mute = muteSecond && level >= USER_TOPICS_ENDPOINT;
    if (mute) {
      expectSuccess(await reader.post('/user_topics', { stream_id: channel.id, topic: second, visibility_policy: 1 }));
      ctx.cleanup(`unmute topic ${second}`, async (c) => void (await c.as('second-member').post('/user_topics', { stream_id: channel.id, topic: second, visibility_policy: 0 })));
    }
    const all = new Set(ours.keys());
    const first1 = await unreadState(reader, level);
    if (mute) check(!first1.counts(channel.id, second), 'the muted topic is not muted in the register answer', first1.reply);
    checkOurs(first1, channel.id, ours, all, mention, 'after sending');
    const read = [...ours.keys()].filter((_, i) => readMask[i]);
    if (read.length > 0) expectSuccess(await postFlags(reader, 'add', 'read', read));
    checkOurs(await unreadState(reader, level), channel.id, ours, new Set([...all].filter((id) => !read.includes(id))), mention, `after marking ${read.length} read`);
    if (read.length > 0) expectSuccess(await postFlags(reader, 'remove', 'read', read));
    checkOurs(await unreadState(reader, level), channel.id, ours, all, mention, 'after marking them unread again');
    // Leave nothing of ours unread for the rules after this one.
    expectSuccess(await postFlags(reader, 'add', 'read', [...all]));
  }, { maxRuns: 3 });
});

export const rules: readonly Rule[] = [ownMessages];
