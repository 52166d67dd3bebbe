/**
 * Creating and deactivating bots (`POST /bots`, `DELETE /bots/{bot_id}`), as the real server's
 * `add_bot_backend` and `deactivate_bot_backend` do them: every check first, in the real order,
 * then the account, its services, and the events.
 */
import { markCreationSteps } from '../personal/onboarding-steps.js';
import { generateApiKey } from '../../state/api-key.js';
import { newBotProfile } from '../../entities/bot.js';
import { isValidEmail } from '../../input/email.js';
import { badRequest } from '../../errors.js';
import { BOT_TYPE, EMAIL_VISIBILITY, ROLE, type SettingValue, type User } from '../../entities/user.js';
import { botAudienceIds, botDict, streamNameOrNull } from '../../queries/users/bots.js';
import { checkFullName } from '../../queries/users/users-admin.js';
import { avatarUrl } from '../../queries/users/users.js';
import type { World } from '../../state/world.js';
import {
  accessBotById,
  accessStreamByName,
  checkBotCreationPolicy,
  checkBotNameAvailable,
  checkInterfaceType,
  checkShortName,
  checkValidBotType,
  EMBEDDED_BOT_NAMES,
} from './bot-input.js';
import { syncRoleGroupsWithEvents } from '../groups/role-group-events.js';
import { announceNewUser, doDeactivate } from './users-admin.js';

export interface NewBot {
  readonly fullName: string;
  readonly shortName: string;
  readonly botType: number;
  readonly payloadUrl: string;
  readonly serviceName: string | undefined;
  readonly configData: ReadonlyMap<string, string>;
  readonly interfaceType: number;
  readonly defaultSendingStream: string | undefined;
  readonly defaultEventsRegisterStream: string | undefined;
  readonly defaultAllPublicStreams: boolean | undefined;
  /** How many avatar files came with the request (at most one is allowed). */
  readonly fileCount: number;
}

/** Everything `createBot` checks, in the real server's order; returns what it needs to create. */
function planBot(world: World, owner: User, input: NewBot) {
  const short = checkShortName(input.shortName);
  // Every bot but an incoming webhook has a service, named after the bot unless given.
  const serviceName = input.botType === BOT_TYPE.INCOMING_WEBHOOK ? input.serviceName : input.serviceName || short;
  const fullName = checkFullName(input.fullName, { world, exceptUserId: null });
  // Bots get addresses in the realm's bot domain, which on a development server (whose host has
  // a port) is the fake email domain.
  const email = `${short}-bot@${world.realm.fakeEmailDomain}`;
  if (input.botType === BOT_TYPE.EMBEDDED && !EMBEDDED_BOT_NAMES.includes(serviceName ?? '')) throw badRequest('Invalid embedded bot name.');
  if (!isValidEmail(email)) throw badRequest('Bad name or username');
  if (world.usersByEmail.has(email.toLowerCase())) throw badRequest('Username already in use');
  checkBotNameAvailable(world, fullName);
  checkBotCreationPolicy(world, owner, input.botType);
  const botType = checkValidBotType(world, owner, input.botType);
  checkInterfaceType(input.interfaceType);
  if (input.fileCount > 1) throw badRequest('You may only upload one file at a time');
  const sending = input.defaultSendingStream === undefined ? null : accessStreamByName(world, owner, input.defaultSendingStream).id;
  const events = input.defaultEventsRegisterStream === undefined ? null : accessStreamByName(world, owner, input.defaultEventsRegisterStream).id;
  // Incoming webhook configurations belong to integrations that declare options; none of the
  // integrations this server knows does, so any named one is refused as the real server refuses
  // an integration without options.
  if (botType === BOT_TYPE.INCOMING_WEBHOOK && serviceName) throw badRequest(`Invalid integration '${serviceName}'.`);
  return { fullName, email, botType, serviceName: serviceName ?? '', sending, events };
}

/**
 * `POST /bots`: creates the bot owned by the caller and answers `user_id`, `api_key`,
 * `avatar_url` and the default channels. Events: `realm_user` `add` to everyone who can access
 * it, the role-group `add_members`, then `realm_bot` `add` to the owner and administrators.
 */
export function createBot(world: World, owner: User, input: NewBot): Record<string, unknown> {
  const plan = planBot(world, owner, input);
  const settings = new Map<string, SettingValue>(world.userSettingsDefaults);
  settings.set('email_address_visibility', EMAIL_VISIBILITY.EVERYONE);
  const bot: User = {
    id: world.ids.next('user'),
    deliveryEmail: plan.email,
    fullName: plan.fullName,
    role: ROLE.MEMBER,
    isActive: true,
    isBot: true,
    botType: plan.botType,
    botOwnerId: owner.id,
    apiKey: generateApiKey(),
    password: null,
    timezone: '',
    dateJoined: world.now(),
    avatarSource: input.fileCount === 1 ? 'U' : 'G',
    avatarVersion: 1,
    settings,
    profileData: new Map(),
    isSystemBot: false,
  };
  const profile = newBotProfile();
  profile.defaultSendingStreamId = plan.sending;
  profile.defaultEventsRegisterStreamId = plan.events;
  profile.defaultAllPublicStreams = input.defaultAllPublicStreams ?? false;
  if (plan.botType === BOT_TYPE.OUTGOING_WEBHOOK || plan.botType === BOT_TYPE.EMBEDDED) {
    profile.services.push({ name: plan.serviceName, baseUrl: input.payloadUrl, interface: input.interfaceType, token: generateApiKey() });
  }
  if (plan.botType === BOT_TYPE.EMBEDDED) for (const [key, value] of input.configData) profile.config.set(key, value);
  world.addUser(bot);
  markCreationSteps(world, bot.id);
  world.bots.set(bot.id, profile);
  announceNewUser(world, bot);
  syncRoleGroupsWithEvents(world, [bot]);
  world.events.send({ type: 'realm_bot', op: 'add', bot: botDict(world, bot) }, botAudienceIds(world, bot));
  return {
    user_id: bot.id,
    api_key: bot.apiKey,
    avatar_url: avatarUrl(world, bot, false),
    default_sending_stream: streamNameOrNull(world, plan.sending),
    default_events_register_stream: streamNameOrNull(world, plan.events),
    default_all_public_streams: profile.defaultAllPublicStreams,
  };
}

/**
 * `DELETE /bots/{bot_id}`: the owner or an administrator deactivates the bot (`realm_user` and
 * `realm_bot` updates, as for any deactivation). Deactivating an already deactivated bot is a no-op
 * success, as on the real server.
 */
export function deactivateBot(world: World, actor: User, botId: number): void {
  const bot = accessBotById(world, actor, botId);
  if (bot.isActive) doDeactivate(world, bot);
}
