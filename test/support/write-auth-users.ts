/**
 * Who may write users and bots (test/support/write-auth.ts), as the real server's
 * zerver/views/users.py and zerver/lib/users.py decide: other accounts are administrators'
 * (`access_user_by_id(for_admin=True)`: "Insufficient permission"; owners' accounts and the owner
 * role are owners'), a bot is its owner's or an administrator's (`access_bot_by_id`; editing
 * and re-keying are `require_member_or_admin`), bots are created by members, and a user's status
 * is set for them by administrators only.
 */
import { ALL, below, bad, INSUFFICIENT, MUST_BE_ADMIN, MUST_BE_OWNER, NOT_FOR_BOTS, NOT_FOR_GUESTS, refuse, type WriteRule } from './write-auth.js';

export const USER_RULES: readonly WriteRule[] = [
  {
    route: 'POST /users',
    targets: { 'a new account': (sc, as) => ({ path: '/users', params: { email: `new-${as}@zulip.com`, password: 'a-long-password', full_name: `New ${as}` } }) },
    refused: [refuse(below('administrator'), 'a new account', MUST_BE_ADMIN)],
  },
  {
    route: 'PATCH /users/{user_id:int}',
    targets: {
      'another user': (sc) => ({ path: `/users/${sc.other}`, params: { full_name: 'Renamed' } }),
      "an owner's role": (sc) => ({ path: `/users/${sc.id('owner')}`, params: { role: 400 } }),
      'a deactivated user': (sc) => ({ path: `/users/${sc.deactivated}`, params: { full_name: 'Renamed' } }),
      "another user's email": (sc, as) => ({ path: `/users/${sc.other}`, params: { new_email: `moved-${as}@zulip.com` } }),
    },
    refused: [
      refuse(below('administrator'), 'another user', INSUFFICIENT),
      refuse(below('administrator'), "an owner's role", INSUFFICIENT),
      refuse('administrator', "an owner's role", MUST_BE_OWNER),
      refuse(below('administrator'), 'a deactivated user', INSUFFICIENT),
      refuse(below('administrator'), "another user's email", INSUFFICIENT),
    ],
  },
  {
    // Level 313: found as GET /users/{email} finds them (othello's API email), then as above.
    route: 'PATCH /users/{email}',
    targets: {
      'another user': (sc) => ({ path: `/users/user${sc.other}@zulipdev.com`, params: { full_name: 'Renamed' } }),
      "another user's email": (sc, as) => ({ path: `/users/user${sc.other}@zulipdev.com`, params: { new_email: `moved-${as}@zulip.com` } }),
    },
    refused: [refuse(below('administrator'), 'another user', INSUFFICIENT), refuse(below('administrator'), "another user's email", INSUFFICIENT)],
  },
  {
    route: 'DELETE /users/{user_id:int}',
    targets: {
      'another user': (sc) => ({ path: `/users/${sc.other}` }),
      'an owner': (sc) => ({ path: `/users/${sc.id('owner')}` }),
      'a deactivated user': (sc) => ({ path: `/users/${sc.deactivated}` }),
      'a bot': (sc) => ({ path: `/users/${sc.bot}` }),
    },
    refused: [
      // Bots are deactivated through DELETE /bots/{id}.
      refuse(ALL, 'a bot', bad('No such user')),
      refuse(below('administrator'), 'another user', INSUFFICIENT),
      refuse(below('administrator'), 'an owner', INSUFFICIENT),
      refuse('administrator', 'an owner', MUST_BE_OWNER),
      // access_user_by_id refuses a deactivated target before it looks at the caller's rights.
      refuse(ALL, 'a deactivated user', bad('User is deactivated')),
    ],
  },
  {
    route: 'POST /users/{user_id:int}/reactivate',
    targets: { 'a deactivated user': (sc) => ({ path: `/users/${sc.deactivated}/reactivate` }), 'an active user': (sc) => ({ path: `/users/${sc.other}/reactivate` }) },
    refused: [refuse(below('administrator'), 'a deactivated user', INSUFFICIENT), refuse(below('administrator'), 'an active user', INSUFFICIENT)],
  },
  {
    route: 'POST /users/{user_id:int}/status',
    targets: {
      'another user': (sc) => ({ path: `/users/${sc.other}/status`, params: { status_text: 'set for him' } }),
      'a deactivated user': (sc) => ({ path: `/users/${sc.deactivated}/status`, params: { status_text: 'set for him' } }),
    },
    refused: [refuse(below('administrator'), 'another user', INSUFFICIENT), refuse(ALL, 'a deactivated user', bad('User is deactivated'))],
  },
  {
    route: 'POST /bots',
    targets: { 'a new bot': (sc, as) => ({ path: '/bots', params: { full_name: `Bot of ${as}`, short_name: `bot-of-${as}` } }) },
    refused: [refuse('guest', 'a new bot', NOT_FOR_GUESTS), refuse('bot', 'a new bot', NOT_FOR_BOTS)],
  },
  {
    route: 'PATCH /bots/{bot_id:int}',
    targets: { "another user's bot": (sc) => ({ path: `/bots/${sc.bot}`, params: { full_name: 'Taken Over' } }) },
    refused: [refuse(['moderator', 'member'], "another user's bot", INSUFFICIENT), refuse('guest', "another user's bot", NOT_FOR_GUESTS), refuse('bot', "another user's bot", NOT_FOR_BOTS)],
  },
  {
    route: 'DELETE /bots/{bot_id:int}',
    targets: { "another user's bot": (sc) => ({ path: `/bots/${sc.bot}` }) },
    refused: [refuse(below('administrator'), "another user's bot", INSUFFICIENT)],
  },
  {
    route: 'POST /bots/{bot_id:int}/api_key/regenerate',
    targets: { "another user's bot": (sc) => ({ path: `/bots/${sc.bot}/api_key/regenerate` }) },
    refused: [refuse(['moderator', 'member'], "another user's bot", INSUFFICIENT), refuse('guest', "another user's bot", NOT_FOR_GUESTS), refuse('bot', "another user's bot", NOT_FOR_BOTS)],
  },
  // Below level 23 only: the caller's own pointer, which every role (bots too) may move.
  { route: 'PUT /users/me/pointer', targets: {}, refused: [], open: "moves the caller's own pointer; the real view checks no role" },
  { route: 'POST /users/me/pointer', targets: {}, refused: [], open: "moves the caller's own pointer; the real view checks no role" },
];
