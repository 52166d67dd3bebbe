/**
 * Events and Notification Bot notices of channel changes (`PATCH /streams/{stream_id}`), with
 * the real server's payloads and recipients (`do_change_stream_permission`, `do_rename_stream`,
 * `do_change_stream_group_based_setting`, ...).
 */
import type { GroupSetting } from '../entities/group.js';
import type { ChannelPermissionSetting, Stream } from '../entities/stream.js';
import type { User } from '../entities/user.js';
import { silentMention } from '../message-links.js';
import { activeUserIds, adminUserIds, metadataGroupUserIds } from '../queries/channel-access.js';
import { channelSettingApiName, channelToApi, subscriberIds } from '../queries/channels.js';
import { groupSettingToApi } from '../queries/groups.js';
import type { World } from '../world.js';
import { sendNotificationBotMessage } from './notification-bot.js';
import { CHANNEL_EVENTS_TOPIC, type ChannelPolicy, channelPolicy } from './subscription-notices.js';

/**
 * `can_access_stream_metadata_user_ids`: active non-guests and the subscribers for public (and
 * web-public) channels, else subscribers, administrators and the metadata groups. Guests who are
 * not subscribed to a web-public channel are not told of its changes, as on the real server.
 */
export function metadataAudience(world: World, stream: Stream): Set<number> {
  const subscribers = subscriberIds(world, stream.id);
  if (!stream.inviteOnly) return new Set([...activeUserIds(world, { includeGuests: false }), ...subscribers]);
  return new Set([...subscribers, ...adminUserIds(world), ...metadataGroupUserIds(world, stream)]);
}

/** A `stream`/`update` event for one property, keyed by ID with the current name. */
export function sendStreamUpdate(world: World, stream: Stream, property: string, value: unknown, recipients: Iterable<number>, extra: Record<string, unknown> = {}): void {
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
  let created = new Set<number>();
  if (old.inviteOnly && !stream.inviteOnly) {
    const subscribers = subscriberIds(world, stream.id);
    const sawBefore = new Set([...subscribers, ...adminUserIds(world), ...metadataGroupUserIds(world, stream)]);
    created = new Set([...activeUserIds(world, { includeGuests: false })].filter((id) => !sawBefore.has(id)));
    world.events.send({ type: 'stream', op: 'create', streams: [channelToApi(world, stream)] }, created);
    world.events.send({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: subscribers }, created);
  }
  const recipients = [...metadataAudience(world, stream)].filter((id) => !created.has(id));
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
 * `can_send_message_group` also updates the legacy post policy and posts a notice.
 */
export function sendGroupSettingEvents(
  world: World,
  actor: User,
  stream: Stream,
  change: { setting: ChannelPermissionSetting; old: GroupSetting; before: ReadonlySet<number>; oldPostPolicy: number; newPostPolicy: number },
  deleteEvent: (streams: readonly Stream[]) => { type: string; [key: string]: unknown },
): void {
  const after = metadataAudience(world, stream);
  const gained = [...after].filter((id) => !change.before.has(id));
  const lost = [...change.before].filter((id) => !after.has(id));
  const value = groupSettingToApi(world, stream.settings.get(change.setting)!);
  sendStreamUpdate(world, stream, channelSettingApiName(world, change.setting), value, [...after].filter((id) => !gained.includes(id)));
  if (gained.length > 0) {
    world.events.send({ type: 'stream', op: 'create', streams: [channelToApi(world, stream)] }, gained);
    world.events.send({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: subscriberIds(world, stream.id) }, gained);
  }
  if (lost.length > 0) world.events.send(deleteEvent([stream]), lost);
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
