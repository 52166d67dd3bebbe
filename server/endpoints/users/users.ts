/** Reading users: `GET /users`, `GET /users/me`, `GET /users/{user_id}` (sections 2.3, 4.21), by email. */
import type { User } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { canAccessUser } from '../../../lib/queries/users/access.js';
import { maxReceivedMessageId } from '../../../lib/queries/messages/message-state.js';
import { accessUserById, inaccessibleUserPlaceholder, toApiUser, userByEmailFor, type UserViewOptions } from '../../../lib/queries/users/users.js';
import { render } from '../../../lib/rendering/render.js';
import { bool, int, list } from '../../../lib/input/schema.js';
import type { World } from '../../../lib/state/world.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json } from '../../app/params.js';
import { MAX_USER_IDS } from '../../../lib/input/limits.js';

const clientGravatar = (world: World): boolean => world.has(FEATURES.CLIENT_GRAVATAR_DEFAULT_TRUE);

const userViewParams = {
  client_gravatar: json(bool),
  include_custom_profile_fields: json(bool).default(false),
};

function viewOptions(world: World, args: { client_gravatar: boolean | undefined; include_custom_profile_fields: boolean }): UserViewOptions {
  return {
    clientGravatar: args.client_gravatar ?? clientGravatar(world),
    includeCustomProfileFields: args.include_custom_profile_fields,
    renderMarkdown: (text) => render(world, text),
  };
}

export const getUser = authed({
  params: userViewParams,
  run({ world, user, path }, args) {
    const target = accessUserById(world, user, Number(path.get('user_id')), { allowDeactivated: true, allowBots: true });
    return { user: toApiUser(world, target, user, viewOptions(world, args)) };
  },
});

const getUsers = authed({
  params: { ...userViewParams, user_ids: json(list(int, MAX_USER_IDS)).availableFrom(FEATURES.GET_USERS_BY_IDS) },
  run({ world, user }, args) {
    const options = viewOptions(world, args);
    const wanted = args.user_ids === undefined ? undefined : new Set(args.user_ids);
    const accessible: Record<string, unknown>[] = [];
    const placeholders: Record<string, unknown>[] = [];
    for (const target of world.users.values()) {
      if (target.isSystemBot || (wanted && !wanted.has(target.id))) continue;
      if (canAccessUser(world, user, target)) accessible.push(toApiUser(world, target, user, options));
      else placeholders.push(inaccessibleUserPlaceholder(world, target));
    }
    return { members: [...accessible, ...placeholders] };
  },
});


/** The real view has no parsing decorator, so it never reports ignored parameters. */
const getOwnUser = authed({
  params: {},
  reportsIgnored: false,
  run({ world, user }) {
    const own = toApiUser(world, user, user, {
      clientGravatar: false,
      includeCustomProfileFields: true,
      renderMarkdown: (text) => render(world, text),
    });
    return { ...own, max_message_id: maxReceivedMessageId(world, user) };
  },
});

/** `GET /users/{email}`: the API email, or the real one where the caller may see it. */
const getUserByEmail = authed({
  params: userViewParams,
  run({ world, user, path }, args) {
    const target = userByEmailFor(world, user, path.get('email') ?? '');
    const found = accessUserById(world, user, target.id, { allowDeactivated: true, allowBots: true });
    return { user: toApiUser(world, found, user, viewOptions(world, args)) };
  },
});

export const routes: RouteDef[] = [
  { path: '/users', methods: { GET: getUsers } },
  { path: '/users/me', methods: { GET: getOwnUser } },
  { path: '/users/{user_id:int}', methods: { GET: getUser } },
  { path: '/users/{email}', methods: { GET: getUserByEmail } },
];
