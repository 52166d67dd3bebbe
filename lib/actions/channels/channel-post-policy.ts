/**
 * The legacy posting policy of `PATCH /streams/{stream_id}` before level 333 (`stream_post_policy`
 * 1-4, or `is_announcement_only`), stored as the equivalent `can_send_message_group` role group,
 * with the `stream_post_policy` and `is_announcement_only` updates and the notice of that era.
 */
import { namedGroup } from '../../entities/group.js';
import type { Stream } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { silentMention } from '../../rendering/message-links.js';
import { streamPostPolicy } from '../../queries/channels/channels.js';
import type { World } from '../../state/world.js';
import { metadataAudience, postChannelNotice, sendStreamUpdate } from './channel-update-events.js';

const POLICY_GROUPS = ['role:everyone', 'role:administrators', 'role:fullmembers', 'role:moderators'] as const;

const POLICY_NAMES = [
  'All channel members can post',
  'Only organization administrators can post',
  'Only organization full members can post',
  'Only organization administrators and moderators can post',
] as const;

/** `is_announcement_only` is the older spelling: true is policy 2, false policy 1. */
export function legacyPostPolicyOf(policy: number | undefined, announcementOnly: boolean | undefined): number | undefined {
  if (announcementOnly !== undefined) return announcementOnly ? 2 : 1;
  return policy;
}

/** Applies a legacy policy (1-4); the policy already in force changes nothing. */
export function changePostPolicy(world: World, actor: User, stream: Stream, policy: number): void {
  const old = streamPostPolicy(world, stream);
  if (old === policy) return;
  stream.settings.set('can_send_message_group', namedGroup(world.systemGroupId(POLICY_GROUPS[policy - 1] ?? 'role:everyone')));
  const audience = metadataAudience(world, stream);
  sendStreamUpdate(world, stream, 'stream_post_policy', policy, audience);
  sendStreamUpdate(world, stream, 'is_announcement_only', policy === 2, audience);
  const text =
    `${silentMention(actor)} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n` +
    `* **Old**: ${POLICY_NAMES[old - 1]}\n* **New**: ${POLICY_NAMES[policy - 1]}\n`;
  postChannelNotice(world, actor, stream, text, stream.isArchived);
}
