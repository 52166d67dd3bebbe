/** The bot records a fixture's bots start with, as a Zulip development server seeds them. */
import { generateApiKey } from './api-key.js';
import { type BotProfile, newBotProfile } from './entities/bot.js';
import { BOT_TYPE, type User } from './entities/user.js';

/** Where the development server's outgoing webhook bot posts (`http://127.0.0.1:5002`, the generic interface). */
const DEV_OUTGOING_WEBHOOK_URL = 'http://127.0.0.1:5002';

/** Default channels unset; an outgoing webhook bot gets the dev server's one service, named after its email. */
export function fixtureBotProfile(bot: User): BotProfile {
  const profile = newBotProfile();
  if (bot.botType === BOT_TYPE.OUTGOING_WEBHOOK) {
    const name = bot.deliveryEmail.split('@')[0] ?? '';
    profile.services.push({ name, baseUrl: DEV_OUTGOING_WEBHOOK_URL, interface: 1, token: generateApiKey() });
  }
  return profile;
}
