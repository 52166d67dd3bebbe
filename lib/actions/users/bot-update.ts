/**
 * `PATCH /bots/{bot_id}` (the real server's `patch_bot_backend`): name, role, owner, default
 * channels, outgoing-webhook service, embedded-bot configuration and avatar, one part after
 * another as the real view does; each change sends the events its real action sends.
 */
import { badRequest } from '../../errors.js';
import type { Role, User } from '../../entities/user.js';
import { activeRealmUserIds } from '../../queries/users/access.js';
import { botAudienceIds, botDict, botProfileOf, streamNameOrNull } from '../../queries/users/bots.js';
import { checkFullName, userIdsWhoCanAccess } from '../../queries/users/users-admin.js';
import { apiEmail, avatarUrl } from '../../queries/users/users.js';
import type { World } from '../../state/world.js';
import { accessBotById, accessStreamByName, checkBotNameAvailable, checkBotRoleChange, checkInterfaceType } from './bot-input.js';
import { syncRoleGroupsWithEvents } from '../groups/role-group-events.js';
import { notifyAvatarUrlChange } from './avatar-events.js';

export interface BotPatch {
  readonly fullName?: string;
  readonly role?: Role;
  readonly botOwnerId?: number;
  readonly configData?: ReadonlyMap<string, string>;
  readonly servicePayloadUrl?: string;
  readonly serviceInterface: number;
  readonly defaultSendingStream?: string;
  readonly defaultEventsRegisterStream?: string;
  readonly defaultAllPublicStreams?: boolean;
  readonly fileCount: number;
}

/** `""` clears a default channel; any other name must be a channel the caller can read. */
function streamChoice(world: World, actor: User, name: string | undefined): number | null | undefined {
  if (name === undefined) return undefined;
  return name === '' ? null : accessStreamByName(world, actor, name).id;
}

function checkNewOwner(world: World, ownerId: number): User {
  const owner = world.users.get(ownerId);
  if (!owner || owner.isSystemBot) throw badRequest('Failed to change owner, no such user');
  if (!owner.isActive) throw badRequest('Failed to change owner, user is deactivated');
  if (owner.isBot) throw badRequest("Failed to change owner, bots can't own other bots");
  return owner;
}

/** The bot's record, created on first write for bots that had none. */
function writableProfile(world: World, bot: User) {
  const existing = world.bots.get(bot.id);
  if (existing) return existing;
  const created = { ...botProfileOf(world, bot), services: [], config: new Map<string, string>() };
  world.bots.set(bot.id, created);
  return created;
}

const sendBotUpdate = (world: World, bot: User, fields: Record<string, unknown>): void =>
  world.events.send({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...fields } }, botAudienceIds(world, bot));

/**
 * `do_change_bot_owner`: the previous owner (unless an administrator) gets `delete`, the new one
 * (unless an administrator) `add`; the remaining audience an `update` with `owner_id`; everyone a
 * `realm_user` update with `bot_owner_id`.
 */
function changeOwner(world: World, bot: User, owner: User): void {
  const previous = bot.botOwnerId === null ? undefined : world.users.get(bot.botOwnerId);
  bot.botOwnerId = owner.id;
  let audience = botAudienceIds(world, bot);
  if (previous && previous.role > 200) {
    world.events.send({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [previous.id]);
    audience = audience.filter((id) => id !== previous.id);
  }
  if (owner.role > 200) {
    world.events.send({ type: 'realm_bot', op: 'add', bot: botDict(world, bot) }, [owner.id]);
    audience = audience.filter((id) => id !== owner.id);
  }
  world.events.send({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } }, audience);
  world.events.send({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } }, activeRealmUserIds(world));
}

function changeAvatar(world: World, bot: User): void {
  bot.avatarSource = 'U';
  bot.avatarVersion += 1;
  notifyAvatarUrlChange(world, bot);
}

