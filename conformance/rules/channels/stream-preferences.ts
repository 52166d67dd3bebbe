/**
 * `POST /users/me/subscriptions/properties` (api/update-subscription-settings): a user's own
 * settings for a channel it is subscribed to. Every property with random values, read back from
 * `GET /users/me/subscriptions`; invalid values, unknown properties, channels the user is not
 * subscribed to and unknown channels refused, changing nothing; the `subscription` update events
 * to the user alone (`in_home_view`, and from level 139 also `is_muted`, for muting).
 */
import fc from 'fast-check';
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess, fail } from '../../expect/assert.js';
import { type Channel, openQueue, ownSubscriptions } from '../support/channel-fixtures.js';
import { eventsBeforeSentinel, pollUntil } from '../support/event-waits.js';
import { FAR_ID_FLOOR } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { ownChannel } from './streams-support.js';

/** Level 139: `is_muted` events (and the `is_muted` property name is documented). */
const IS_MUTED_LEVEL = 139;
const ENDPOINT = '/users/me/subscriptions/properties';
const NOTIFICATIONS = ['desktop_notifications', 'audible_notifications', 'push_notifications', 'email_notifications', 'wildcard_mentions_notify'] as const;

interface Item {
  readonly stream_id: number;
  readonly property: string;
  readonly value: unknown;
}

const setProperties = (ctx: RuleContext, items: readonly Item[]) => ctx.as('member').post(ENDPOINT, { subscription_data: items });

/** The member's subscription entry for the channel. */
async function entryOf(ctx: RuleContext, channel: Channel): Promise<JsonObject> {
  const { entries, reply } = await ownSubscriptions(ctx.as('member'));
  const entry = entries.find((candidate) => candidate.stream_id === channel.streamId);
  if (!entry) fail(`channel ${channel.name} is not among the member's subscriptions`, reply);
  return entry;
}

const hexColor = fc.stringMatching(/^#[0-9a-f]{6}$/);

const readBack: Rule = {
  id: 'stream-preferences/properties-read-back',
  title: 'color, muting (is_muted from level 139, or the inverted in_home_view), pin_to_top and the five notification settings take random values in one request, each read back from the subscription',
  endpoint: 'POST /users/me/subscriptions/properties',
  section: 'api/update-subscription-settings',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'preferences', { members: ['member'] });
    const muteNames = ctx.featureLevel >= IS_MUTED_LEVEL ? ['is_muted', 'in_home_view'] : ['in_home_view'];
    const notifications = fc.tuple(...NOTIFICATIONS.map(() => fc.boolean()));
    await ctx.property('color x mute property x muted x pinned x notifications', [hexColor, fc.constantFrom(...muteNames), fc.boolean(), fc.boolean(), notifications], async (color, muteName, muted, pinned, flags) => {
      const items: Item[] = [
        { stream_id: channel.streamId, property: 'color', value: color },
        { stream_id: channel.streamId, property: muteName, value: muteName === 'in_home_view' ? !muted : muted },
        { stream_id: channel.streamId, property: 'pin_to_top', value: pinned },
        ...NOTIFICATIONS.map((property, i) => ({ stream_id: channel.streamId, property, value: flags[i] })),
      ];
      expectSuccess(await setProperties(ctx, items));
      const entry = await entryOf(ctx, channel);
      expectEqual([entry.color, entry.is_muted, entry.pin_to_top], [color, muted, pinned], 'color, is_muted and pin_to_top read back');
      if ('in_home_view' in entry) expectEqual(entry.in_home_view, !muted, 'in_home_view read back (the inverse of is_muted)');
      expectEqual(NOTIFICATIONS.map((name) => entry[name]), flags, `${NOTIFICATIONS.join(', ')} read back`);
    }, { maxRuns: 5 });
  },
};

