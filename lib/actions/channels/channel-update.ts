/**
 * `PATCH /streams/{stream_id}`: an organization or channel administrator changes a channel. Every
 * check runs first (channel-update-checks.ts), so an error changes nothing, unlike the real
 * server, which applies each part as it goes; then the changes are applied in the real server's
 * order, each with its events and Notification Bot notice.
 */
import { badRequest, insufficientPermission } from '../../errors.js';
import type { ChannelPermissionSetting, Stream, TopicsPolicy } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { hasChannelContentAccess } from '../../queries/channels/channel-access.js';
import { channelFolderById } from '../../queries/channels/channel-folders.js';
import { accessChannelForAdministration } from '../../queries/channels/channel-admin.js';
import { channelEmailAddress } from '../../queries/channels/channel-email.js';
import { streamPostPolicy } from '../../queries/channels/channels.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../../input/topic-names.js';
import { render } from '../../rendering/render.js';
import type { World } from '../../state/world.js';
import { unarchiveChannel } from './channel-archive.js';
import { changePostPolicy } from './channel-post-policy.js';
import {
  checkDefaultChange,
  checkGroupSettingChanges,
  checkPermissionChange,
  checkRename,
  checkRetentionChange,
  checkUnarchive,
  type GroupSettingChange,
} from './channel-update-checks.js';
import { metadataAudience, postChannelNotice, privateMetadataUserIds, sendGroupSettingEvents, sendPermissionEvents, sendStreamUpdate } from './channel-update-events.js';
import { descriptionText, renameText, retentionText, topicsPolicyText } from './channel-update-notices.js';
import { setDefaultChannel } from './defaults/default-streams.js';
import { streamDeleteEvent } from './subscription-events.js';

export interface ChannelUpdateInput {
  readonly description?: string | undefined;
  readonly newName?: string | undefined;
  readonly isPrivate?: boolean | undefined;
  readonly isWebPublic?: boolean | undefined;
  readonly historyPublicToSubscribers?: boolean | undefined;
  readonly isDefaultStream?: boolean | undefined;
  /** Raw: `realm_default`, `unlimited` (`forever` before 91) or a positive integer. */
  readonly messageRetentionDays?: string | number | undefined;
  readonly isArchived?: boolean | undefined;
  readonly topicsPolicy?: TopicsPolicy | undefined;
  /** Absent (undefined), or a folder ID or null. */
  readonly folderId?: number | null | undefined;
  readonly groupSettings: ReadonlyMap<ChannelPermissionSetting, GroupSettingChange>;
  /** Before level 333: `stream_post_policy` 1-4 (or 1/2 from `is_announcement_only`). */
  readonly legacyPostPolicy?: number | undefined;
}

function changesMoreThanNameOrDescription(input: ChannelUpdateInput): boolean {
  const { description: _description, newName: _newName, groupSettings, ...rest } = input;
  return groupSettings.size > 0 || Object.values(rest).some((value) => value !== undefined);
}

/**
 * `validate_topics_policy`: going back to `inherit` needs no permission; any other policy needs
 * the realm's `can_set_topics_policy_group`; `empty_topic_only` needs a channel with no named topics.
 */
function checkTopicsPolicy(world: World, actor: User, stream: Stream, policy: TopicsPolicy | undefined): void {
  if (policy === undefined) return;
  if (policy === 'empty_topic_only' && !world.has(FEATURES.EMPTY_TOPIC_ONLY)) throw badRequest('Invalid topics_policy');
  const allowed = world.realm.settings.get('can_set_topics_policy_group');
  if (policy !== 'inherit' && (!allowed || !hasGroupSetting(world, actor, allowed))) throw insufficientPermission();
  if (policy === 'empty_topic_only' && channelHasNamedTopics(world, stream)) {
    // Message text unconfirmed (the real server's CannotSetTopicsPolicyError).
    throw badRequest(`To enable this configuration, all messages in this channel must be in the ${EMPTY_TOPIC_DISPLAY_NAME} topic. Consider renaming or deleting other topics.`);
  }
}

function channelHasNamedTopics(world: World, stream: Stream): boolean {
  for (const topic of world.messages.index.topicsOf(stream.id).keys()) if (topic !== '') return true;
  return false;
}

