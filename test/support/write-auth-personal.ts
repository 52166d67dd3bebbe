/**
 * Who may write personal records (test/support/write-auth.ts): each user only their own drafts,
 * snippets, uploads, navigation views, topic preferences, settings and push registrations, as the
 * real server's views look them up by the caller (zerver/views/drafts.py, saved_snippets.py,
 * attachments.py, navigation_views.py, user_topics.py, user_settings.py, push_notifications.py);
 * another user's record is "does not exist". Views marked `@human_users_only` refuse bots.
 */
import { ALL, type Answer, bad, NOT_FOR_BOTS, refuse, type Target, type WriteRule } from './write-auth.js';

const LOCKED = bad('You are not allowed to change this field. Contact an administrator to update it.');

/** Another user's record, looked up among the caller's own: every role gets "does not exist". */
const notTheCallers = (route: string, what: string, target: Target, answer: Answer): WriteRule => ({ route, targets: { [what]: target }, refused: [refuse(ALL, what, answer)] });

const open = (route: string, why: string): WriteRule => ({ route, targets: {}, refused: [], open: why });

export const PERSONAL_RULES: readonly WriteRule[] = [
  {
    route: 'POST /drafts',
    targets: { 'a private channel': (sc) => ({ path: '/drafts', params: { drafts: [{ type: 'stream', to: [sc.secret], topic: 't', content: 'c', timestamp: 1_700_000_000 }] } }) },
    refused: [refuse(ALL, 'a private channel', bad('Invalid channel ID'))],
  },
  notTheCallers('PATCH /drafts/{draft_id:int}', "another user's draft", (sc) => ({ path: `/drafts/${sc.draft}`, params: { draft: { type: '', to: [], topic: '', content: 'mine now', timestamp: 1_700_000_000 } } }), bad('Draft does not exist', 404)),
  notTheCallers('DELETE /drafts/{draft_id:int}', "another user's draft", (sc) => ({ path: `/drafts/${sc.draft}` }), bad('Draft does not exist', 404)),
  open('POST /saved_snippets', "creates the caller's own snippet"),
  notTheCallers('PATCH /saved_snippets/{saved_snippet_id:int}', "another user's snippet", (sc) => ({ path: `/saved_snippets/${sc.snippet}`, params: { title: 'mine now' } }), bad('Saved snippet does not exist.', 404)),
  notTheCallers('DELETE /saved_snippets/{saved_snippet_id:int}', "another user's snippet", (sc) => ({ path: `/saved_snippets/${sc.snippet}` }), bad('Saved snippet does not exist.', 404)),
  open('POST /user_uploads', "stores the caller's own file"),
  notTheCallers('DELETE /attachments/{attachment_id:int}', "another user's upload", (sc) => ({ path: `/attachments/${sc.attachment}` }), bad('Invalid attachment')),
  open('POST /navigation_views', "creates the caller's own view"),
  {
    route: 'PATCH /navigation_views/{fragment:path}',
    targets: { "another user's view": (sc) => ({ path: `/navigation_views/${encodeURIComponent(sc.view)}`, params: { is_pinned: false } }) },
    // Code NOT_FOUND as the description says; the real server sends BAD_REQUEST (docs/deviations.md).
    refused: [refuse(ALL, "another user's view", { status: 404, code: 'NOT_FOUND', msg: 'Navigation view does not exist.' })],
  },
  notTheCallers('DELETE /navigation_views/{fragment:path}', "another user's view", (sc) => ({ path: `/navigation_views/${encodeURIComponent(sc.view)}` }), bad('Navigation view does not exist.', 404)),
  open('POST /users/me/alert_words', "the caller's own alert words"),
  open('DELETE /users/me/alert_words', "the caller's own alert words"),
  {
    route: 'POST /users/me/muted_users/{muted_user_id:int}',
    targets: { 'a deactivated user': (sc) => ({ path: `/users/me/muted_users/${sc.deactivated}` }) },
    refused: [],
    open: "the caller's own mutes; a deactivated user may be muted (access_user_by_id with allow_deactivated)",
  },
  {
    route: 'DELETE /users/me/muted_users/{muted_user_id:int}',
    targets: { "a user the caller has not muted": (sc) => ({ path: `/users/me/muted_users/${sc.other}` }) },
    refused: [refuse(ALL, 'a user the caller has not muted', bad('User is not muted'))],
  },
  {
    route: 'PATCH /settings',
    targets: { "the caller's settings": () => ({ path: '/settings', params: { enter_sends: true } }) },
    refused: [refuse('bot', "the caller's settings", NOT_FOR_BOTS)],
  },
  {
    route: 'POST /user_topics',
    targets: {
      'a private channel': (sc) => ({ path: '/user_topics', params: { stream_id: sc.secret, topic: 'hidden', visibility_policy: 1 } }),
      'an archived channel': (sc) => ({ path: '/user_topics', params: { stream_id: sc.archived, topic: 't', visibility_policy: 1 } }),
    },
    refused: [refuse(ALL, 'a private channel', bad('Invalid channel ID')), refuse(ALL, 'an archived channel', bad('Invalid channel ID'))],
  },
  {
    route: 'POST /users/me/presence',
    targets: { "the caller's presence": () => ({ path: '/users/me/presence', params: { status: 'active' } }) },
    refused: [refuse('bot', "the caller's presence", NOT_FOR_BOTS)],
  },
  open('POST /users/me/status', "the caller's own status"),
  {
    route: 'POST /mobile_push/register',
    targets: {
      "the caller's device": () => ({
        path: '/mobile_push/register',
        params: { token_kind: 'fcm', push_account_id: 1, push_public_key: 'k', bouncer_public_key: 'b', encrypted_push_registration: 'e' },
      }),
    },
    refused: [refuse('bot', "the caller's device", NOT_FOR_BOTS)],
  },
  {
    route: 'POST /mobile_push/test_notification',
    targets: { "the caller's devices": () => ({ path: '/mobile_push/test_notification', params: {} }) },
    refused: [refuse('bot', "the caller's devices", NOT_FOR_BOTS)],
  },
  ...(['POST', 'DELETE'] as const).flatMap((method) =>
    (['apns_device_token', 'android_gcm_reg_id'] as const).map(
      (kind): WriteRule => ({
        route: `${method} /users/me/${kind}`,
        targets: { "the caller's device": () => ({ path: `/users/me/${kind}`, params: { token: 'abc123', ...(method === 'POST' && kind === 'apns_device_token' ? { appid: 'org.zulip.Zulip' } : {}) } }) },
        refused: [refuse('bot', "the caller's device", NOT_FOR_BOTS)],
      }),
    ),
  ),
  {
    route: 'POST /users/me/onboarding_steps',
    targets: { "the caller's own steps": () => ({ path: '/users/me/onboarding_steps', params: { onboarding_step: 'intro_inbox_view_modal' } }) },
    refused: [refuse('bot', "the caller's own steps", NOT_FOR_BOTS)],
  },
  open('POST /users/me/hotspots', 'served only below level 233 (the scene is at 415); the caller marks its own hotspots, bots refused (hotspots.test.ts)'),
  open('POST /users/me/tutorial_status', 'served only below level 282 (the scene is at 415); the caller sets its own tutorial status, bots refused (hotspots.test.ts)'),
  open('POST /users/me/api_key/regenerate', "replaces the caller's own key; bots may too, as the real view says"),
  {
    route: 'PATCH /users/me/profile_data',
    targets: {
      "the caller's profile": (sc) => ({ path: '/users/me/profile_data', params: { data: [{ id: sc.profileField, value: '555' }] } }),
      'a field not editable by users': (sc) => ({ path: '/users/me/profile_data', params: { data: [{ id: sc.lockedField, value: '555' }] } }),
    },
    refused: [refuse('bot', "the caller's profile", NOT_FOR_BOTS), refuse(['moderator', 'member', 'guest'], 'a field not editable by users', LOCKED)],
  },
  {
    route: 'DELETE /users/me/profile_data',
    targets: {
      "the caller's profile": (sc) => ({ path: '/users/me/profile_data', params: { data: [sc.profileField] } }),
      'a field not editable by users': (sc) => ({ path: '/users/me/profile_data', params: { data: [sc.lockedField] } }),
    },
    refused: [refuse('bot', "the caller's profile", NOT_FOR_BOTS), refuse(['moderator', 'member', 'guest'], 'a field not editable by users', LOCKED)],
  },
  open('DELETE /users/me', "deactivates the caller's own account (the last owner is refused, tested in own-account.test.ts)"),
  open('POST /register', 'registers an event queue of the caller; not world state'),
  open('DELETE /events', "removes one of the caller's event queues; another's is BAD_EVENT_QUEUE_ID, tested in event-queues.test.ts"),
];
