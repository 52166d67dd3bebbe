/**
 * Identities that read back, in place of the administrator, what every non-guest sees alike
 * (user groups and their members, subgroups and settings; realm settings, user-settings defaults
 * and linkifiers; users' statuses), when the run has them (`Rule.readers`, `ctx.reader`). The
 * administrator carries the most requests of a run and a real server limits each user's requests
 * a minute, so it only makes the changes. Guests are left out: a real server may show them less.
 */
export const NON_GUEST_READERS = ['moderator', 'second-member'] as const;
