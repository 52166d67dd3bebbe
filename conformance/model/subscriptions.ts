/**
 * Model-based check of subscriptions (section 4.1): random sequences of subscribe, unsubscribe
 * and list commands by three identities on channels the run created, against a model that is the
 * set of (user, channel) subscriptions. After every command the server's answer, and its
 * listing, agree with the model. Each sequence starts from "nobody subscribed".
 */
import fc from 'fast-check';
import type { ApiClient } from '../client/api-client.js';
import type { IdentityName } from '../credentials/types.js';
import { check, expectEqual, expectShape, expectSuccess, fail } from '../expect/assert.js';
import { v } from '../expect/shape.js';
import { type Channel, createChannels, type DirectoryUser, INTEGER_PRINCIPALS_LEVEL, ownSubscriptions, sorted, userDirectory } from '../rules/support/channel-fixtures.js';
import { expectSubscribeOutcome } from '../rules/channels/subscribe-support.js';
import type { Rule, RuleContext } from '../rules/types.js';

/** The model: which of the run's users is subscribed to which of the run's channels. */
export class SubscriptionModel {
  private readonly pairs = new Set<string>();

  has(userId: number, channel: number): boolean {
    return this.pairs.has(`${userId}:${channel}`);
  }

  set(userId: number, channel: number, subscribed: boolean): void {
    if (subscribed) this.pairs.add(`${userId}:${channel}`);
    else this.pairs.delete(`${userId}:${channel}`);
  }

  subscribers(channel: number, users: readonly number[]): number[] {
    return sorted(users.filter((id) => this.has(id, channel)));
  }
}

/** What the commands act on. */
export interface SubscriptionSystem {
  readonly ctx: RuleContext;
  readonly channels: readonly Channel[];
  /** The run's three users, and a client for each. */
  readonly users: readonly { readonly who: IdentityName; readonly userId: number; readonly client: ApiClient }[];
  readonly directory: ReadonlyMap<number, DirectoryUser>;
}

type Command = fc.AsyncCommand<SubscriptionModel, SubscriptionSystem>;

const userIds = (system: SubscriptionSystem) => system.users.map((user) => user.userId);

/** A user subscribes itself (no principals) to some channels. */
class Subscribe implements Command {
  constructor(readonly user: number, readonly channels: readonly number[]) {}
  check = () => true;
  async run(model: SubscriptionModel, system: SubscriptionSystem): Promise<void> {
    const actor = system.users[this.user]!;
    const names = this.channels.map((index) => system.channels[index]!.name);
    const reply = await actor.client.post('/users/me/subscriptions', { subscriptions: names.map((name) => ({ name })) });
    const subscribed = this.channels.filter((index) => !model.has(actor.userId, index)).map((index) => system.channels[index]!.name);
    const already = this.channels.filter((index) => model.has(actor.userId, index)).map((index) => system.channels[index]!.name);
    expectSubscribeOutcome(system.ctx, reply, system.directory, new Map([[actor.userId, { subscribed, already }]]));
    this.channels.forEach((index) => model.set(actor.userId, index, true));
  }
  toString = () => `Subscribe(user ${this.user}, channels [${this.channels.join(', ')}])`;
}

/** The administrator subscribes some of the users (principals by ID) to one channel. */
class SubscribeOthers implements Command {
  constructor(readonly principals: readonly number[], readonly channel: number) {}
  check = () => true;
  async run(model: SubscriptionModel, system: SubscriptionSystem): Promise<void> {
    const admin = system.users[0]!;
    const channel = system.channels[this.channel]!;
    const ids = this.principals.map((index) => system.users[index]!.userId);
    const reply = await admin.client.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: ids });
    const expected = new Map(ids.map((id) => [id, model.has(id, this.channel) ? { subscribed: [], already: [channel.name] } : { subscribed: [channel.name], already: [] }]));
    expectSubscribeOutcome(system.ctx, reply, system.directory, expected);
    ids.forEach((id) => model.set(id, this.channel, true));
  }
  toString = () => `SubscribeOthers(users [${this.principals.join(', ')}], channel ${this.channel})`;
}

