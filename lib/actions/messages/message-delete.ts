/**
 * Deleting messages (`DELETE /messages/{message_id}`, `POST /streams/{stream_id}/delete_topic`):
 * the real server's permission checks, then removal and `delete_message` events grouped per
 * conversation, with the channel's `first_message_id` kept current.
 */
import { realmProperty } from '../../settings/realm-properties.js';
import type { GroupSetting } from '../../entities/group.js';
import type { Message } from '../../entities/message.js';
import type { Stream } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { badRequest } from '../../errors.js';
import { FEATURES } from '../../features/feature-levels.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { actionAudience } from '../../queries/messages/message-audience.js';
import { recipientId } from '../../queries/messages/messages.js';
import { realmSetting } from '../../queries/register/realm-permission-state.js';
import type { World } from '../../state/world.js';
import { onMessageDeleted } from '../personal/attachments.js';

const NO_PERMISSION = "You don't have permission to delete this message";

const inGroup = (world: World, user: User, setting: GroupSetting | undefined): boolean =>
  setting !== undefined && hasGroupSetting(world, user, setting);

/**
 * The real server's `validate_can_delete_message`: anyone in the realm's (or, from level 407,
 * the channel's) `can_delete_any_message_group`; otherwise only one's own messages or one's
 * bots', with the realm's or the channel's `can_delete_own_message_group`, within the realm's
 * `message_content_delete_limit_seconds`.
 */
export function checkCanDeleteMessage(world: World, user: User, message: Message): void {
  if (inGroup(world, user, realmSetting(world, 'can_delete_any_message_group', 'role:administrators'))) return;
  const stream = message.recipient.kind === 'stream' ? world.streams.get(message.recipient.streamId) : undefined;
  const channelLevel = stream !== undefined && world.has(FEATURES.ADMIN_SET_USER_STATUS);
  if (channelLevel && inGroup(world, user, stream.settings.get('can_delete_any_message_group'))) return;
  const sender = world.users.get(message.senderId);
  if (message.senderId !== user.id && sender?.botOwnerId !== user.id) throw badRequest(NO_PERMISSION);
  if (!inGroup(world, user, realmSetting(world, 'can_delete_own_message_group', 'role:everyone'))) {
    if (!channelLevel || !inGroup(world, user, stream.settings.get('can_delete_own_message_group'))) throw badRequest(NO_PERMISSION);
  }
  const limit = realmProperty(world, 'message_content_delete_limit_seconds') as number | null;
  if (limit !== null && world.now() - message.sentAt > limit * 1000) throw badRequest('The time limit for deleting this message has passed');
}

/** Groups messages per conversation: channel and lowercased topic, or direct conversation. */
function conversations(messages: readonly Message[]): Map<string, Message[]> {
  const groups = new Map<string, Message[]>();
  for (const m of messages) {
    const key = m.recipient.kind === 'stream' ? `s${m.recipient.streamId}:${m.recipient.topic.toLowerCase()}` : `d${m.recipient.userIds.join(',')}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return groups;
}

/** From level 256: a new `first_message_id` when the channel's first message went. */
function updateFirstMessageId(world: World, stream: Stream, deleted: readonly number[], audience: Iterable<number>): void {
  if (stream.firstMessageId === null || !deleted.includes(stream.firstMessageId)) return;
  const first = world.messages.index.channel(stream.id).atLeast(0) ?? null;
  stream.firstMessageId = first;
  if (!world.has(FEATURES.DELETE_TOPIC_FIRST_MESSAGE_ID)) return;
  world.events.send({ type: 'stream', op: 'update', property: 'first_message_id', value: first, stream_id: stream.id, name: stream.name }, audience);
}

/**
 * Deletes the messages (already checked) and tells, per conversation, everyone who may read them
 * (and, from level 274, the user who deleted them). Topics in events are lowercased, as the real
 * server groups them.
 */
export function deleteMessages(world: World, messages: readonly Message[], actingUser: User | null): void {
  for (const group of conversations(messages).values()) {
    const sample = group[0] as Message;
    const audience = actionAudience(world, group);
    if (actingUser && world.has(FEATURES.DELETE_EVENT_TO_DELETER)) audience.add(actingUser.id);
    const ids = group.map((m) => m.id).sort((a, b) => a - b);
    const event: { type: string; [key: string]: unknown } = { type: 'delete_message', message_ids: ids };
    if (sample.recipient.kind === 'stream') {
      Object.assign(event, { stream_id: sample.recipient.streamId, topic: sample.recipient.topic.toLowerCase() });
    } else if (!world.has(FEATURES.DELETE_EVENT_NO_DM_SENDER)) {
      Object.assign(event, { sender_id: sample.senderId, recipient_id: recipientId(world, sample) });
    }
    event.message_type = sample.recipient.kind === 'stream' ? 'stream' : 'private';
    for (const id of ids) {
      world.messages.delete(id);
      // A file no other message links is deleted with its last message (an `attachment` event).
      onMessageDeleted(world, id);
    }
    const stream = sample.recipient.kind === 'stream' ? world.streams.get(sample.recipient.streamId) : undefined;
    if (stream) updateFirstMessageId(world, stream, ids, audience);
    world.events.send(event, audience);
  }
}
