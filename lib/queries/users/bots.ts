/**
 * Bots as their owners and administrators see them: the `realm_bots` register state, the bot
 * dictionaries of `realm_bot` events and `GET /bots`, and who hears about a bot.
 */
import { type BotProfile, newBotProfile } from '../../entities/bot.js';
import { BOT_TYPE, isAdministrator, type User } from '../../entities/user.js';
import type { World } from '../../state/world.js';
import { avatarUrl } from './users.js';

const NO_PROFILE: BotProfile = newBotProfile();

/** The bot's record, or an empty one (no default channels, no services) when it has none. */
export const botProfileOf = (world: World, bot: User): BotProfile => world.bots.get(bot.id) ?? NO_PROFILE;

/** A channel's name, or null for none (`get_stream_name`). */
export function streamNameOrNull(world: World, streamId: number | null): string | null {
  return streamId === null ? null : (world.streams.get(streamId)?.name ?? null);
}

/**
 * The `services` of a bot dictionary: an outgoing webhook's `{base_url, interface, token}`, an
 * embedded bot's `{config_data, service_name}`, nothing for other bots.
 */
export function botServices(world: World, bot: User): Record<string, unknown>[] {
  const profile = botProfileOf(world, bot);
  if (bot.botType === BOT_TYPE.OUTGOING_WEBHOOK) {
    return profile.services.map((s) => ({ base_url: s.baseUrl, interface: s.interface, token: s.token }));
  }
  if (bot.botType === BOT_TYPE.EMBEDDED) {
    return profile.services.map((s) => ({ config_data: Object.fromEntries(profile.config), service_name: s.name }));
  }
  return [];
}

/** The bot dictionary of `realm_bots` and `realm_bot` `add` events. */
export function botDict(world: World, bot: User): Record<string, unknown> {
  const profile = botProfileOf(world, bot);
  const dict: Record<string, unknown> = {
    email: bot.deliveryEmail,
    user_id: bot.id,
    full_name: bot.fullName,
    bot_type: bot.botType,
    is_active: bot.isActive,
    api_key: bot.apiKey,
    default_sending_stream: streamNameOrNull(world, profile.defaultSendingStreamId),
    default_events_register_stream: streamNameOrNull(world, profile.defaultEventsRegisterStreamId),
    default_all_public_streams: profile.defaultAllPublicStreams,
    avatar_url: avatarUrl(world, bot, false),
    services: botServices(world, bot),
  };
  // Bots without an owner (legacy data) have no `owner_id` key.
  if (bot.botOwnerId !== null) dict.owner_id = bot.botOwnerId;
  return dict;
}

const isRealmBot = (user: User): boolean => user.isBot && !user.isSystemBot;

/** `realm_bots`: every bot of the realm (deactivated ones too) for administrators, else the user's own. */
export function realmBotsState(world: World, user: User): Record<string, unknown>[] {
  const admin = isAdministrator(user);
  return [...world.users.values()].filter((u) => isRealmBot(u) && (admin || u.botOwnerId === user.id)).map((bot) => botDict(world, bot));
}

/** `GET /bots`: the caller's active bots, oldest first, in the older short form. */
export function ownedBots(world: World, owner: User): Record<string, unknown>[] {
  return [...world.users.values()]
    .filter((u) => isRealmBot(u) && u.isActive && u.botOwnerId === owner.id)
    .sort((a, b) => a.dateJoined - b.dateJoined || a.id - b.id)
    .map((bot) => {
      const profile = botProfileOf(world, bot);
      return {
        username: bot.deliveryEmail,
        full_name: bot.fullName,
        api_key: bot.apiKey,
        avatar_url: avatarUrl(world, bot, false),
        default_sending_stream: streamNameOrNull(world, profile.defaultSendingStreamId),
        default_events_register_stream: streamNameOrNull(world, profile.defaultEventsRegisterStreamId),
        default_all_public_streams: profile.defaultAllPublicStreams,
      };
    });
}

/**
 * Who hears `realm_bot` events about a bot (`bot_owner_user_ids`): only its owner when a default
 * channel is private, else the owner and every active human administrator.
 */
export function botAudienceIds(world: World, bot: User): number[] {
  const profile = botProfileOf(world, bot);
  const isPrivate = [profile.defaultSendingStreamId, profile.defaultEventsRegisterStreamId].some(
    (id) => id !== null && world.streams.get(id)?.inviteOnly === true,
  );
  const ids = new Set<number>();
  if (!isPrivate) {
    for (const user of world.users.values()) if (user.isActive && !user.isBot && isAdministrator(user)) ids.add(user.id);
  }
  if (bot.botOwnerId !== null) ids.add(bot.botOwnerId);
  return [...ids].sort((a, b) => a - b);
}
