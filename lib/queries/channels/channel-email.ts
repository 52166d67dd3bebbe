/** A channel's incoming-email (email gateway) address, as `encode_email_address` builds it. */
import { createHash } from 'node:crypto';
import type { Stream } from '../../entities/stream.js';
import type { World } from '../../state/world.js';
import { trimWhere } from '../../input/strings.js';

/**
 * `<slug>.<token>[.show-sender]@<gateway domain>`: the slug is the name with each run of
 * non-word characters made `-`, lower-cased and trimmed of `-`; the 32-hex-digit token is
 * derived from the channel ID here (the real server stores a random one per channel).
 */
export function channelEmailAddress(world: World, stream: Stream, options: { showSender?: boolean } = {}): string {
  const words = stream.name.replace(/[^\p{L}\p{N}_]+/gu, '-').toLowerCase();
  const slug = trimWhere(words, (unit) => unit === 0x2d);
  const token = createHash('sha256').update(`channel-email-${stream.id}`).digest('hex').slice(0, 32);
  const local = `${slug === '' ? '' : `${slug}.`}${token}${options.showSender ? '.show-sender' : ''}`;
  return `${local}@${world.realm.fakeEmailDomain}`;
}
