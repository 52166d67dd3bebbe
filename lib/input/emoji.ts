/**
 * Emoji lookup and validation for statuses (and reactions): the real server's
 * `get_emoji_data` / `check_emoji_request` rules over the three emoji namespaces.
 */
import { EMOJI_CODE_TO_NAME, EMOJI_NAME_TO_CODE } from '../data/emoji-names.js';
import { badRequest } from '../errors.js';
import type { World } from '../state/world.js';

export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

/**
 * The description (section 2.11) names the bundled namespace `service_extra_emoji`; real servers
 * call it `zulip_extra_emoji`. Both are accepted; the real spelling is what we store and send.
 */
export const REACTION_TYPE_ALIASES: ReadonlyMap<string, ReactionType> = new Map([['service_extra_emoji', 'zulip_extra_emoji']]);

export const normalizeReactionType = (type: string): string => REACTION_TYPE_ALIASES.get(type) ?? type;

export interface EmojiData {
  readonly emojiCode: string;
  readonly reactionType: ReactionType;
}

/** Resolves a name: active custom emoji first, then `zulip`, then Unicode names. */
export function emojiDataByName(world: World, name: string): EmojiData {
  for (const emoji of world.realmEmoji.values()) {
    if (!emoji.deactivated && emoji.name === name) return { emojiCode: String(emoji.id), reactionType: 'realm_emoji' };
  }
  if (name === 'zulip') return { emojiCode: 'zulip', reactionType: 'zulip_extra_emoji' };
  const code = EMOJI_NAME_TO_CODE.get(name);
  if (code !== undefined) return { emojiCode: code, reactionType: 'unicode_emoji' };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Checks that name, code and type designate one existing emoji (type already normalised). */
export function checkEmoji(world: World, name: string, code: string, type: string): void {
  if (type === 'realm_emoji') {
    const emoji = /^\d+$/.test(code) ? world.realmEmoji.get(Number(code)) : undefined;
    if (!emoji || String(emoji.id) !== code) throw badRequest('Invalid custom emoji.');
    if (emoji.name !== name) throw badRequest('Invalid custom emoji name.');
    if (emoji.deactivated) throw badRequest('This custom emoji has been deactivated.');
  } else if (type === 'zulip_extra_emoji') {
    if (code !== 'zulip') throw badRequest('Invalid emoji code.');
    if (name !== code) throw badRequest('Invalid emoji name.');
  } else if (type === 'unicode_emoji') {
    if (!EMOJI_CODE_TO_NAME.has(code)) throw badRequest('Invalid emoji code.');
    if (EMOJI_NAME_TO_CODE.get(name) !== code) throw badRequest('Invalid emoji name.');
  } else {
    throw badRequest('Invalid emoji type.');
  }
}
