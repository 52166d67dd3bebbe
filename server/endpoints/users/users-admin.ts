/**
 * User administration (sections 3.2 and 4.15): `POST /users`, `PATCH /users/{user_id}`,
 * `PATCH /users/{email}` (313), `DELETE /users/{user_id}` and `POST /users/{user_id}/reactivate`.
 */
import { type ProfileDataEntry, updateUser, type UserUpdate } from '../../../lib/actions/users/user-profile-update.js';
import { createUser, deactivateUser, reactivateUser } from '../../../lib/actions/users/users-admin.js';
import { mustBeAdministrator } from '../../../lib/errors.js';
import { isAdministrator, type Role, ROLES } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { int, list, nullable, object, oneOf, required, str as strSchema, union } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, type ParamValues, str } from '../../app/params.js';
import { MAX_USER_IDS } from '../../../lib/input/limits.js';
import { userByEmailFor } from '../../../lib/queries/users/users.js';

const targetId = (path: ReadonlyMap<string, string>): number => Number(path.get('user_id'));

/** Administrators only (checked before parameters); from level 36 the realm must allow creating users. */
const createUserEndpoint = authed({
  gate({ user }) {
    if (!isAdministrator(user)) throw mustBeAdministrator();
  },
  params: { email: str().required(), password: str().required(), full_name: str().required() },
  run({ world }, args) {
    const created = createUser(world, { email: args.email, password: args.password, fullName: args.full_name });
    return world.has(FEATURES.CREATE_USER_RETURNS_ID) ? { user_id: created.id } : {};
  },
});

/** `deactivation_notification_comment` is capped at 2000 characters and stripped (level 135). */
const deactivateUserEndpoint = authed({
  params: {
    deactivation_notification_comment: str({ maxLength: 2000 }).availableFrom(FEATURES.DEACTIVATION_NOTIFICATION_COMMENT),
  },
  run({ world, user, path }, args) {
    deactivateUser(world, user, targetId(path), args.deactivation_notification_comment);
    return {};
  },
});

/** No parameter parsing in the real view, so nothing is reported as ignored. */
const reactivateUserEndpoint = authed({
  reportsIgnored: false,
  params: {},
  run({ world, user, path }) {
    reactivateUser(world, user, targetId(path));
    return {};
  },
});

const profileDataEntry = object({ id: required(int), value: required(nullable(union(strSchema, list(int, MAX_USER_IDS)))) });

const updateUserParams = {
  full_name: str(),
  role: json(oneOf(int, ROLES)),
  profile_data: json(list(profileDataEntry)),
  new_email: str().availableFrom(FEATURES.CHANGE_USER_EMAILS),
};

function userUpdate(args: ParamValues<typeof updateUserParams>): UserUpdate {
  return {
    ...(args.full_name === undefined ? {} : { fullName: args.full_name }),
    ...(args.role === undefined ? {} : { role: args.role as Role }),
    ...(args.profile_data === undefined ? {} : { profileData: args.profile_data as ProfileDataEntry[] }),
    ...(args.new_email === undefined ? {} : { newEmail: args.new_email }),
  };
}

const updateUserEndpoint = authed({
  params: updateUserParams,
  run({ world, user, path }, args) {
    updateUser(world, user, targetId(path), userUpdate(args));
    return {};
  },
});

/** Level 313: the same update, the user found as `GET /users/{email}` finds them. */
const updateUserByEmailEndpoint = authed({
  since: FEATURES.CHANGE_USER_EMAILS,
  params: updateUserParams,
  run({ world, user, path }, args) {
    const target = userByEmailFor(world, user, path.get('email') ?? '');
    updateUser(world, user, target.id, userUpdate(args));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/users', methods: { POST: createUserEndpoint } },
  { path: '/users/{user_id:int}', methods: { PATCH: updateUserEndpoint, DELETE: deactivateUserEndpoint } },
  { path: '/users/{user_id:int}/reactivate', methods: { POST: reactivateUserEndpoint } },
  { path: '/users/{email}', methods: { PATCH: updateUserByEmailEndpoint } },
];
