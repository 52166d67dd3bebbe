/**
 * Regenerating API keys (`POST /users/me/api_key/regenerate`, `POST /bots/{bot_id}/api_key/regenerate`;
 * the real server's `do_regenerate_api_key`). The old key stops working at once: authentication
 * compares against the user's current key on every request.
 */
import { generateApiKey } from '../../state/api-key.js';
import type { User } from '../../entities/user.js';
import { botAudienceIds } from '../../queries/users/bots.js';
import type { World } from '../../state/world.js';
import { accessBotById } from './bot-input.js';

/** Gives the account a new key; a bot's owner and administrators get a `realm_bot` update with it. */
export function regenerateApiKey(world: World, user: User): string {
  user.apiKey = generateApiKey();
  if (user.isBot) world.events.send({ type: 'realm_bot', op: 'update', bot: { user_id: user.id, api_key: user.apiKey } }, botAudienceIds(world, user));
  return user.apiKey;
}

/** The bot's owner or an administrator regenerates the bot's key. */
export function regenerateBotApiKey(world: World, actor: User, botId: number): string {
  return regenerateApiKey(world, accessBotById(world, actor, botId));
}
