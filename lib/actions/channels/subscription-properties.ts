/**
 * `POST /users/me/subscriptions/properties`: a user's own settings for channels they are
 * subscribed to (colour, muting, pinning, notifications), with `subscription`/`update` events.
 * Unlike the real server, which applies the list item by item, every item is checked first.
 */
import { badRequest } from '../../errors.js';
import type { Subscription } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { accessChannelById } from '../../queries/channels/channel-list.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

export interface PropertyChange {
  readonly stream_id: number;
  readonly property: string;
  readonly value: boolean | string;
}

type BooleanField = 'isMuted' | 'pinToTop' | 'desktopNotifications' | 'audibleNotifications' | 'pushNotifications' | 'emailNotifications' | 'wildcardMentionsNotify';

/** API property to stored field; `in_home_view` is the legacy, inverted name of `is_muted`. */
const BOOLEAN_PROPERTIES = new Map<string, BooleanField>([
  ['in_home_view', 'isMuted'],
  ['is_muted', 'isMuted'],
  ['desktop_notifications', 'desktopNotifications'],
  ['audible_notifications', 'audibleNotifications'],
  ['push_notifications', 'pushNotifications'],
  ['email_notifications', 'emailNotifications'],
  ['pin_to_top', 'pinToTop'],
  ['wildcard_mentions_notify', 'wildcardMentionsNotify'],
]);

/** `check_color`: Python's `$` also matches before a final newline. */
const HEX_COLOR = /^#[a-fA-F0-9]{3,6}\n?$/;

/** The item checks of the request model: colour, boolean, or unknown property. */
function checkValue(change: PropertyChange): void {
  if (change.property === 'color') {
    if (typeof change.value !== 'string' || !HEX_COLOR.test(change.value)) throw badRequest('color is not a valid hex color code');
    return;
  }
  if (!BOOLEAN_PROPERTIES.has(change.property)) throw badRequest(`Unknown subscription property: ${change.property}`);
  if (typeof change.value !== 'boolean') throw badRequest(`${change.property} is not a boolean`);
}

function apply(world: World, user: User, sub: Subscription, change: PropertyChange): void {
  const send = (property: string, value: unknown) =>
    world.events.send({ type: 'subscription', op: 'update', property, value, stream_id: sub.streamId }, [user.id]);
  if (change.property === 'color') {
    sub.color = change.value as string;
    send('color', sub.color);
    return;
  }
  const field = BOOLEAN_PROPERTIES.get(change.property)!;
  if (field === 'isMuted') {
    sub.isMuted = change.property === 'in_home_view' ? !change.value : (change.value as boolean);
    // The deprecated in_home_view event first, then (from level 139) is_muted, as the real server sends them.
    send('in_home_view', !sub.isMuted);
    if (world.has(FEATURES.IS_MUTED_EVENT)) send('is_muted', sub.isMuted);
    return;
  }
  sub[field] = change.value as boolean;
  send(change.property, change.value);
}

/**
 * Checks every item (values, then each channel: `Invalid channel ID` without content access,
 * `Not subscribed to channel ID <id>`), then applies them in order.
 */
export function updateSubscriptionProperties(world: World, user: User, changes: readonly PropertyChange[]): void {
  for (const change of changes) checkValue(change);
  const subs = changes.map((change) => {
    const stream = accessChannelById(world, user, change.stream_id, { metadata: false });
    const sub = world.subscriptions.get(stream.id)?.get(user.id);
    if (!sub?.active) throw badRequest(`Not subscribed to channel ID ${change.stream_id}`);
    return sub;
  });
  changes.forEach((change, i) => apply(world, user, subs[i]!, change));
}
