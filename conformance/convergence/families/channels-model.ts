/**
 * What the channel family knows of its channels: privacy, who is subscribed, and who ever was
 * (a channel made public reaches a former subscriber as a `stream` `create`, which the real
 * server files under `unsubscribed` from its database: no client can know that, so the family
 * does not make a channel public while a former subscriber cannot see it).
 */
import type { IdentityName, Role } from '../../credentials/types.js';

export interface TrackedChannel {
  readonly id: number;
  name: string;
  isPrivate: boolean;
  historyPublic: boolean;
  readonly subscribed: Set<IdentityName>;
  readonly ever: Set<IdentityName>;
}

export interface ChannelsFixture {
  readonly observers: readonly IdentityName[];
  readonly roles: ReadonlyMap<IdentityName, Role>;
  readonly channels: TrackedChannel[];
}

/** Channels created per rule at most, besides the two of the setup (each costs a cleanup). */
export const MAX_CREATED = 2;
export const COLORS = ['#76ce90', '#fae589', '#a6c7e5'] as const;
export const PROPERTIES = ['color', 'pin_to_top', 'is_muted', 'desktop_notifications', 'audible_notifications', 'push_notifications', 'email_notifications', 'wildcard_mentions_notify'] as const;

/** Who sees a channel's metadata without a subscription: administrators (of every channel). */
export const seesAll = (fixture: ChannelsFixture, who: IdentityName): boolean => {
  const role = fixture.roles.get(who);
  return role === 'admin' || role === 'owner';
};

const isGuest = (fixture: ChannelsFixture, who: IdentityName): boolean => fixture.roles.get(who) === 'guest';

/**
 * Whether making `channel` public keeps every observer convergent: no observer outside it who
 * cannot see it now was ever subscribed (guests never see an unsubscribed public channel).
 */
export function mayPublish(fixture: ChannelsFixture, channel: TrackedChannel): boolean {
  return fixture.observers.every((who) => channel.subscribed.has(who) || seesAll(fixture, who) || isGuest(fixture, who) || !channel.ever.has(who));
}

/**
 * Whether making `channel` private keeps every observer convergent: the real server tells no one
 * who loses sight of it, so every observer who is neither subscribed, an administrator nor a
 * guest (who never saw it unsubscribed) must be subscribed.
 */
export function mayMakePrivate(fixture: ChannelsFixture, channel: TrackedChannel): boolean {
  return fixture.observers.every((who) => channel.subscribed.has(who) || seesAll(fixture, who) || isGuest(fixture, who));
}
