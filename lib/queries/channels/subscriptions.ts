/**
 * The API shape of a subscription (`Subscription` of OpenAPI get-subscriptions) and the three
 * subscription lists register returns.
 */
import type { Stream, Subscription } from '../../entities/stream.js';
import { isAdministrator, isGuest, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { compareCodePoints } from '../../input/strings.js';
import type { World } from '../../state/world.js';
import { canSeeSubscribers, hasMetadataAccessViaGroups } from './channel-access.js';
import { channelEmailAddress } from './channel-email.js';
import { channelToApi, type ChannelViewOptions, subscriberIds } from './channels.js';

/** `Subscription.ROLE_MEMBER`, the only role levels 31-132 could report. */
const SUBSCRIBER_ROLE = 50;

/**
 * A subscription object: the channel's fields plus the user's personal settings. Notification
 * settings are null when they inherit the user-level default.
 */
export function subscriptionToApi(world: World, stream: Stream, sub: Subscription, options: ChannelViewOptions = {}): Record<string, unknown> {
  const out = channelToApi(world, stream, options);
  out.color = sub.color;
  out.is_muted = sub.isMuted;
  out.in_home_view = !sub.isMuted;
  out.pin_to_top = sub.pinToTop;
  out.audible_notifications = sub.audibleNotifications;
  out.desktop_notifications = sub.desktopNotifications;
  out.email_notifications = sub.emailNotifications;
  out.push_notifications = sub.pushNotifications;
  out.wildcard_mentions_notify = sub.wildcardMentionsNotify;
  if (!world.has(FEATURES.SUBSCRIPTION_EMAIL_ADDRESS_REMOVED)) out.email_address = channelEmailAddress(world, stream);
  // Levels 31-132 carried the user's role in the channel; no one could be a stream administrator (20).
  if (world.has(FEATURES.SUBSCRIPTION_ROLE) && !world.has(FEATURES.SUBSCRIPTION_ROLE_REMOVED)) out.role = SUBSCRIBER_ROLE;
  return out;
}

export type IncludeSubscribers = boolean | 'partial';

/** `partial` still sends full lists below this size (OpenAPI get-subscriptions). */
export const MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE = 250;
const RECENTLY_ACTIVE_MS = 14 * 86_400_000;

/** Bots and users active in the last 14 days: what a partial subscriber list must contain. */
function partialSubscribers(world: World, ids: readonly number[]): number[] {
  return ids.filter((id) => {
    if (world.users.get(id)?.isBot) return true;
    const last = world.presence.get(id)?.lastActiveTime;
    return last !== null && last !== undefined && world.now() - last <= RECENTLY_ACTIVE_MS;
  });
}

function addSubscribers(world: World, viewer: User, stream: Stream, out: Record<string, unknown>, include: IncludeSubscribers): void {
  if (include === false) return;
  const ids = canSeeSubscribers(world, viewer, stream) ? subscriberIds(world, stream.id) : [];
  const total = subscriberIds(world, stream.id).length;
  if (include === 'partial' && total >= MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE) out.partial_subscribers = partialSubscribers(world, ids);
  else out.subscribers = ids;
}

export interface SubscriptionsStateOptions {
  readonly includeSubscribers: IncludeSubscribers;
  /** The `archived_channels` client capability (register). */
  readonly includeArchived?: boolean;
}

export interface SubscriptionsState {
  readonly subscriptions: Record<string, unknown>[];
  readonly unsubscribed: Record<string, unknown>[];
  readonly never_subscribed: Record<string, unknown>[];
}

/** Whether a former subscriber still sees the channel exist (`has_metadata_access_to_previously_subscribed_stream`). */
function keepsMetadataAccess(world: World, user: User, stream: Stream): boolean {
  if (stream.isWebPublic) return true;
  if (isGuest(user)) return false;
  if (!stream.inviteOnly) return true;
  return isAdministrator(user) || hasMetadataAccessViaGroups(world, user, stream);
}

const byName = (list: Array<[string, Record<string, unknown>]>): Record<string, unknown>[] =>
  list.sort((a, b) => compareCodePoints(a[0], b[0])).map(([, out]) => out);

/**
 * Only the user's active subscriptions, sorted by name, as `GET /users/me/subscriptions` returns
 * them: it reads the user's own subscriptions, so its cost does not grow with the realm's channels.
 */
export function activeSubscriptions(world: World, user: User, options: SubscriptionsStateOptions): Record<string, unknown>[] {
  const subscriptions: Array<[string, Record<string, unknown>]> = [];
  for (const [streamId, sub] of world.subscriptionsOf(user.id)) {
    const stream = world.streams.get(streamId);
    if (!stream || !sub.active || (stream.isArchived && !options.includeArchived)) continue;
    const out = subscriptionToApi(world, stream, sub);
    addSubscribers(world, user, stream, out, options.includeSubscribers);
    subscriptions.push([stream.name, out]);
  }
  return byName(subscriptions);
}

/**
 * The user's subscriptions, former subscriptions and never-subscribed visible channels, each
 * sorted by name, as `GET /users/me/subscriptions` and `POST /register` return them.
 */
export function subscriptionsState(world: World, user: User, options: SubscriptionsStateOptions): SubscriptionsState {
  const subscriptions: Array<[string, Record<string, unknown>]> = [];
  const unsubscribed: Array<[string, Record<string, unknown>]> = [];
  const neverSubscribed: Array<[string, Record<string, unknown>]> = [];
  const include = options.includeSubscribers;
  for (const stream of world.streams.values()) {
    if (stream.isArchived && !options.includeArchived) continue;
    const sub = world.subscriptions.get(stream.id)?.get(user.id);
    if (sub?.active) {
      const out = subscriptionToApi(world, stream, sub);
      addSubscribers(world, user, stream, out, include);
      subscriptions.push([stream.name, out]);
    } else if (sub) {
      if (!keepsMetadataAccess(world, user, stream)) continue;
      const out = subscriptionToApi(world, stream, sub);
      addSubscribers(world, user, stream, out, include);
      unsubscribed.push([stream.name, out]);
    } else {
      if (stream.isArchived && !world.has(FEATURES.ARCHIVED_CHANNEL_SUBSCRIPTIONS)) continue;
      if (isGuest(user) ? !stream.isWebPublic : stream.inviteOnly && !isAdministrator(user) && !hasMetadataAccessViaGroups(world, user, stream)) {
        continue;
      }
      const out = channelToApi(world, stream);
      addSubscribers(world, user, stream, out, include);
      neverSubscribed.push([stream.name, out]);
    }
  }
  return { subscriptions: byName(subscriptions), unsubscribed: byName(unsubscribed), never_subscribed: byName(neverSubscribed) };
}
