/**
 * The realm's direct-message settings, as the real server's `check_can_send_direct_message`
 * (zerver/actions/message_send.py) applies them: a conversation needs at least one member of
 * `direct_message_permission_group` among its participants, and a conversation that has no
 * message yet may only be started by a member of `direct_message_initiator_group`. Bots, and
 * messages to oneself or only to bots, are exempt.
 */
import { badRequest } from '../../../errors.js';
import type { User } from '../../../entities/user.js';
import { hasGroupSetting } from '../../../queries/groups/groups.js';
import { realmSetting } from '../../../queries/register/realm-permission-state.js';
import type { World } from '../../../state/world.js';

const sameParticipants = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);

/** Whether any direct message has exactly these participants (sorted IDs, the sender included). */
function conversationExists(world: World, participantIds: readonly number[]): boolean {
  const source = world.messages.index.direct(participantIds);
  for (let id = source.atLeast(0); id !== undefined; id = source.atLeast(id + 1)) {
    const message = world.messages.get(id);
    if (message?.recipient.kind === 'direct' && sameParticipants(message.recipient.userIds, participantIds)) return true;
  }
  return false;
}

/** `recipients`: the addressed users; `participantIds`: them and the sender, sorted. */
export function checkCanSendDirectMessage(world: World, sender: User, recipients: readonly User[], participantIds: readonly number[]): void {
  if (sender.isBot) return;
  if (recipients.every((user) => user.isBot || user.id === sender.id)) return;
  const permission = realmSetting(world, 'direct_message_permission_group', 'role:everyone');
  const participants = [...recipients, sender];
  if (!participants.some((user) => hasGroupSetting(world, user, permission))) {
    const nobody = permission.kind === 'group' && permission.groupId === world.systemGroupId('role:nobody');
    throw badRequest(nobody ? 'Direct messages are disabled in this organization.' : 'This conversation does not include any users who can authorize it.');
  }
  const initiator = realmSetting(world, 'direct_message_initiator_group', 'role:everyone');
  if (hasGroupSetting(world, sender, initiator)) return;
  if (!conversationExists(world, participantIds)) throw badRequest('You are not allowed to start direct message conversations.');
}