/** Validates the whole request, then applies it. */
export function updateChannel(world: World, actor: User, streamId: number, input: ChannelUpdateInput): void {
  const stream = accessChannelForAdministration(world, actor, streamId);
  // Before level 349 administrators without content access could only rename and re-describe.
  if (!world.has(FEATURES.ADD_SUBSCRIBERS_WITHOUT_ACCESS) && !hasChannelContentAccess(world, actor, stream) && changesMoreThanNameOrDescription(input)) {
    throw badRequest('Invalid channel ID');
  }
  const permission = checkPermissionChange(world, actor, stream, input);
  checkDefaultChange(actor, input.isDefaultStream);
  const retention = checkRetentionChange(world, actor, input.messageRetentionDays);
  const unarchive = checkUnarchive(world, stream, input.isArchived);
  checkTopicsPolicy(world, actor, stream, input.topicsPolicy);
  // Newlines are not allowed in channel descriptions.
  const description = input.description?.replace(/\n/g, ' ');
  const newName = checkRename(world, stream, input.newName);
  // Archived folders are accepted too, as on the real server.
  if (input.folderId !== undefined && input.folderId !== null) channelFolderById(world, input.folderId);
  const settings = checkGroupSettingChanges(world, actor, stream, input.groupSettings);

  if (permission) {
    const old = { inviteOnly: stream.inviteOnly, isWebPublic: stream.isWebPublic, historyPublicToSubscribers: stream.historyPublicToSubscribers };
    stream.inviteOnly = permission.inviteOnly;
    stream.isWebPublic = permission.isWebPublic;
    stream.historyPublicToSubscribers = permission.historyPublicToSubscribers;
    sendPermissionEvents(world, actor, stream, old);
  }
  if (input.isDefaultStream !== undefined) setDefaultChannel(world, stream, input.isDefaultStream);
  if (retention !== undefined) changeRetention(world, actor, stream, retention);
  if (unarchive) unarchiveChannel(world, stream);
  if (input.topicsPolicy !== undefined && input.topicsPolicy !== stream.topicsPolicy) {
    const old = stream.topicsPolicy;
    stream.topicsPolicy = input.topicsPolicy;
    sendStreamUpdate(world, stream, 'topics_policy', stream.topicsPolicy, metadataAudience(world, stream));
    postChannelNotice(world, actor, stream, topicsPolicyText(actor, old, stream.topicsPolicy));
  }
  if (description !== undefined) changeDescription(world, actor, stream, description);
  if (newName !== undefined) rename(world, actor, stream, newName);
  if (input.folderId !== undefined) {
    stream.folderId = input.folderId;
    sendStreamUpdate(world, stream, 'folder_id', input.folderId, metadataAudience(world, stream));
  }
  if (input.legacyPostPolicy !== undefined) changePostPolicy(world, actor, stream, input.legacyPostPolicy);
  for (const [setting, value] of settings) {
    const old = stream.settings.get(setting)!;
    const before = stream.inviteOnly ? privateMetadataUserIds(world, stream) : null;
    const oldPostPolicy = streamPostPolicy(world, stream);
    stream.settings.set(setting, value);
    const change = { setting, old, before, oldPostPolicy, newPostPolicy: streamPostPolicy(world, stream) };
    sendGroupSettingEvents(world, actor, stream, change, (streams) => streamDeleteEvent(world, streams));
  }
}

function changeRetention(world: World, actor: User, stream: Stream, days: number | null): void {
  const old = stream.messageRetentionDays;
  stream.messageRetentionDays = days;
  sendStreamUpdate(world, stream, 'message_retention_days', days, metadataAudience(world, stream));
  const realmDays = world.realm.messageRetentionDays;
  postChannelNotice(world, actor, stream, retentionText(actor, old ?? realmDays, days ?? realmDays), stream.isArchived);
}

function changeDescription(world: World, actor: User, stream: Stream, description: string): void {
  const old = stream.description;
  stream.description = description;
  stream.renderedDescription = description === '' ? '' : render(world, description);
  sendStreamUpdate(world, stream, 'description', description, metadataAudience(world, stream), { rendered_description: stream.renderedDescription });
  postChannelNotice(world, actor, stream, descriptionText(actor, old, description), stream.isArchived);
}

function rename(world: World, actor: User, stream: Stream, name: string): void {
  const old = stream.name;
  world.streams.rename(stream, name);
  // Keyed by ID; `name` still carries the old name. While subscriptions carried the channel's
  // email address (before level 226), its new address came first, in an event of its own.
  if (!world.has(FEATURES.SUBSCRIPTION_EMAIL_ADDRESS_REMOVED)) {
    world.events.send({ type: 'stream', op: 'update', stream_id: stream.id, name: old, property: 'email_address', value: channelEmailAddress(world, stream) }, metadataAudience(world, stream));
  }
  world.events.send({ type: 'stream', op: 'update', stream_id: stream.id, name: old, property: 'name', value: name }, metadataAudience(world, stream));
  postChannelNotice(world, actor, stream, renameText(actor, old, name), stream.isArchived);
}

