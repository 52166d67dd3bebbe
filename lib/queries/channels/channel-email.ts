/** A channel's incoming-email (email gateway) address, as `encode_email_address` builds it. */
import { createHash } from 'node:crypto';
import { badRequest } from '../../errors.js';
import type { Stream } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';
import { trimWhere } from '../../input/strings.js';
import { canAdminUser } from '../users/users-admin.js';

/** The system bot that sends what arrives by email when no other sender is named. */
export const EMAIL_GATEWAY_BOT_EMAIL = 'emailgateway@zulip.com';

/** Whose address it is (level 335): the requester and the user shown as the sender of what arrives. */
export interface EmailAddressOwner {
  readonly creatorId: number;
  readonly senderId: number;
}

/**
 * `<slug>.<token>[.show-sender]@<gateway domain>`: the slug is the name with each run of
 * non-word characters made `-`, lower-cased and trimmed of `-`; the 32-hex-digit token is
 * derived from the channel ID here (the real server stores a random one per channel) and, from
 * level 335, from the requester and the sender too (the real server stores a random one per
 * channel, requester and sender): each pair gets its own, stable address.
 */
export function channelEmailAddress(world: World, stream: Stream, options: { showSender?: boolean; owner?: EmailAddressOwner } = {}): string {
  const words = stream.name.replace(/[^\p{L}\p{N}_]+/gu, '-').toLowerCase();
  const slug = trimWhere(words, (unit) => unit === 0x2d);
  const owner = options.owner ? `-${options.owner.creatorId}-${options.owner.senderId}` : '';
  const token = createHash('sha256').update(`channel-email-${stream.id}${owner}`).digest('hex').slice(0, 32);
  const local = `${slug === '' ? '' : `${slug}.`}${token}${options.showSender ? '.show-sender' : ''}`;
  return `${local}@${world.realm.fakeEmailDomain}`;
}

/**
 * The sender an email address is made for (`sender_id`, level 335; the real server's
 * `get_stream_email_address`): the Email Gateway bot when none is named or it is named, the
 * requester, or a bot the requester administers (`No such bot` for other users and unknown IDs,
 * `Insufficient permission` for bots they do not administer).
 */
export function emailAddressSender(world: World, requester: User, senderId: number | undefined): User {
  const gateway = world.usersByEmail.get(EMAIL_GATEWAY_BOT_EMAIL);
  if (!gateway?.isSystemBot) throw new Error('the world has no Email Gateway bot');
  if (senderId === undefined || senderId === gateway.id) return gateway;
  if (senderId === requester.id) return requester;
  const bot = world.users.get(senderId);
  if (!bot || bot.isSystemBot || !bot.isBot) throw badRequest('No such bot');
  if (!canAdminUser(requester, bot)) throw badRequest('Insufficient permission');
  return bot;
}
