/**
 * What the reaction rules share: emoji every Zulip server knows (names and codes of its Unicode
 * table, and `zulip`), an active custom emoji of the realm when it has one (read from
 * `realm_emoji`, never created), the request parameters for each way of naming an emoji, the
 * reactions of a message as one identity reads them back, and the error codes by level.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { check, expectError } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { registerState } from '../support/state-fetch.js';
import type { RuleContext } from '../types.js';
import { LEVEL, viewMessage } from './message-flags-support.js';

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

/** One emoji: the name a client sends, its code and its type. */
export interface Emoji {
  readonly name: string;
  readonly code: string;
  readonly type: ReactionType;
}

const unicode = (name: string, code: string): Emoji => ({ name, code, type: 'unicode_emoji' });

/** Unicode emoji with the same names and codes on every Zulip server (its `name_to_codepoint`). */
export const UNICODE = {
  octopus: unicode('octopus', '1f419'),
  heart: unicode('heart', '2764'),
  tada: unicode('tada', '1f389'),
  thumbsUp: unicode('thumbs_up', '1f44d'),
  /** Another name of the same code as `thumbs_up`. */
  plusOne: unicode('+1', '1f44d'),
} as const;

/** The one emoji of the `zulip_extra_emoji` type. */
export const ZULIP: Emoji = { name: 'zulip', code: 'zulip', type: 'zulip_extra_emoji' };

/** The fields a request names an emoji by. */
export type EmojiFields = 'name' | 'name+code' | 'name+type' | 'name+code+type' | 'code+type' | 'code';

/** The request parameters naming `emoji` by `fields`. */
export function emojiParams(emoji: Emoji, fields: EmojiFields): Record<string, string> {
  const params: Record<string, string> = {};
  if (fields.includes('name')) params.emoji_name = emoji.name;
  if (fields.includes('code')) params.emoji_code = emoji.code;
  if (fields.includes('type')) params.reaction_type = emoji.type;
  return params;
}

/** `POST /messages/{id}/reactions`. */
export const addReaction = (client: ApiClient, id: number, params: Readonly<Record<string, string>>): Promise<Reply> =>
  client.post(`/messages/${id}/reactions`, { ...params });

/** `DELETE /messages/{id}/reactions`. */
export const removeReaction = (client: ApiClient, id: number, params: Readonly<Record<string, string>>): Promise<Reply> =>
  client.delete(`/messages/${id}/reactions`, { ...params });

/** The realm's active custom emoji (`realm_emoji` of `POST /register`). */
async function activeCustomEmoji(client: ApiClient): Promise<Emoji[]> {
  const { body } = await registerState(client, ['realm_emoji']);
  const all = body.realm_emoji;
  if (all === null || typeof all !== 'object') return [];
  return Object.values(all as Record<string, unknown>).flatMap((entry) => {
    const emoji = entry as { id?: unknown; name?: unknown; deactivated?: unknown };
    const usable = emoji.deactivated === false && typeof emoji.name === 'string' && (typeof emoji.id === 'string' || typeof emoji.id === 'number');
    return usable ? [{ name: String(emoji.name), code: String(emoji.id), type: 'realm_emoji' as const }] : [];
  });
}

/**
 * The emoji the rules use: the Unicode ones, `zulip`, and one active custom emoji of the realm
 * when it has one (the rules never upload one: that changes what every member sees). A custom
 * emoji named like one of ours takes that name over (names are looked up among custom emoji
 * first), so the rule is skipped on such a realm.
 */
export async function emojiCatalog(ctx: RuleContext, client: ApiClient): Promise<{ custom: Emoji | undefined }> {
  const customs = await activeCustomEmoji(client);
  const ours = new Set([...Object.values(UNICODE), ZULIP].map((emoji) => emoji.name));
  const shadowing = customs.find((emoji) => ours.has(emoji.name));
  if (shadowing) ctx.skip(`the realm has a custom emoji named '${shadowing.name}', which takes over the name of the emoji the rule uses`);
  const custom = customs[0];
  if (!custom) ctx.note('the realm has no active custom emoji: the realm_emoji rows were not checked');
  return { custom };
}

/** A reaction as the API shows it: who reacted with which emoji. */
export interface SeenReaction {
  readonly userId: number;
  readonly name: string;
  readonly code: string;
  readonly type: string;
}

/** The reactions of message objects at this level: `user_id` from 2, the legacy `user` object before 328 only. */
export function reactionShape(level: number) {
  const user = v.object({ id: v.int(), email: v.string(), full_name: v.string() });
  return v.object(
    {
      emoji_name: v.string(),
      emoji_code: v.string(),
      reaction_type: v.string(),
      ...(level >= LEVEL.REACTION_USER_ID ? { user_id: v.int({ min: 1 }) } : {}),
      ...(level < LEVEL.REACTION_USER_REMOVED ? { user } : {}),
    },
    { exact: level >= LEVEL.REACTION_USER_ID, forbidden: level >= LEVEL.REACTION_USER_REMOVED ? ['user'] : [] },
  );
}

/** The reactions of message `id` as `client` reads them back (`GET /messages/{id}`), checked against the level's shape. */
export async function reactionsOf(ctx: RuleContext, client: ApiClient, id: number): Promise<SeenReaction[]> {
  const view = await viewMessage(client, id);
  const shape = v.array(reactionShape(ctx.featureLevel));
  const problems: string[] = [];
  shape.check(view.reactions, 'message.reactions', problems);
  check(problems.length === 0, () => `reactions of message ${id}: ${problems.join('; ')}`, view.reply);
  return view.reactions.map((r) => ({
    userId: Number(r.user_id ?? (r.user as JsonObject | undefined)?.id),
    name: String(r.emoji_name),
    code: String(r.emoji_code),
    type: String(r.reaction_type),
  }));
}

/** `user/code/type name` of each reaction, sorted: the comparable form of a message's reactions. */
export const reactionKeys = (reactions: readonly SeenReaction[]): string[] =>
  reactions.map((r) => `${r.userId}/${r.code}/${r.type} ${r.name}`).sort();

/** The key of `emoji` added by `userId` (stored under `name`, the emoji's own unless a vote kept another). */
export const reactionKey = (userId: number, emoji: Emoji, name = emoji.name): string => `${userId}/${emoji.code}/${emoji.type} ${name}`;

/** 400 with `REACTION_ALREADY_EXISTS` / `REACTION_DOES_NOT_EXIST` from level 193, `BAD_REQUEST` before. */
export function expectReactionError(ctx: RuleContext, reply: Reply, code: 'REACTION_ALREADY_EXISTS' | 'REACTION_DOES_NOT_EXIST'): void {
  expectError(reply, { status: 400, code: ctx.featureLevel >= LEVEL.REACTION_CODES ? code : 'BAD_REQUEST' });
}
