/** Muted users: `POST`/`DELETE /users/me/muted_users/{muted_user_id}` (level 48; as the real server). */
import { muteUser, unmuteUser } from '../../../lib/actions/personal/muted-users.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { authed, type RouteDef } from '../../app/endpoint.js';

const target = (path: ReadonlyMap<string, string>): number => Number(path.get('muted_user_id'));

const mute = authed({
  since: FEATURES.MUTED_USERS,
  params: {},
  run({ world, user, path }) {
    muteUser(world, user, target(path));
    return {};
  },
});

const unmute = authed({
  since: FEATURES.MUTED_USERS,
  params: {},
  run({ world, user, path }) {
    unmuteUser(world, user, target(path));
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/users/me/muted_users/{muted_user_id:int}', methods: { POST: mute, DELETE: unmute } }];
