/**
 * The checks behind creating and editing bots, each with the real server's message: names,
 * who may create which bot types, service interfaces and default channels.
 */
import { EMBEDDED_BOTS } from '../../data/embedded-bots.js';
import { SERVICE_INTERFACES } from '../../entities/bot.js';
import { badRequest, mustBeAdministrator, mustBeOwner } from '../../errors.js';
import type { Stream } from '../../entities/stream.js';
import { BOT_TYPE, type BotType, isAdministrator, isOwner, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { hasContentAccess } from '../../queries/users/access.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { realmSetting } from '../../queries/register/realm-permission-state.js';
import { canAdminUser } from '../../queries/users/users-admin.js';
import type { World } from '../../state/world.js';

/** The embedded bots a development server offers (`EMBEDDED_BOTS`; embedded bots are enabled there). */
export const EMBEDDED_BOT_NAMES: readonly string[] = EMBEDDED_BOTS.map((bot) => bot.name);

/** `check_short_name`: stripped, and not empty. */
export function checkShortName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw badRequest('Bad name or username');
  return name;
}

/** `check_bot_name_available`: no active account of the realm may already carry the name. */
export function checkBotNameAvailable(world: World, fullName: string, exceptId?: number): void {
  const name = fullName.trim();
  for (const user of world.users.values()) {
    if (user.id !== exceptId && user.isActive && !user.isSystemBot && user.fullName === name) throw badRequest('Name is already in use.');
  }
}

const holds = (world: World, user: User, setting: string): boolean =>
  hasGroupSetting(world, user, realmSetting(world, setting, 'role:members'), { allowEveryone: false });

/**
 * The bot types the user may create (`allowed_bot_types`). From level 344 two group settings
 * decide: `can_create_bots_group` every type, `can_create_write_only_bots_group` incoming
 * webhooks only. Before, the `bot_creation_policy` enum did, which here is read off the same two
 * settings (members: everyone; write-only members but not all: generic bots limited to
 * administrators).
 */
export function allowedBotTypes(world: World, user: User): BotType[] {
  const all: BotType[] = [BOT_TYPE.GENERIC, BOT_TYPE.INCOMING_WEBHOOK, BOT_TYPE.OUTGOING_WEBHOOK, BOT_TYPE.EMBEDDED];
  if (!world.has(FEATURES.CREATE_BOTS_GROUPS)) {
    return isAdministrator(user) || holds(world, user, 'can_create_bots_group') ? all : all.filter((type) => type !== BOT_TYPE.GENERIC);
  }
  if (holds(world, user, 'can_create_bots_group')) return all;
  if (holds(world, user, 'can_create_write_only_bots_group')) return [BOT_TYPE.INCOMING_WEBHOOK];
  return [];
}

/**
 * Who may create a bot of this type. From level 344 (`check_can_create_bot`) only the group
 * settings decide, for administrators too: `can_create_bots_group` any type,
 * `can_create_write_only_bots_group` incoming webhooks ("Insufficient permission" otherwise).
 * Before, `check_bot_creation_policy` let administrators through and refused others with "Must be
 * an organization administrator" (admins only, or generic bots limited to them).
 */
export function checkBotCreationPolicy(world: World, user: User, botType: number): void {
  const all = holds(world, user, 'can_create_bots_group');
  const writeOnly = holds(world, user, 'can_create_write_only_bots_group');
  if (world.has(FEATURES.CREATE_BOTS_GROUPS)) {
    if (all || (botType === BOT_TYPE.INCOMING_WEBHOOK && writeOnly)) return;
    throw badRequest('Insufficient permission');
  }
  if (isAdministrator(user) || all) return;
  if (!writeOnly || botType === BOT_TYPE.GENERIC) throw mustBeAdministrator();
}

/** `check_valid_bot_type`. */
export function checkValidBotType(world: World, user: User, botType: number): BotType {
  const allowed = allowedBotTypes(world, user);
  if (!(allowed as number[]).includes(botType)) throw badRequest('Invalid bot type');
  return botType as BotType;
}

/** `check_valid_interface_type`: 1 (generic) or 2 (Slack-compatible). */
export function checkInterfaceType(interfaceType: number): void {
  if (!SERVICE_INTERFACES.includes(interfaceType)) throw badRequest('Invalid interface type');
}

/** `access_stream_by_name`: a channel the user can read, by name (case-insensitive). */
export function accessStreamByName(world: World, user: User, name: string): Stream {
  const stream = world.streamByName(name);
  if (!stream || stream.isArchived || !hasContentAccess(world, user, stream)) throw badRequest(`Invalid channel name '${name}'`);
  return stream;
}

/**
 * `access_bot_by_id`: a bot of the realm (deactivated ones too) that the user owns or
 * administers; "No such bot" otherwise, "Insufficient permission" for others' bots.
 */
export function accessBotById(world: World, user: User, botId: number): User {
  const bot = world.users.get(botId);
  if (!bot || bot.isSystemBot || !bot.isBot) throw badRequest('No such bot');
  if (!canAdminUser(user, bot)) throw badRequest('Insufficient permission');
  return bot;
}

/** Role changes of bots follow `PATCH /users/{user_id}`: owners for the owner role, administrators otherwise. */
export function checkBotRoleChange(actor: User, bot: User, role: number): void {
  if ((role === 100 || bot.role === 100) && !isOwner(actor)) throw mustBeOwner();
  if (!isAdministrator(actor)) throw mustBeAdministrator();
}
