/**
 * `POST` and `DELETE /messages/{message_id}/reactions`: `emoji_name` (required to add),
 * `emoji_code`, `reaction_type` (`unicode_emoji`, `realm_emoji`, `zulip_extra_emoji`; anything
 * else, the description's status alias `service_extra_emoji` included, is `Invalid emoji type.`).
 */
import { addReaction, removeReaction } from '../../../lib/actions/messages/reactions.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';

const messageId = (path: ReadonlyMap<string, string>): number => Number(path.get('message_id'));

const add = authed({
  params: { emoji_name: str().required(), emoji_code: str(), reaction_type: str() },
  run({ world, user, path }, args) {
    addReaction(world, user, messageId(path), { emojiName: args.emoji_name, emojiCode: args.emoji_code, reactionType: args.reaction_type });
    return {};
  },
});

const remove = authed({
  params: { emoji_name: str(), emoji_code: str(), reaction_type: str().default('unicode_emoji') },
  run({ world, user, path }, args) {
    removeReaction(world, user, messageId(path), { emojiName: args.emoji_name, emojiCode: args.emoji_code, reactionType: args.reaction_type });
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/messages/{message_id:int}/reactions', methods: { POST: add, DELETE: remove } }];
