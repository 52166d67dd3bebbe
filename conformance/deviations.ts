/**
 * The one table of known deviations: points where the real Zulip server answers differently from
 * the API description. The suite accepts both answers and records the deviation when it sees the
 * real one (`ctx.deviation(id, detail)`). Each entry names the side the reference server takes:
 * mostly the description (accepting the real spelling too), but where real clients depend on the
 * real server's answer, or the description cannot be followed, the real server's. `--strict-docs`
 * fails a rule that observes a deviation only where the reference keeps to the description, so
 * it holds a target to the description exactly as far as the reference server is held to it.
 */

/** An error answer: HTTP status and `code`. */
export interface ErrorAnswer {
  readonly status: number;
  readonly code: string;
}

export interface Deviation {
  readonly id: string;
  /** Section of the description. */
  readonly section: string;
  /** What the description says. */
  readonly documented: string;
  /** What the real server does. */
  readonly real: string;
  /** The side the reference server takes; `--strict-docs` fails only on 'description' entries. */
  readonly reference: 'description' | 'real server';
  /** Why the reference takes the real server's side, where it does. */
  readonly why?: string;
  /** Where the real behaviour is established (behaviour reference, server source, tests). */
  readonly source: string;
  /** For error-answer deviations: both answers (see `expectErrorOrDeviation`). */
  readonly answers?: { readonly documented: ErrorAnswer; readonly real: ErrorAnswer };
  /** For spelling deviations: the documented value and the real server's value. */
  readonly spellings?: ReadonlyArray<{ readonly documented: string; readonly real: string }>;
}

