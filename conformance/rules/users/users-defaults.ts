/**
 * Parameter defaults of Get a user and the listing (section 4.21): leaving `client_gravatar` out
 * means true from feature level 92 (false before), leaving `include_custom_profile_fields` out
 * means false. A default is observable where the two values give different answers: avatar URLs
 * that one value leaves to the client, `profile_data` that only `true` adds.
 */
import type { Reply } from '../../client/api-client.js';
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { Rule } from '../types.js';
import { type ApiUser, userShape } from './user-shape.js';

/** Level 92: `client_gravatar` defaults to true. */
const GRAVATAR_DEFAULT_TRUE_LEVEL = 92;

const membersOf = (reply: Reply, level: number): ApiUser[] =>
  expectShape(expectSuccess(reply), v.object({ members: v.array(userShape(level)) }), 'body', reply).members;

const userOf = (reply: Reply, level: number): ApiUser => expectShape(expectSuccess(reply), v.object({ user: userShape(level) }), 'body', reply).user;

const defaults: Rule = {
  id: 'users/parameter-defaults',
  title: 'without client_gravatar the answer is that of client_gravatar=true (false before level 92), without include_custom_profile_fields that of false, for GET /users and GET /users/{id}',
  endpoint: 'GET /users/{user_id}',
  section: '4.21; 2.3',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const level = ctx.featureLevel;
    const gravatarDefault = level >= GRAVATAR_DEFAULT_TRUE_LEVEL;
    const plain = await client.get('/users');
    const byDefault = new Map(membersOf(plain, level).map((user) => [user.user_id, user]));
    const asSent = async (value: boolean) => new Map(membersOf(await client.get('/users', { client_gravatar: value }), level).map((user) => [user.user_id, user.avatar_url]));
    const [whenTrue, whenFalse] = [await asSent(true), await asSent(false)];
    // Users whose avatar_url depends on client_gravatar show which value the default is.
    const telling = [...byDefault.keys()].filter((id) => whenTrue.has(id) && whenFalse.has(id) && whenTrue.get(id) !== whenFalse.get(id));
    for (const id of telling) {
      expectEqual(byDefault.get(id)?.avatar_url, (gravatarDefault ? whenTrue : whenFalse).get(id), `user ${id}: avatar_url without client_gravatar (default ${gravatarDefault})`, plain);
    }
    for (const user of byDefault.values()) check(user.profile_data === undefined, `user ${user.user_id}: profile_data without include_custom_profile_fields (default false)`, plain);
    const withFields = membersOf(await client.get('/users', { include_custom_profile_fields: true }), level);
    check(withFields.some((user) => !user.is_bot && user.profile_data !== undefined), 'include_custom_profile_fields=true adds profile_data to users who are not bots');

    // The same defaults for one user fetched alone: one that tells, else the caller itself.
    const id = telling[0] ?? ctx.identity('user').userId;
    const single = await client.get(`/users/${id}`);
    const user = userOf(single, level);
    check(user.profile_data === undefined, 'GET /users/{id}: profile_data without include_custom_profile_fields (default false)', single);
    const explicit = await client.get(`/users/${id}`, { client_gravatar: gravatarDefault });
    expectEqual(user.avatar_url, userOf(explicit, level).avatar_url, `GET /users/${id}: avatar_url without client_gravatar (default ${gravatarDefault})`, single);
    if (telling.length === 0) ctx.note('no user has an avatar_url that depends on client_gravatar here: its default was not observable');
  },
};

export const rules: readonly Rule[] = [defaults];
