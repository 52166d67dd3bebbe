/**
 * Events and Notification Bot notices of channel changes (`PATCH /streams/{stream_id}`), with
 * the real server's payloads and recipients (`do_change_stream_permission`, `do_rename_stream`,
 * `do_change_stream_group_based_setting`, ...).
 */
import type { GroupSetting } from '../../entities/group.js';
import type { ChannelPermissionSetting, Stream } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { silentMention } from '../../rendering/message-links.js';
import { Audience } from '../../state/audience.js';
import { activeUsersAudience, adminUserIds, metadataGroupUserIds } from '../../queries/channels/channel-access.js';
import { channelSettingApiName, channelToApi, subscriberIds } from '../../queries/channels/channels.js';
import { groupSettingToApi } from '../../queries/groups/groups.js';
import type { World } from '../../state/world.js';
import { sendNotificationBotMessage } from '../messages/notification-bot.js';
import { CHANNEL_EVENTS_TOPIC, type ChannelPolicy, channelPolicy } from './subscription-notices.js';

/**
 * `can_access_stream_metadata_user_ids`: active non-guests and the subscribers for public (and
 * web-public) channels, else subscribers, administrators and the metadata groups. Guests who are
 * not subscribed to a web-public channel are not told of its changes, as on the real server.
 * A public channel's audience is a test, not a list, so a change to it costs the open event
 * queues rather than a pass over every user; its subscribers are taken as they are now.
 */
export function metadataAudience(world: World, stream: Stream): Audience {
  if (stream.inviteOnly) {
    const ids = privateMetadataUserIds(world, stream);
    return new Audience(world, (id) => ids.has(id));
  }
  const members = activeUsersAudience(world, { includeGuests: false });
  const subscribers = new Set(subscriberIds(world, stream.id));
  return new Audience(world, (id) => subscribers.has(id) || members.includes(id));
}

/** A private channel's metadata audience, listed: its subscribers, administrators and metadata groups. */
export function privateMetadataUserIds(world: World, stream: Stream): ReadonlySet<number> {
  return new Set([...subscriberIds(world, stream.id), ...adminUserIds(world), ...metadataGroupUserIds(world, stream)]);
}

/** A `stream`/`update` event for one property, keyed by ID with the current name. */
export function sendStreamUpdate(world: World, stream: Stream, property: string, value: unknown, recipients: Iterable<number> | Audience, extra: Record<string, unknown> = {}): void {
  world.events.send({ type: 'stream', op: 'update', stream_id: stream.id, name: stream.name, property, value, ...extra }, recipients);
}

/** Posts a notice to the channel's "channel events" topic; the actor has it read. */
export function postChannelNotice(world: World, actor: User | null, stream: Stream, content: string, allowArchived = false): void {
  const readBy = actor ? [actor.id] : [];
  sendNotificationBotMessage(world, { kind: 'stream', streamId: stream.id, topic: CHANNEL_EVENTS_TOPIC }, content, { readBy, allowArchived });
}

type PolicyName = ChannelPolicy | 'public_protected_history';

const POLICY_NAMES: Readonly<Record<PolicyName, string>> = {
  web_public: 'Web-public',
  public: 'Public',
  private_shared_history: 'Private, shared history',
  private_protected_history: 'Private, protected history',
  public_protected_history: 'Public, protected history',
};

export interface PermissionState {
  readonly inviteOnly: boolean;
  readonly isWebPublic: boolean;
  readonly historyPublicToSubscribers: boolean;
}

function policyName(state: PermissionState): string {
  if (!state.inviteOnly && !state.isWebPublic && !state.historyPublicToSubscribers) return POLICY_NAMES.public_protected_history;
  return POLICY_NAMES[channelPolicy(state)];
}

/**
 * After a privacy change: users who now see a formerly private channel get `stream`/`create` and
 * a `peer_add` with its subscribers; the others with metadata access get `invite_only` updated
 * (with `history_public_to_subscribers` and `is_web_public`). As on the real server, users who
 * lose access to a channel made private are not told.
 */
