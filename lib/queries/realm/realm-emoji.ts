/** The realm's custom emoji in the API shape of `GET /realm/emoji` and register's `realm_emoji`. */
import type { World } from '../../state/world.js';

export function realmEmojiState(world: World): Record<string, unknown> {
  return Object.fromEntries(
    [...world.realmEmoji.values()].map((emoji) => [
      String(emoji.id),
      {
        id: String(emoji.id),
        name: emoji.name,
        source_url: `/user_avatars/${world.realm.id}/emoji/images/${emoji.fileName ?? `${emoji.id}.png`}`,
        still_url: null,
        deactivated: emoji.deactivated,
        author_id: emoji.authorId,
      },
    ]),
  );
}
