/**
 * The channel family: subscribing and unsubscribing the run's identities (themselves, or by the
 * administrator), their subscription properties, and the administrator's changes to the run's
 * channels (name, description, history visibility, privacy where no observer loses sight of a
 * channel without an event) and new channels; observers compare `subscriptions`,
 * `unsubscribed`, `never_subscribed` and `streams` of the run's channels.
 */
import fc from 'fast-check';
import type { IdentityName } from '../../credentials/types.js';
import { createChannel, sendToChannel } from '../../rules/support/message-fixtures.js';
import type { RuleContext } from '../../rules/types.js';
import { type Family, MAX_SEQUENCES } from '../family.js';
import { type ChannelsFixture, COLORS, mayMakePrivate, mayPublish, PROPERTIES, type TrackedChannel } from './channels-model.js';
import { changeChannel, createInSequence } from './channels-admin.js';
import { outcome } from './perform.js';

const OBSERVERS: readonly IdentityName[] = ['admin', 'member', 'second-member', 'guest'];

export type ChannelAction =
  | { readonly do: 'membership'; readonly who: IdentityName; readonly channel: number; readonly byAdmin: boolean }
  | { readonly do: 'property'; readonly who: IdentityName; readonly channel: number; readonly property: number; readonly value: number }
  | { readonly do: 'rename' | 'describe' | 'history' | 'privacy'; readonly channel: number }
  | { readonly do: 'create'; readonly isPrivate: boolean };

function actionKinds(): Array<fc.WeightedArbitrary<ChannelAction>> {
  const who = fc.constantFrom(...OBSERVERS);
  const channel = fc.nat({ max: 3 });
  return [
    { weight: 3, arbitrary: fc.record({ do: fc.constant('membership' as const), who, channel, byAdmin: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('property' as const), who, channel, property: fc.nat({ max: PROPERTIES.length - 1 }), value: fc.nat({ max: COLORS.length - 1 }) }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('rename' as const), channel }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('describe' as const), channel }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('history' as const), channel }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('privacy' as const), channel }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('create' as const), isPrivate: fc.boolean() }) },
  ];
}

/** Subscribes `who` if not subscribed, else unsubscribes (as the family knows it). */
async function membership(ctx: RuleContext, fixture: ChannelsFixture, action: Extract<ChannelAction, { do: 'membership' }>, channel: TrackedChannel): Promise<string> {
  const subscribe = !channel.subscribed.has(action.who);
  // Administrators see a private channel's metadata, not its content: the administrator, who
  // changes the channels, stays subscribed to the private ones.
  if (!subscribe && action.who === 'admin' && channel.isPrivate) return `admin leaves private channel ${channel.id}: skipped, the administrator keeps content access`;
  // Guests cannot subscribe themselves, nobody can join a private channel alone: the administrator does it.
  const byAdmin = action.byAdmin || action.who === 'admin' || (subscribe && (channel.isPrivate || fixture.roles.get(action.who) === 'guest'));
  const by = byAdmin ? 'admin' : action.who;
  const params = { subscriptions: subscribe ? [{ name: channel.name }] : [channel.name], ...(by === action.who ? {} : { principals: [ctx.identity(action.who).userId] }) };
  const client = ctx.as(by);
  const reply = subscribe ? await client.post('/users/me/subscriptions', params) : await client.delete('/users/me/subscriptions', params);
  if (reply.status === 200) {
    if (subscribe) {
      channel.subscribed.add(action.who);
      channel.ever.add(action.who);
    } else channel.subscribed.delete(action.who);
  }
  return outcome(`${by} ${subscribe ? 'subscribes' : 'unsubscribes'} ${by === action.who ? 'themselves' : action.who} ${subscribe ? 'to' : 'from'} channel ${channel.id}`, reply);
}

async function property(ctx: RuleContext, action: Extract<ChannelAction, { do: 'property' }>, channel: TrackedChannel): Promise<string> {
  if (!channel.subscribed.has(action.who)) return `${action.who} changes a subscription property: skipped, not subscribed to channel ${channel.id}`;
  const name = PROPERTIES[action.property] as string;
  const value = name === 'color' ? (COLORS[action.value] as string) : action.value % 2 === 0;
  const reply = await ctx.as(action.who).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channel.id, property: name, value }] });
  return outcome(`${action.who} sets ${name} of channel ${channel.id} to ${String(value)}`, reply);
}

async function perform(ctx: RuleContext, fixture: ChannelsFixture, action: ChannelAction): Promise<string> {
  if (action.do === 'create') return createInSequence(ctx, fixture, action.isPrivate);
  const channel = fixture.channels[action.channel % fixture.channels.length] as TrackedChannel;
  switch (action.do) {
    case 'membership':
      return membership(ctx, fixture, action, channel);
    case 'property':
      return property(ctx, action, channel);
    case 'privacy':
      if (channel.isPrivate ? !mayPublish(fixture, channel) : !mayMakePrivate(fixture, channel)) {
        return `admin makes channel ${channel.id} ${channel.isPrivate ? 'public' : 'private'}: skipped, an observer would lose or regain sight of it in a way no event can tell`;
      }
      return changeChannel(ctx, channel, action.do);
    default:
      return changeChannel(ctx, channel, action.do);
  }
}

async function setup(ctx: RuleContext): Promise<ChannelsFixture> {
  const roles = new Map(OBSERVERS.map((who) => [who, ctx.identity(who).role] as const));
  const channels: TrackedChannel[] = [];
  for (const isPrivate of [false, true]) {
    const made = await createChannel(ctx, 'admin', isPrivate ? 'convergence-private' : 'convergence-public', { inviteOnly: isPrivate, members: ['member'] });
    // A message, so that first_message_id is set before any queue registers.
    await sendToChannel(ctx.as('admin'), made.id, 'convergence', 'first');
    channels.push({ id: made.id, name: made.name, isPrivate, historyPublic: true, subscribed: new Set(['admin', 'member']), ever: new Set(['admin', 'member']) });
  }
  return { observers: OBSERVERS, roles, channels };
}

const TYPES = ['subscription', 'stream'];

export const channelsFamily: Family<ChannelsFixture, ChannelAction> = {
  id: 'event-convergence/channels',
  title: "register plus the events of subscribing, unsubscribing, subscription properties and changes to the run's channels gives every observer the state a fresh register gives",
  section: 'api/register-queue, api/get-events (subscriptions, unsubscribed, never_subscribed, streams)',
  levels: { min: 89 },
  needs: OBSERVERS,
  observers: OBSERVERS,
  // Message events fill in first_message_id, as clients (and apply_event) do.
  eventTypes: () => [...TYPES, 'message'],
  fetchTypes: () => TYPES,
  includeSubscribers: true,
  maxRuns: MAX_SEQUENCES,
  setup,
  kinds: () => actionKinds(),
  perform,
  owned: (ctx, fixture) => ({ channelIds: fixture.channels.map((c) => c.id), groupIds: [], userIds: OBSERVERS.map((o) => ctx.identity(o).userId), messageIds: [] }),
};

