/**
 * The caller's own account: `DELETE /users/me` (leaving the organization) and
 * `PATCH`/`DELETE /users/me/profile_data` (custom profile fields). Not in the description; as
 * the real server.
 */
import { removeOwnProfileData, updateOwnProfileData } from '../../../lib/actions/users/profile-data.js';
import { deactivateOwnAccount } from '../../../lib/actions/users/self-deactivation.js';
import { notForBots } from '../../../lib/errors.js';
import { int, list, object, required, str, union } from '../../../lib/input/schema.js';
import { authed, type AuthedContext, type RouteDef } from '../../app/endpoint.js';
import { json } from '../../app/params.js';
import { MAX_USER_IDS } from '../../../lib/input/limits.js';

const humansOnly = ({ user }: AuthedContext): void => {
  if (user.isBot) throw notForBots();
};

const profileValue = object({ id: required(int), value: required(union(str, list(int, MAX_USER_IDS))) });

const updateProfileData = authed({
  gate: humansOnly,
  params: { data: json(list(profileValue)).required() },
  run({ world, user }, args) {
    updateOwnProfileData(world, user, args.data);
    return {};
  },
});

const removeProfileData = authed({
  gate: humansOnly,
  params: { data: json(list(int)).required() },
  run({ world, user }, args) {
    removeOwnProfileData(world, user, args.data);
    return {};
  },
});

/** Not wrapped in the real server's parsing decorator: nothing is reported as ignored. */
const deactivateSelf = authed({
  reportsIgnored: false,
  params: {},
  run({ world, user }) {
    deactivateOwnAccount(world, user);
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/users/me', methods: { DELETE: deactivateSelf } },
  { path: '/users/me/profile_data', methods: { PATCH: updateProfileData, DELETE: removeProfileData } },
];