/** A user unsubscribes itself from some channels. */
class Unsubscribe implements Command {
  constructor(readonly user: number, readonly channels: readonly number[]) {}
  check = () => true;
  async run(model: SubscriptionModel, system: SubscriptionSystem): Promise<void> {
    const actor = system.users[this.user]!;
    const reply = await actor.client.delete('/users/me/subscriptions', { subscriptions: this.channels.map((index) => system.channels[index]!.name) });
    const body = expectShape(expectSuccess(reply), v.object({ removed: v.array(v.string()), not_removed: v.array(v.string()) }), 'body', reply);
    const name = (index: number) => system.channels[index]!.name;
    expectEqual(sorted(body.removed), sorted(this.channels.filter((index) => model.has(actor.userId, index)).map(name)), 'removed', reply);
    expectEqual(sorted(body.not_removed), sorted(this.channels.filter((index) => !model.has(actor.userId, index)).map(name)), 'not_removed', reply);
    this.channels.forEach((index) => model.set(actor.userId, index, false));
  }
  toString = () => `Unsubscribe(user ${this.user}, channels [${this.channels.join(', ')}])`;
}

/** A user lists its subscriptions with subscribers: our channels and their subscribers agree with the model. */
class List implements Command {
  constructor(readonly user: number) {}
  check = () => true;
  async run(model: SubscriptionModel, system: SubscriptionSystem): Promise<void> {
    const actor = system.users[this.user]!;
    const { entries, reply } = await ownSubscriptions(actor.client, true);
    system.channels.forEach((channel, index) => {
      const entry = entries.find((candidate) => candidate.stream_id === channel.streamId);
      if (!model.has(actor.userId, index)) {
        check(entry === undefined, `${channel.name} is listed but the user left it`, reply);
        return;
      }
      if (!entry) fail(`${channel.name} is not listed but the user is subscribed`, reply);
      const subscribers = Array.isArray(entry.subscribers) ? (entry.subscribers as number[]) : fail(`${channel.name}: no subscribers list`, reply);
      expectEqual(sorted(subscribers), model.subscribers(index, userIds(system)), `subscribers of ${channel.name}`, reply);
    });
  }
  toString = () => `List(user ${this.user})`;
}

const CHANNELS = 3;

function commands(users: number): Array<fc.Arbitrary<Command>> {
  const user = fc.integer({ min: 0, max: users - 1 });
  const channel = fc.integer({ min: 0, max: CHANNELS - 1 });
  const someChannels = fc.uniqueArray(channel, { minLength: 1, maxLength: CHANNELS });
  return [
    fc.tuple(user, someChannels).map(([u, c]) => new Subscribe(u, c)),
    fc.tuple(fc.uniqueArray(user, { minLength: 1, maxLength: users }), channel).map(([u, c]) => new SubscribeOthers(u, c)),
    fc.tuple(user, someChannels).map(([u, c]) => new Unsubscribe(u, c)),
    user.map((u) => new List(u)),
  ];
}

const WHO: readonly IdentityName[] = ['admin', 'member', 'second-member'];

export const subscriptionModelRule: Rule = {
  id: 'subscriptions/model-based-sequence',
  title: 'any sequence of subscribe, subscribe-others, unsubscribe and list commands keeps the server in agreement with the set of (user, channel) subscriptions',
  endpoint: 'POST, GET, DELETE /users/me/subscriptions',
  section: '4.1',
  // Its commands name principals by user ID, which servers accept from level 9.
  levels: { min: INTEGER_PRINCIPALS_LEVEL },
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const users = WHO.map((who) => ({ who, userId: ctx.identity(who).userId, client: ctx.as(who) }));
    const admin = users[0]!.client;
    const directory = await userDirectory(admin);
    const channels = await createChannels(ctx, 'admin', Array.from({ length: CHANNELS }, (_, index) => `model-${index}`));
    const names = channels.map((channel) => channel.name);
    const system: SubscriptionSystem = { ctx, channels, users, directory };
    const reset = async () => {
      // Administrators may unsubscribe anybody from public channels: everyone leaves.
      expectSuccess(await admin.delete('/users/me/subscriptions', { subscriptions: names, principals: users.map((user) => user.userId) }));
      return { model: new SubscriptionModel(), real: system };
    };
    await ctx.assert(
      'command sequences',
      fc.asyncProperty(fc.commands(commands(users.length), { maxCommands: 8 }), async (sequence) => {
        await fc.asyncModelRun(reset, sequence);
      }),
      { maxRuns: 12 },
    );
  },
};