export function sendPermissionEvents(world: World, actor: User, stream: Stream, old: PermissionState): void {
  let created: Audience | undefined;
  if (old.inviteOnly && !stream.inviteOnly) {
    const subscribers = subscriberIds(world, stream.id);
    created = activeUsersAudience(world, { includeGuests: false }).without(privateMetadataUserIds(world, stream));
    world.events.send({ type: 'stream', op: 'create', streams: [channelToApi(world, stream)] }, created);
    world.events.send({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: subscribers }, created);
  }
  const audience = metadataAudience(world, stream);
  const recipients = created ? audience.unless(created) : audience;
  sendStreamUpdate(world, stream, 'invite_only', stream.inviteOnly, recipients, {
    history_public_to_subscribers: stream.historyPublicToSubscribers,
    is_web_public: stream.isWebPublic,
  });
  const text = `${silentMention(actor)} changed the [access permissions](/help/channel-permissions) for this channel from **${policyName(old)}** to **${policyName(stream)}**.`;
  postChannelNotice(world, actor, stream, text, stream.isArchived);
}

/** `@_*name*` for groups and silent user mentions, groups first, each by ID (`get_users_string_with_permission`). */
function settingDescription(world: World, setting: GroupSetting): string {
  if (setting.kind === 'group') return `@_*${world.groups.get(setting.groupId)?.name ?? ''}*`;
  const groups = [...setting.subgroups].sort((a, b) => a - b).map((id) => `@_*${world.groups.get(id)?.name ?? ''}*`);
  const users = [...setting.members].sort((a, b) => a - b).map((id) => world.users.get(id)).filter((u): u is User => u !== undefined);
  return [...groups, ...users.map(silentMention)].join(', ');
}

/**
 * A group setting changed: users who gain metadata access get `stream`/`create` and `peer_add`,
 * those who lose it `stream`/`delete` (made by the caller's `deleteEvent`), the rest the update;
 * `can_send_message_group` also updates the legacy post policy and posts a notice. `before` is
 * the private channel's audience before the change, or null for a public channel, whose
 * audience no group setting changes.
 */
export function sendGroupSettingEvents(
  world: World,
  actor: User,
  stream: Stream,
  change: { setting: ChannelPermissionSetting; old: GroupSetting; before: ReadonlySet<number> | null; oldPostPolicy: number; newPostPolicy: number },
  deleteEvent: (streams: readonly Stream[]) => { type: string; [key: string]: unknown },
): void {
  const after = metadataAudience(world, stream);
  const value = groupSettingToApi(world, stream.settings.get(change.setting)!);
  const apiName = channelSettingApiName(world, change.setting);
  if (change.before === null) sendStreamUpdate(world, stream, apiName, value, after);
  else sendAccessChanges(world, stream, change.before, privateMetadataUserIds(world, stream), { apiName, value }, deleteEvent);
  if (change.setting !== 'can_send_message_group') return;
  if (change.oldPostPolicy !== change.newPostPolicy) {
    sendStreamUpdate(world, stream, 'stream_post_policy', change.newPostPolicy, after);
    sendStreamUpdate(world, stream, 'is_announcement_only', change.newPostPolicy === 2, after);
  }
  const text =
    `${silentMention(actor)} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n` +
    `* **Old**: ${settingDescription(world, change.old)}\n* **New**: ${settingDescription(world, stream.settings.get('can_send_message_group')!)}\n`;
  postChannelNotice(world, actor, stream, text, stream.isArchived);
}

/** A private channel's setting update to who kept access; `create` + `peer_add` to who gained it, `delete` to who lost it. */
function sendAccessChanges(
  world: World,
  stream: Stream,
  before: ReadonlySet<number>,
  after: ReadonlySet<number>,
  update: { apiName: string; value: unknown },
  deleteEvent: (streams: readonly Stream[]) => { type: string; [key: string]: unknown },
): void {
  const gained = [...after].filter((id) => !before.has(id));
  const lost = [...before].filter((id) => !after.has(id));
  sendStreamUpdate(world, stream, update.apiName, update.value, [...after].filter((id) => before.has(id)));
  if (gained.length > 0) {
    world.events.send({ type: 'stream', op: 'create', streams: [channelToApi(world, stream)] }, gained);
    world.events.send({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: subscriberIds(world, stream.id) }, gained);
  }
  if (lost.length > 0) world.events.send(deleteEvent([stream]), lost);
}
