/**
 * Presence (sections 2.4, 3.3, 4.5): `POST /users/me/presence`, `GET /realm/presence` and
 * `GET /users/{user_id_or_email}/presence`, all measured on the world's clock.
 */
import { reportPresence } from '../../../lib/actions/users/presence.js';
import { badRequest, notForBots } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { presenceState, singleUserPresence } from '../../../lib/queries/users/presence.js';
import { bool, int } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

/** Report own presence and fetch everyone's; parameters in the real server's (alphabetical) order. */
const updatePresence = authed({
  gate({ user }) {
    if (user.isBot) throw notForBots();
  },
  params: {
    history_limit_days: json(int).availableFrom(FEATURES.PRESENCE_HISTORY_LIMIT_DAYS),
    last_update_id: json(int).availableFrom(FEATURES.PRESENCE_LAST_UPDATE_ID),
    new_user_input: json(bool).default(false),
    ping_only: json(bool).default(false),
    slim_presence: json(bool).default(false),
    status: str().required(),
  },
  run({ world, user }, args) {
    const status = args.status;
    if (status !== 'active' && status !== 'idle') throw badRequest(`Invalid status: ${status}`);
    // `new_user_input` only feeds usage statistics, which this server does not keep.
    // A production server writes presence through a queue worker, after answering.
    world.afterAnswer(() => reportPresence(world, user, status));
    if (args.ping_only) return {};
    const state = presenceState(world, user, {
      slim: args.slim_presence || args.last_update_id !== undefined,
      ...(args.last_update_id === undefined ? {} : { lastUpdateId: args.last_update_id }),
      ...(args.history_limit_days === undefined ? {} : { historyLimitDays: args.history_limit_days }),
    });
    const { presence_last_update_id, ...rest } = state;
    return world.has(FEATURES.PRESENCE_LAST_UPDATE_ID) ? state : rest;
  },
});

/** Everyone's presence in the legacy format, without `presence_last_update_id`. */
const realmPresence = authed({
  params: {},
  run({ world, user }) {
    const { presences, server_timestamp } = presenceState(world, user, { slim: false });
    return { presences, server_timestamp };
  },
});

const userPresence = authed({
  params: {},
  run({ world, path }) {
    return { presence: singleUserPresence(world, path.get('user_id_or_email') ?? '') };
  },
});

export const routes: RouteDef[] = [
  { path: '/users/me/presence', methods: { POST: updatePresence } },
  { path: '/realm/presence', methods: { GET: realmPresence } },
  { path: '/users/{user_id_or_email}/presence', methods: { GET: userPresence } },
];
