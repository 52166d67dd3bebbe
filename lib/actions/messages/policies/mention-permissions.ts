/**
 * Who may use which mention, checked on the rendered content of a sent or edited message, as the
 * real server's `check_message` and `check_update_message` do after rendering
 * (zerver/lib/message.py `stream_wildcard_mention_allowed`, `topic_wildcard_mention_allowed`,
 * `check_user_group_mention_allowed`): wildcards in a channel or topic with more than 15 people
 * need the realm's `can_mention_many_users_group`, and a group mention needs the group's
 * `can_mention_group`. Silent mentions are never checked.
 */
import { ApiError, badRequest } from '../../../errors.js';
import type { Stream } from '../../../entities/stream.js';
import type { User } from '../../../entities/user.js';
import { FEATURES } from '../../../features/feature-levels.js';
import { hasGroupSetting } from '../../../queries/groups/groups.js';
import { realmSetting } from '../../../queries/register/realm-permission-state.js';
import { activeSubscriberIds } from '../../../queries/users/access.js';
import type { World } from '../../../state/world.js';
import { topicParticipants } from '../mention-flags.js';

/** `Realm.WILDCARD_MENTION_THRESHOLD`: up to this many people, anyone may use a wildcard. */
export const WILDCARD_MENTION_THRESHOLD = 15;

const CHANNEL_WILDCARD = '<span class="user-mention channel-wildcard-mention" data-user-id="*">';
const TOPIC_WILDCARD = '<span class="topic-mention">';
const GROUP_MENTION = /<span class="user-group-mention" data-user-group-id="(\d+)">/g;

function wildcardError(world: World, code: string, text: string): ApiError {
  return world.has(FEATURES.WILDCARD_MENTION_ERROR_CODES) ? new ApiError(code, 400, text) : badRequest(text);
}

const canMentionManyUsers = (world: World, user: User): boolean =>
  hasGroupSetting(world, user, realmSetting(world, 'can_mention_many_users_group', 'role:administrators'));

/** Where a channel message goes; null for direct messages, where no wildcard rule applies. */
export interface MentionPlace {
  readonly stream: Stream;
  readonly topic: string;
}

/**
 * Refuses wildcard mentions `wildcardSender` may not make here and group mentions `groupMentioner`
 * may not make (on an edit the real server asks the first of the message's sender, the second
 * of the editor).
 */
export function checkMentionPermissions(world: World, rendered: string, place: MentionPlace | null, wildcardSender: User, groupMentioner: User): void {
  if (place && rendered.includes(CHANNEL_WILDCARD)) {
    const many = activeSubscriberIds(world, place.stream.id).length > WILDCARD_MENTION_THRESHOLD;
    if (many && !canMentionManyUsers(world, wildcardSender)) {
      throw wildcardError(world, 'STREAM_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use channel wildcard mentions in this channel.');
    }
  }
  if (place && world.has(FEATURES.WILDCARD_MENTION_ERROR_CODES) && rendered.includes(TOPIC_WILDCARD)) {
    const participants = topicParticipants(world, place.stream.id, place.topic, wildcardSender.id);
    if (participants.size > WILDCARD_MENTION_THRESHOLD && !canMentionManyUsers(world, wildcardSender)) {
      throw wildcardError(world, 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use topic wildcard mentions in this topic.');
    }
  }
  checkGroupMentions(world, rendered, groupMentioner);
}

/** `check_user_group_mention_allowed`: `role:everyone` lets anyone, even a system bot, mention. */
function checkGroupMentions(world: World, rendered: string, sender: User): void {
  const everyone = world.systemGroupId('role:everyone');
  const seen = new Set<number>();
  for (const match of rendered.matchAll(GROUP_MENTION)) {
    const id = Number(match[1]);
    if (seen.has(id)) continue;
    seen.add(id);
    const group = world.groups.get(id);
    const setting = group?.settings.get('can_mention_group');
    if (!group || !setting || (setting.kind === 'group' && setting.groupId === everyone)) continue;
    if (sender.isSystemBot || !hasGroupSetting(world, sender, setting)) {
      throw badRequest(`You are not allowed to mention user group '${group.name}'.`);
    }
  }
}
