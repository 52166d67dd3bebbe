/**
 * Bots: `GET`/`POST /bots`, `PATCH`/`DELETE /bots/{bot_id}`, `POST /bots/{bot_id}/api_key/regenerate`
 * and `POST /users/me/api_key/regenerate` (the real server's bot views; not in the description).
 */
import { regenerateApiKey, regenerateBotApiKey } from '../../../lib/actions/users/api-keys.js';
import { patchBot } from '../../../lib/actions/users/bot-update.js';
import { createBot, deactivateBot } from '../../../lib/actions/users/bots.js';
import { badRequest, notForBots, notForGuests } from '../../../lib/errors.js';
import { isGuest, type Role, ROLES } from '../../../lib/entities/user.js';
import { ownedBots } from '../../../lib/queries/users/bots.js';
import { bool, int, mapOf, oneOf, str as strSchema } from '../../../lib/input/schema.js';
import { authed, type AuthedContext, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

/** `require_member_or_admin`: guests first, then bots, before any parameter is read. */
const memberOrAdmin = ({ user }: AuthedContext): void => {
  if (isGuest(user)) throw notForGuests();
  if (user.isBot) throw notForBots();
};

/** Django's URL validator, roughly: a scheme it accepts and a host. */
const URL_PATTERN = /^(?:https?|ftps?):\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;
const url = json(strSchema).check((value, name) => {
  if (!URL_PATTERN.test(value)) throw badRequest(`${name} is not a URL`);
});

const botId = (path: ReadonlyMap<string, string>): number => Number(path.get('bot_id'));

const getBots = authed({
  gate: memberOrAdmin,
  params: {},
  run({ world, user }) {
    return { bots: ownedBots(world, user) };
  },
});

const addBot = authed({
  gate: memberOrAdmin,
  params: {
    full_name: str().required(),
    short_name: str().required(),
    bot_type: json(int).default(1),
    payload_url: url.default(''),
    service_name: str(),
    config_data: json(mapOf(strSchema)).default(new Map()),
    interface_type: json(int).default(1),
    default_sending_stream: str(),
    default_events_register_stream: str(),
    default_all_public_streams: json(bool),
  },
  run({ world, user, params }, args) {
    return createBot(world, user, {
      fullName: args.full_name,
      shortName: args.short_name,
      botType: args.bot_type,
      payloadUrl: args.payload_url,
      serviceName: args.service_name,
      configData: args.config_data,
      interfaceType: args.interface_type,
      defaultSendingStream: args.default_sending_stream,
      defaultEventsRegisterStream: args.default_events_register_stream,
      defaultAllPublicStreams: args.default_all_public_streams,
      fileCount: params.files.length,
    });
  },
});

const updateBot = authed({
  gate: memberOrAdmin,
  params: {
    full_name: str(),
    role: json(oneOf(int, ROLES)),
    bot_owner_id: json(int),
    config_data: json(mapOf(strSchema)),
    service_payload_url: url,
    service_interface: json(int).default(1),
    default_sending_stream: str(),
    default_events_register_stream: str(),
    default_all_public_streams: json(bool),
  },
  run({ world, user, path, params }, args) {
    return patchBot(world, user, botId(path), {
      ...(args.full_name === undefined ? {} : { fullName: args.full_name }),
      ...(args.role === undefined ? {} : { role: args.role as Role }),
      ...(args.bot_owner_id === undefined ? {} : { botOwnerId: args.bot_owner_id }),
      ...(args.config_data === undefined ? {} : { configData: args.config_data }),
      ...(args.service_payload_url === undefined ? {} : { servicePayloadUrl: args.service_payload_url }),
      serviceInterface: args.service_interface,
      ...(args.default_sending_stream === undefined ? {} : { defaultSendingStream: args.default_sending_stream }),
      ...(args.default_events_register_stream === undefined ? {} : { defaultEventsRegisterStream: args.default_events_register_stream }),
      ...(args.default_all_public_streams === undefined ? {} : { defaultAllPublicStreams: args.default_all_public_streams }),
      fileCount: params.files.length,
    });
  },
});

/** Not wrapped in the real server's parsing decorator: nothing is reported as ignored. */
const removeBot = authed({
  reportsIgnored: false,
  params: {},
  run({ world, user, path }) {
    deactivateBot(world, user, botId(path));
    return {};
  },
});

const regenerateBotKey = authed({
  gate: memberOrAdmin,
  params: {},
  run({ world, user, path }) {
    return { api_key: regenerateBotApiKey(world, user, botId(path)) };
  },
});

/** Bots may call it too: the real view deliberately lets a bot re-key itself. */
const regenerateOwnKey = authed({
  params: {},
  run({ world, user }) {
    return { api_key: regenerateApiKey(world, user) };
  },
});

export const routes: RouteDef[] = [
  { path: '/bots', methods: { GET: getBots, POST: addBot } },
  { path: '/bots/{bot_id:int}', methods: { PATCH: updateBot, DELETE: removeBot } },
  { path: '/bots/{bot_id:int}/api_key/regenerate', methods: { POST: regenerateBotKey } },
  { path: '/users/me/api_key/regenerate', methods: { POST: regenerateOwnKey } },
];
