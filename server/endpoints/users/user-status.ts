/**
 * User status (section 4.7): `POST /users/me/status`, `GET /users/{user_id}/status` (level 262)
 * and the administrators' `POST /users/{user_id}/status` (level 407).
 */
import { applyStatus, checkStatus, type StatusRequest } from '../../../lib/actions/users/user-status.js';
import { accessUserForAdmin } from '../../../lib/actions/users/users-admin.js';
import { notForBots } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { userStatusOf } from '../../../lib/queries/users/user-status.js';
import { accessUserById } from '../../../lib/queries/users/users.js';
import { bool } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

/** `status_text` is stripped before its 60-character limit is checked. */
const statusText = () => str({ strip: true, maxLength: 60 });

interface StatusArgs {
  readonly status_text: string | undefined;
  readonly emoji_name: string | undefined;
  readonly emoji_code: string | undefined;
  readonly reaction_type: string | undefined;
}

/** The status fields a request sent (both status endpoints), as the action takes them. */
const sentStatus = (args: StatusArgs): StatusRequest => ({
  ...(args.status_text === undefined ? {} : { statusText: args.status_text }),
  ...(args.emoji_name === undefined ? {} : { emojiName: args.emoji_name }),
  ...(args.emoji_code === undefined ? {} : { emojiCode: args.emoji_code }),
  ...(args.reaction_type === undefined ? {} : { reactionType: args.reaction_type }),
});

/** The own-status endpoint: humans only; parameters in the real server's (alphabetical) order. */
const updateOwnStatus = authed({
  gate({ user }) {
    if (user.isBot) throw notForBots();
  },
  params: {
    away: json(bool),
    emoji_code: str().availableFrom(FEATURES.STATUS_EMOJI),
    emoji_name: str().availableFrom(FEATURES.STATUS_EMOJI),
    reaction_type: str().availableFrom(FEATURES.STATUS_EMOJI),
    status_text: statusText(),
  },
  run({ world, user }, args) {
    const checked = checkStatus(world, { ...(args.away === undefined ? {} : { away: args.away }), ...sentStatus(args) });
    applyStatus(world, user, checked, args.away);
    return {};
  },
});

/** An administrator sets another user's status; `away` is not a parameter here. */
const updateUserStatus = authed({
  since: FEATURES.ADMIN_SET_USER_STATUS,
  params: {
    status_text: statusText(),
    emoji_name: str(),
    emoji_code: str(),
    reaction_type: str(),
  },
  run({ world, user, path }, args) {
    const target = accessUserForAdmin(world, user, Number(path.get('user_id')), { allowDeactivated: false, allowBots: false });
    const checked = checkStatus(world, sentStatus(args));
    applyStatus(world, target, checked, undefined);
    return {};
  },
});

/** Any user's status; the view has no parameter parsing, so nothing is reported as ignored. */
const getUserStatus = authed({
  since: FEATURES.GET_USER_STATUS_ENDPOINT,
  reportsIgnored: false,
  params: {},
  run({ world, user, path }) {
    const target = accessUserById(world, user, Number(path.get('user_id')), { allowDeactivated: false, allowBots: false });
    return { status: userStatusOf(world, target) };
  },
});

export const routes: RouteDef[] = [
  { path: '/users/me/status', methods: { POST: updateOwnStatus } },
  { path: '/users/{user_id:int}/status', methods: { GET: getUserStatus, POST: updateUserStatus } },
];
