/**
 * Repeated subscription operations and what the response fields mean (section 4.1; reference
 * 2.6 and 4): subscribing twice lists the channel under `already_subscribed`, leaving twice under
 * `not_removed`, and subscribing again after leaving is a new subscription; from level 397
 * `new_subscription_messages_sent` says whether the added users were told.
 */
import { expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type Channel, createChannels, ownSubscriptions, userDirectory } from '../support/channel-fixtures.js';
import { expectSubscribeOutcome, memberSubscriber } from './subscribe-support.js';
import type { Rule } from '../types.js';

const unsubscribeShape = v.object({ removed: v.array(v.string()), not_removed: v.array(v.string()) });

const repeated: Rule = {
  id: 'subscribe/repeat-and-resubscribe',
  title: 'subscribing twice lists the channel under already_subscribed; leaving twice lists it under removed, then not_removed; subscribing after leaving lists it under subscribed again',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1; 4.1 rule 1',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { member, me, directory } = await memberSubscriber(ctx);
    const [channel] = (await createChannels(ctx, 'admin', ['repeat'])) as [Channel];
    const subscribe = async (already: boolean) => {
      const reply = await member.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }] });
      expectSubscribeOutcome(ctx, reply, directory, new Map([[me, already ? { subscribed: [], already: [channel.name] } : { subscribed: [channel.name], already: [] }]]));
    };
    const leave = async (removed: boolean) => {
      const reply = await member.delete('/users/me/subscriptions', { subscriptions: [channel.name] });
      const body = expectShape(expectSuccess(reply), unsubscribeShape, 'body', reply);
      expectEqual([body.removed, body.not_removed], removed ? [[channel.name], []] : [[], [channel.name]], `[removed, not_removed] when leaving ${removed ? 'once' : 'again'}`, reply);
    };
    await subscribe(false);
    await subscribe(true);
    await leave(true);
    await leave(false);
    await subscribe(false);
    const { entries, reply } = await ownSubscriptions(member);
    expectEqual(entries.filter((entry) => entry.stream_id === channel.streamId).length, 1, 'entries for the channel after subscribing again', reply);
  },
};

/** Level 397: `send_new_subscription_messages` and `new_subscription_messages_sent`. */
const NEW_SUBSCRIPTION_MESSAGES_LEVEL = 397;

const messagesSent: Rule = {
  id: 'subscribe/new-subscription-messages-sent',
  title: 'from level 397, subscribing another user answers new_subscription_messages_sent true by default, and leaves it out when send_new_subscription_messages is false',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1; 9',
  levels: { min: NEW_SUBSCRIPTION_MESSAGES_LEVEL },
  writes: true,
  needs: ['admin', 'second-member'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const directory = await userDirectory(admin);
    const target = ctx.identity('second-member').userId;
    const [channel] = (await createChannels(ctx, 'admin', ['told'])) as [Channel];
    for (const send of [undefined, false, true] as const) {
      const reply = await admin.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [target], send_new_subscription_messages: send });
      const body = expectSubscribeOutcome(ctx, reply, directory, new Map([[target, { subscribed: [channel.name], already: [] }]]));
      expectEqual(body.new_subscription_messages_sent, send === false ? undefined : true, `new_subscription_messages_sent with send_new_subscription_messages ${String(send)}`, reply);
      expectSuccess(await admin.delete('/users/me/subscriptions', { subscriptions: [channel.name], principals: [target] }));
    }
  },
};

export const rules: readonly Rule[] = [repeated, messagesSent];