export const DEVIATIONS = [
  {
    id: 'navigation-view-not-found-code',
    section: '4.13',
    documented: 'unknown fragment: code NOT_FOUND',
    real: 'HTTP 404 with code BAD_REQUEST (resource-not-found class changes only the status)',
    reference: 'description',
    source: 'real-server notes (messages-reports-reminders-misc) 0.1, 9.6',
    answers: { documented: { status: 404, code: 'NOT_FOUND' }, real: { status: 404, code: 'BAD_REQUEST' } },
  },
  {
    id: 'push-not-configured-code',
    section: '4.12',
    documented: 'push service not configured: code PUSH_SERVICE_NOT_CONFIGURED',
    real: 'HTTP 400 with code BAD_REQUEST (same message)',
    reference: 'description',
    source: 'real-server notes (messages-reports-reminders-misc) 8.1',
    answers: { documented: { status: 400, code: 'PUSH_SERVICE_NOT_CONFIGURED' }, real: { status: 400, code: 'BAD_REQUEST' } },
  },
  {
    id: 'extra-emoji-reaction-type',
    section: '2.11, 4.7',
    documented: "reaction_type 'service_extra_emoji'",
    real: "reaction_type 'zulip_extra_emoji'",
    reference: 'real server',
    why: 'both spellings are accepted; statuses read back with the real spelling, which real clients compare against',
    source: 'real-server notes (users-auth-status-settings) 6.1',
    spellings: [{ documented: 'service_extra_emoji', real: 'zulip_extra_emoji' }],
  },
  {
    id: 'can-mention-group-owners',
    section: '4.9',
    documented: "can_mention_group cannot be the 'role:owners' system group",
    real: "can_mention_group accepts 'role:owners' (only 'role:internet' is refused); the OpenAPI sentence is stale",
    reference: 'description',
    source: 'real-server notes (presence-drafts-groups) 3.2 (do_test_set_group_setting_during_user_group_creation), 4',
  },
  {
    id: 'emojiset-names',
    section: '4.3',
    documented: "emojiset values 'emojiset_a', 'emojiset_b', 'text'",
    real: "emojiset values 'google', 'twitter', 'text' (and 'google-blob')",
    reference: 'real server',
    why: 'both spellings are accepted; settings read back with the real spelling, which real clients compare against',
    source: 'real-server notes (users-auth-status-settings) 7.2',
    spellings: [
      { documented: 'emojiset_a', real: 'google' },
      { documented: 'emojiset_b', real: 'twitter' },
    ],
  },
  {
    id: 'human-bot-fields-absent',
    section: '2.3',
    documented: 'bot_type and bot_owner_id are null for users who are not bots',
    real: 'the keys bot_type and bot_owner_id are absent for users who are not bots',
    reference: 'description',
    source: 'real-server notes (users-auth-status-settings) 4.4, 8.9',
  },
  {
    id: 'avatar-url-null-condition',
    section: '2.3',
    documented: 'avatar_url is null when client_gravatar is true, the caller can access the real email and the avatar is a third-party one',
    real: "avatar_url is null when client_gravatar is true, the target's email visibility is 'everyone' and the avatar is a Gravatar",
    reference: 'description',
    source: 'real-server notes (users-auth-status-settings) 4.4',
  },
  {
    id: 'reminder-required-parameters',
    section: '4.17',
    documented: 'message_id and scheduled_delivery_timestamp are optional',
    real: "both are required: omitting one gives 400 REQUEST_VARIABLE_MISSING (Missing '<name>' argument)",
    reference: 'real server',
    why: 'a reminder needs a message and a time: leaving them optional, as described, cannot be followed',
    source: 'real-server notes (messages-reports-reminders-misc) 9.5',
  },
  {
    id: 'admin-only-code',
    section: '5.5',
    documented: 'a caller lacking the administrator permission receives BAD_REQUEST',
    real: 'role-gated endpoints (realm user-settings defaults, linkifiers) answer 400 UNAUTHORIZED_PRINCIPAL (Must be an organization administrator), checked before the parameters',
    reference: 'real server',
    why: 'every administrator-only view of the real server answers this way, and the endpoints beyond the description follow it too',
    source: 'real-server notes (users-auth-status-settings) 7.1; real-server notes (messages-reports-reminders-misc) 0.2',
    answers: { documented: { status: 400, code: 'BAD_REQUEST' }, real: { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' } },
  },
  {
    id: 'ignored-parameters-not-reported',
    section: '1 convention 4',
    documented: 'a success response to a request with unsupported parameters carries ignored_parameters_unsupported',
    real: 'views without a parsing decorator never report them: /server_settings, /dev_list_users, GET /users/me (in recent versions), GET /users/{id}/status, POST /users/{id}/reactivate',
    reference: 'real server',
    why: 'these views take no parameters on the real server; reporting would differ from every real deployment',
    source: 'real-server notes (http-register-events) 1.6; real-server notes (users-auth-status-settings) 1.4; zerver/views/users.py get_profile_backend',
  },
  {
    id: 'deactivate-owner-by-administrator-code',
    section: '3.2, 4.15',
    documented: 'deactivating the only organization owner gives BAD_REQUEST (an administrator may deactivate users unless the target is the only owner)',
    real: "an administrator who is not an owner deactivating an owner gets HTTP 400 UNAUTHORIZED_PRINCIPAL (Must be an organization owner), checked before the only-owner check",
    reference: 'real server',
    why: 'the real server checks the owner requirement first; the described code would change the order of checks',
    source: 'real-server notes (users-auth-status-settings) 5.1 (checks 2-3; test_api_with_nonexistent_user)',
    answers: { documented: { status: 400, code: 'BAD_REQUEST' }, real: { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' } },
  },
  {
    id: 'mark-topic-as-read-empty-topic',
    section: '4.11',
    documented: 'an empty topic_name marks the messages of the empty topic as read',
    real: 'an empty topic_name marks the whole channel as read',
    reference: 'description',
    source: 'real-server notes (subscriptions-typing-topics) 8',
  },
  {
    id: 'user-topics-empty-topic-display-name-kept',
    section: '1 convention 6, 4.4',
    documented: "since level 334 the realm's empty-topic display name as topic on POST /user_topics means the empty topic",
    real: 'possibly stored under the display name itself: the view read does not convert it (unconfirmed; OpenAPI update-user-topic documents the conversion)',
    reference: 'description',
    source: 'real-server notes (subscriptions-typing-topics) 7.2',
  },
] as const satisfies readonly Deviation[];

export type DeviationId = (typeof DEVIATIONS)[number]['id'];

const BY_ID: ReadonlyMap<string, Deviation> = new Map(DEVIATIONS.map((entry) => [entry.id, entry]));

/** The table entry for `id`; throws for an unknown id (a rule-authoring mistake). */
export function deviationById(id: string): Deviation {
  const entry = BY_ID.get(id);
  if (!entry) throw new Error(`unknown deviation id '${id}' (add it to conformance/deviations.ts)`);
  return entry;
}

export function isDeviationId(id: string): id is DeviationId {
  return BY_ID.has(id);
}
