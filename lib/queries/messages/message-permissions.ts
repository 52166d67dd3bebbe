/**
 * Who may change what about a message (reference §2.2): content edits, topic moves, resolving
 * topics and moving between channels, with the realm's time limits.
 */
import { badRequest } from '../../errors.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { Message } from '../../entities/message.js';
import type { ChannelPermissionSetting, Stream } from '../../entities/stream.js';
import type { RealmPermissionSetting } from '../../entities/realm.js';
import { isModeratorOrAbove, type User } from '../../entities/user.js';
import type { World } from '../../state/world.js';
import { canAdministerChannel } from '../users/access.js';
import { hasGroupSetting } from '../groups/groups.js';

/** Grace the real server adds to every edit and move limit, in seconds. */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;
/** Default of both move limits (`DEFAULT_MOVE_MESSAGE_LIMIT_SECONDS`): 7 days. */
export const DEFAULT_MOVE_LIMIT_SECONDS = 7 * 86400;

const ageSeconds = (world: World, message: Message): number => (world.now() - message.sentAt) / 1000;

/** `validate_user_can_edit_message`: realm switch, sender only, content time limit. */
export function checkCanEditContent(world: World, user: User, message: Message): void {
  if (!world.realm.allowMessageEditing) throw badRequest('Your organization has turned off message editing');
  if (message.senderId !== user.id) throw badRequest("You don't have permission to edit this message");
  const limit = world.realm.messageContentEditLimitSeconds;
  if (limit !== null && ageSeconds(world, message) > limit + EDIT_LIMIT_BUFFER_SECONDS) {
    throw badRequest('The time limit for editing this message has passed');
  }
}

function realmAllows(world: World, user: User, setting: RealmPermissionSetting): boolean {
  const value = world.realm.settings.get(setting);
  return value !== undefined && hasGroupSetting(world, user, value);
}

function channelGroupAllows(world: World, user: User, stream: Stream, setting: ChannelPermissionSetting): boolean {
  const value = stream.settings.get(setting);
  return value !== undefined && hasGroupSetting(world, user, value);
}

/** The channel-level move rights of FL 396: the channel's group, its administrators and the realm's. */
function channelAllowsMoves(world: World, user: User, stream: Stream, setting: ChannelPermissionSetting): boolean {
  if (!world.has(FEATURES.CAN_MOVE_OUT_OF_CHANNEL_GROUP)) return false;
  return channelGroupAllows(world, user, stream, setting) || canAdministerChannel(world, user, stream);
}

/** Topic moves inside a channel: the realm's or the channel's group. */
export const canEditTopic = (world: World, user: User, stream: Stream): boolean =>
  realmAllows(world, user, 'can_move_messages_between_topics_group') ||
  channelAllowsMoves(world, user, stream, 'can_move_messages_within_channel_group');

/**
 * Resolving and unresolving topics: the realm's `can_resolve_topics_group` (FL 367; the topic-move
 * right before) or the channel's (FL 402). Unlike moves, administrators get no exemption.
 */
export function canResolveTopics(world: World, user: User, stream: Stream): boolean {
  if (!world.has(FEATURES.RESOLVE_TOPICS_GROUP)) return canEditTopic(world, user, stream);
  if (realmAllows(world, user, 'can_resolve_topics_group')) return true;
  return world.has(FEATURES.CAN_RESOLVE_TOPICS_GROUP) && channelGroupAllows(world, user, stream, 'can_resolve_topics_group');
}

/** Moving messages out of a channel. */
export const canMoveOutOfChannel = (world: World, user: User, stream: Stream): boolean =>
  realmAllows(world, user, 'can_move_messages_between_channels_group') ||
  channelAllowsMoves(world, user, stream, 'can_move_messages_out_of_channel_group');

const limitOf = (value: number | null | undefined): number | null => (value === undefined ? DEFAULT_MOVE_LIMIT_SECONDS : value);
/**
 * Before level 162 the limit on renaming others' topics was no setting but the server's
 * `DEFAULT_COMMUNITY_TOPIC_EDITING_LIMIT_SECONDS`: 1 day, 3 days from level 38.
 */
export const communityTopicEditingLimit = (world: World): number => (world.has(FEATURES.COMMUNITY_TOPIC_EDIT_LIMIT_3_DAYS) ? 3 * 86_400 : 86_400);
export const topicMoveLimit = (world: World): number | null =>
  world.has(FEATURES.MOVE_LIMITS) ? limitOf(world.realm.moveMessagesWithinStreamLimitSeconds) : communityTopicEditingLimit(world);
export const channelMoveLimit = (world: World): number | null => limitOf(world.realm.moveMessagesBetweenStreamsLimitSeconds);

/** Whether a non-moderator's move limit (plus the grace) has passed for this message. */
export function moveLimitPassed(world: World, user: User, message: Message, limit: number | null): boolean {
  if (limit === null || isModeratorOrAbove(user)) return false;
  return ageSeconds(world, message) > limit + EDIT_LIMIT_BUFFER_SECONDS;
}