const refused: Rule = {
  id: 'stream-preferences/invalid-changes-refused',
  title: 'an unknown property, a non-boolean for a boolean property, a color that is not a hex code, a null value, a channel the user is not subscribed to and an unknown channel are each refused with 400 BAD_REQUEST and change nothing; without subscription_data 400 REQUEST_VARIABLE_MISSING',
  endpoint: 'POST /users/me/subscriptions/properties',
  section: 'api/update-subscription-settings',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'preferences-refused', { members: ['member'] });
    const elsewhere = await ownChannel(ctx, 'preferences-elsewhere');
    expectSuccess(await setProperties(ctx, [{ stream_id: channel.streamId, property: 'color', value: '#123456' }, { stream_id: channel.streamId, property: 'pin_to_top', value: false }]));
    const id = channel.streamId;
    const items: Item[] = [
      { stream_id: id, property: 'bogus_property', value: true },
      { stream_id: id, property: 'pin_to_top', value: 'yes' },
      { stream_id: id, property: 'desktop_notifications', value: 'true' },
      { stream_id: id, property: 'color', value: 'red' },
      { stream_id: id, property: 'color', value: '#12345g' },
      { stream_id: id, property: 'pin_to_top', value: null },
      { stream_id: elsewhere.streamId, property: 'pin_to_top', value: true },
      { stream_id: FAR_ID_FLOOR + 3, property: 'pin_to_top', value: true },
    ];
    for (const item of items) expectError(await setProperties(ctx, [item]), { status: 400, code: 'BAD_REQUEST' });
    expectError(await ctx.as('member').post(ENDPOINT, {}), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    const entry = await entryOf(ctx, channel);
    expectEqual([entry.color, entry.pin_to_top], ['#123456', false], 'color and pin_to_top after the refused changes');
  },
};

const events: Rule = {
  id: 'stream-preferences/update-events-to-the-user',
  title: "a property change sends the user a subscription update event with property, value and stream_id (muting: in_home_view, and is_muted from level 139), and no other user's queue gets it",
  endpoint: 'POST /users/me/subscriptions/properties',
  section: 'api/get-events; changelog 139',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'preferences-events', { members: ['member', 'second-member'] });
    const mine = await openQueue(ctx.as('member'), ['subscription']);
    ctx.cleanup("close the member's queue", async () => mine.close());
    const theirs = await openQueue(ctx.as('second-member'), ['subscription']);
    ctx.cleanup("close the second member's queue", async () => theirs.close());
    const color = '#3a7b9c';
    expectSuccess(await setProperties(ctx, [{ stream_id: channel.streamId, property: 'color', value: color }, { stream_id: channel.streamId, property: 'in_home_view', value: false }]));
    const update = (property: string, value: unknown) => (event: JsonObject) =>
      event.type === 'subscription' && event.op === 'update' && event.stream_id === channel.streamId && event.property === property && event.value === value;
    const wanted = [update('color', color), update('in_home_view', false), ...(ctx.featureLevel >= IS_MUTED_LEVEL ? [update('is_muted', true)] : [])];
    // As many update events as expected, then each is checked (a wrong one fails at once).
    const isUpdate = (event: JsonObject) => event.type === 'subscription' && event.op === 'update' && event.stream_id === channel.streamId;
    const received = await pollUntil(mine, (got) => got.filter(isUpdate).length >= wanted.length);
    wanted.forEach((matches, i) => check(received.some(matches), `the member got no ${['color', 'in_home_view', 'is_muted'][i]} update event: ${JSON.stringify(received)}`));
    const sentinel = update('pin_to_top', true);
    const before = await eventsBeforeSentinel(
      theirs,
      async () => void expectSuccess(await ctx.as('second-member').post(ENDPOINT, { subscription_data: [{ stream_id: channel.streamId, property: 'pin_to_top', value: true }] })),
      sentinel,
      "the second member's own pin_to_top change",
    );
    check(!before.some((event) => event.type === 'subscription' && event.op === 'update'), () => `the second member got the member's subscription updates: ${JSON.stringify(before)}`);
  },
};

export const rules: readonly Rule[] = [readBack, refused, events];