function renameBot(world: World, bot: User, requested: string): void {
  const name = checkFullName(requested, { world, exceptUserId: bot.id });
  // An unchanged name is silently accepted (the web app always sends it).
  if (name === bot.fullName) return;
  checkBotNameAvailable(world, name, bot.id);
  bot.fullName = name;
  world.events.send({ type: 'realm_user', op: 'update', person: { user_id: bot.id, full_name: bot.fullName } }, userIdsWhoCanAccess(world, bot));
  sendBotUpdate(world, bot, { full_name: bot.fullName });
}

function changeRole(world: World, actor: User, bot: User, role: Role): void {
  if (role === bot.role) return;
  checkBotRoleChange(actor, bot, role);
  bot.role = role;
  world.events.send({ type: 'realm_user', op: 'update', person: { user_id: bot.id, role: bot.role } }, activeRealmUserIds(world));
  syncRoleGroupsWithEvents(world, [bot]);
}

/**
 * Applies the patch part by part, in the real view's order, each part checked just before it is
 * applied: as in `patch_bot_backend`, a refused part leaves the earlier parts changed. Answers
 * the bot's resulting fields as the real view does.
 */
export function patchBot(world: World, actor: User, botId: number, patch: BotPatch): Record<string, unknown> {
  const bot = accessBotById(world, actor, botId);
  if (patch.fullName !== undefined) renameBot(world, bot, patch.fullName);
  if (patch.role !== undefined) changeRole(world, actor, bot, patch.role);
  if (patch.botOwnerId !== undefined) {
    const owner = checkNewOwner(world, patch.botOwnerId);
    if (owner.id !== bot.botOwnerId) changeOwner(world, bot, owner);
  }
  const sending = streamChoice(world, actor, patch.defaultSendingStream);
  if (sending !== undefined) {
    writableProfile(world, bot).defaultSendingStreamId = sending;
    sendBotUpdate(world, bot, { default_sending_stream: streamNameOrNull(world, sending) });
  }
  const events = streamChoice(world, actor, patch.defaultEventsRegisterStream);
  if (events !== undefined) {
    writableProfile(world, bot).defaultEventsRegisterStreamId = events;
    sendBotUpdate(world, bot, { default_events_register_stream: streamNameOrNull(world, events) });
  }
  if (patch.defaultAllPublicStreams !== undefined) {
    writableProfile(world, bot).defaultAllPublicStreams = patch.defaultAllPublicStreams;
    sendBotUpdate(world, bot, { default_all_public_streams: patch.defaultAllPublicStreams });
  }
  if (patch.servicePayloadUrl !== undefined) {
    checkInterfaceType(patch.serviceInterface);
    // The real server crashes (500) for a bot without a service; refused here instead.
    if (botProfileOf(world, bot).services.length === 0) throw badRequest('This bot has no outgoing webhook service');
    for (const service of writableProfile(world, bot).services.slice(0, 1)) {
      service.baseUrl = patch.servicePayloadUrl;
      service.interface = patch.serviceInterface;
      sendBotUpdate(world, bot, { services: [{ base_url: service.baseUrl, interface: service.interface, token: service.token }] });
    }
  }
  if (patch.configData !== undefined) {
    const profile = writableProfile(world, bot);
    for (const [key, value] of patch.configData) profile.config.set(key, value);
    sendBotUpdate(world, bot, { services: [{ config_data: Object.fromEntries(profile.config) }] });
  }
  if (patch.fileCount > 1) throw badRequest('You may only upload one file at a time');
  if (patch.fileCount === 1) changeAvatar(world, bot);
  const profile = botProfileOf(world, bot);
  const result: Record<string, unknown> = {
    full_name: bot.fullName,
    avatar_url: avatarUrl(world, bot, false),
    service_interface: patch.serviceInterface,
    service_payload_url: patch.servicePayloadUrl ?? null,
    config_data: patch.configData === undefined ? null : Object.fromEntries(patch.configData),
    default_sending_stream: streamNameOrNull(world, profile.defaultSendingStreamId),
    default_events_register_stream: streamNameOrNull(world, profile.defaultEventsRegisterStreamId),
    default_all_public_streams: profile.defaultAllPublicStreams,
  };
  const owner = bot.botOwnerId === null ? undefined : world.users.get(bot.botOwnerId);
  if (owner) result.bot_owner = apiEmail(world, owner);
  return result;
}
