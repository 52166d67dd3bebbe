/**
 * The operations `realm-scale` times: each touches one object (or one user's own data), so its
 * cost should not depend on how many other users and channels the realm has. Every request is
 * made by the development realm's administrator (iago, ID 11) and must answer 200; `i` makes
 * names unique where an operation creates something.
 */
/** What an operation needs to know about the side it runs on. */
export interface Side {
  /** A message in Verona that iago received (the newest at the start; Verona holds 100 messages on the development side). */
  readonly messageId: number;
}

export interface Operation {
  readonly name: string;
  request(i: number, side: Side): { readonly method: string; readonly path: string; readonly params?: Record<string, string> };
}

const VERONA = 3;

export const OPERATIONS: readonly Operation[] = [
  { name: 'GET /users/me/subscriptions', request: () => ({ method: 'GET', path: '/users/me/subscriptions' }) },
  {
    name: 'POST /users/me/subscriptions (one new channel)',
    request: (i) => ({ method: 'POST', path: '/users/me/subscriptions', params: { subscriptions: JSON.stringify([{ name: `bench channel ${i}` }]) } }),
  },
  { name: 'POST /users/me/status', request: (i) => ({ method: 'POST', path: '/users/me/status', params: { status_text: `busy ${i}` } }) },
  {
    name: 'POST /user_groups/create',
    request: (i) => ({ method: 'POST', path: '/user_groups/create', params: { name: `bench group ${i}`, description: 'bench', members: '[11]' } }),
  },
  {
    name: 'PATCH /realm/user_settings_defaults',
    request: (i) => ({ method: 'PATCH', path: '/realm/user_settings_defaults', params: { enter_sends: JSON.stringify(i % 2 === 0) } }),
  },
  { name: 'GET /users/{id}', request: () => ({ method: 'GET', path: '/users/10' }) },
  { name: 'POST /typing (direct)', request: () => ({ method: 'POST', path: '/typing', params: { op: 'start', type: 'direct', to: '[10]' } }) },
  {
    name: 'POST /messages (channel)',
    request: (i) => ({ method: 'POST', path: '/messages', params: { type: 'stream', to: 'Verona', topic: 'bench', content: `message ${i}` } }),
  },
  {
    name: 'POST /drafts',
    request: (i) => ({
      method: 'POST',
      path: '/drafts',
      params: { drafts: JSON.stringify([{ type: 'stream', to: [VERONA], topic: 'bench', content: `draft ${i}`, timestamp: 1_700_000_000 }]) },
    }),
  },
  {
    name: 'POST /user_topics',
    request: (i) => ({ method: 'POST', path: '/user_topics', params: { stream_id: String(VERONA), topic: `topic ${i}`, visibility_policy: '1' } }),
  },
  { name: 'GET /realm/linkifiers', request: () => ({ method: 'GET', path: '/realm/linkifiers' }) },
  {
    name: 'GET /messages (newest 50 in a channel)',
    request: () => ({
      method: 'GET',
      path: '/messages',
      params: { anchor: 'newest', num_before: '50', num_after: '0', narrow: JSON.stringify([{ operator: 'channel', operand: VERONA }]) },
    }),
  },
  {
    name: 'POST/DELETE /messages/{id}/reactions',
    request: (i, side) => ({ method: i % 2 === 0 ? 'POST' : 'DELETE', path: `/messages/${side.messageId}/reactions`, params: { emoji_name: 'octopus' } }),
  },
  {
    name: 'POST /messages/flags (starred)',
    request: (i, side) => ({ method: 'POST', path: '/messages/flags', params: { messages: `[${side.messageId}]`, op: i % 2 === 0 ? 'add' : 'remove', flag: 'starred' } }),
  },
];
