/**
 * Who may write organization settings and records (test/support/write-auth.ts), as the real
 * server's zerver/views/realm*.py, custom_profile_fields.py, realm_playgrounds.py,
 * realm_linkifiers.py, invite.py and realm_export.py decide: settings, profile fields,
 * playgrounds, linkifiers and exports are administrators' (`require_realm_admin`), deactivating
 * the organization and changing its email domains are owners' (`require_realm_owner`), custom emoji are added by
 * `can_add_custom_emoji_group` (members) and removed by administrators or their author,
 * invitations are sent by `can_invite_users_group` (members; never guests) and revoked by their
 * sender or administrators, invitation links by `create_multiuse_invite_group` (administrators).
 */
import { below, bad, INSUFFICIENT, MUST_BE_ADMIN, MUST_BE_OWNER, NOT_FOR_BOTS, NOT_FOR_GUESTS, refuse, refuseOn, type Refusal, type Target, type WriteRule } from './write-auth.js';

/** Invitation views are `require_member_or_admin`: guests and bots are refused first. */
const humansWhoMayInvite = (target: string): Refusal[] => [refuse('guest', target, NOT_FOR_GUESTS), refuse('bot', target, NOT_FOR_BOTS)];

const adminOnly = (route: string, target: Target, answer = MUST_BE_ADMIN): WriteRule => ({ route, targets: { 'the organization': target }, refused: [refuse(below('administrator'), 'the organization', answer)] });

export const REALM_RULES: readonly WriteRule[] = [
  {
    route: 'PATCH /realm',
    targets: { 'the organization': () => ({ path: '/realm', params: { description: 'taken over' } }), 'an owner-only setting': () => ({ path: '/realm', params: { message_retention_days: 30 } }) },
    refused: [...refuseOn(below('administrator'), ['the organization', 'an owner-only setting'], MUST_BE_ADMIN), refuse('administrator', 'an owner-only setting', MUST_BE_OWNER)],
  },
  adminOnly('PATCH /realm/user_settings_defaults', () => ({ path: '/realm/user_settings_defaults', params: { enter_sends: true } })),
  adminOnly('POST /realm/profile_fields', () => ({ path: '/realm/profile_fields', params: { name: 'Shoe size', field_type: 1 } })),
  adminOnly('PATCH /realm/profile_fields', (sc) => ({ path: '/realm/profile_fields', params: { order: sc.s.world.customProfileFields.map((field) => field.id).reverse() } })),
  adminOnly('PATCH /realm/profile_fields/{field_id:int}', (sc) => ({ path: `/realm/profile_fields/${sc.profileField}`, params: { name: 'Renamed' } })),
  adminOnly('DELETE /realm/profile_fields/{field_id:int}', (sc) => ({ path: `/realm/profile_fields/${sc.profileField}` })),
  adminOnly('POST /realm/playgrounds', () => ({ path: '/realm/playgrounds', params: { name: 'Rust', pygments_language: 'Rust', url_template: 'https://rust.example/?code={code}' } })),
  adminOnly('DELETE /realm/playgrounds/{playground_id:int}', (sc) => ({ path: `/realm/playgrounds/${sc.playground}` })),
  adminOnly('POST /realm/filters', () => ({ path: '/realm/filters', params: { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' } })),
  adminOnly('PATCH /realm/filters/{filter_id:int}', (sc) => ({ path: `/realm/filters/${sc.linkifier}`, params: { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' } })),
  adminOnly('DELETE /realm/filters/{filter_id:int}', (sc) => ({ path: `/realm/filters/${sc.linkifier}` })),
  adminOnly('PATCH /realm/linkifiers', (sc) => ({ path: '/realm/linkifiers', params: { ordered_linkifier_ids: [...sc.s.world.linkifiers.keys()].reverse() } })),
  adminOnly('POST /export/realm', () => ({ path: '/export/realm' })),
  adminOnly('DELETE /export/realm/{export_id:int}', (sc) => ({ path: `/export/realm/${sc.export}` })),
  {
    route: 'POST /realm/domains',
    targets: { 'a new domain': (sc, as) => ({ path: '/realm/domains', params: { domain: `by-${as}.example`, allow_subdomains: false } }) },
    refused: [refuse(below('owner'), 'a new domain', MUST_BE_OWNER)],
  },
  {
    route: 'PATCH /realm/domains/{domain}',
    targets: { 'a listed domain': () => ({ path: '/realm/domains/zulip.com', params: { allow_subdomains: true } }) },
    refused: [refuse(below('owner'), 'a listed domain', MUST_BE_OWNER)],
  },
  {
    route: 'DELETE /realm/domains/{domain}',
    targets: { 'a listed domain': () => ({ path: '/realm/domains/zulip.com' }) },
    refused: [refuse(below('owner'), 'a listed domain', MUST_BE_OWNER)],
  },
  {
    route: 'POST /realm/deactivate',
    targets: { 'the organization': () => ({ path: '/realm/deactivate' }) },
    refused: [refuse(below('owner'), 'the organization', MUST_BE_OWNER)],
  },
  {
    route: 'POST /realm/emoji/{emoji_name:path}',
    targets: { 'a new emoji': (sc, as) => ({ path: `/realm/emoji/new_${as}` }) },
    refused: [refuse('guest', 'a new emoji', NOT_FOR_GUESTS), refuse('bot', 'a new emoji', NOT_FOR_BOTS)],
  },
  {
    route: 'DELETE /realm/emoji/{emoji_name:path}',
    targets: { "another user's emoji": (sc) => ({ path: `/realm/emoji/${sc.emoji}` }) },
    refused: [refuse(below('administrator'), "another user's emoji", bad('Must be an organization administrator or emoji author'))],
  },
  {
    route: 'POST /invites',
    targets: {
      'an invitation': (sc, as) => ({ path: '/invites', params: { invitee_emails: `invited-by-${as}@example.com`, stream_ids: [] } }),
      'an administrator invitation': (sc, as) => ({ path: '/invites', params: { invitee_emails: `admin-by-${as}@example.com`, stream_ids: [], invite_as: 200 } }),
      'an owner invitation': (sc, as) => ({ path: '/invites', params: { invitee_emails: `owner-by-${as}@example.com`, stream_ids: [], invite_as: 100 } }),
      'a private channel': (sc, as) => ({ path: '/invites', params: { invitee_emails: `secret-by-${as}@example.com`, stream_ids: [sc.secret] } }),
    },
    // `require_member_or_admin` comes before any check of what the request names.
    refused: [
      ...refuseOn('guest', ['an invitation', 'an administrator invitation', 'an owner invitation', 'a private channel'], NOT_FOR_GUESTS),
      ...refuseOn('bot', ['an invitation', 'an administrator invitation', 'an owner invitation', 'a private channel'], NOT_FOR_BOTS),
      refuse(['moderator', 'member'], 'an administrator invitation', MUST_BE_ADMIN),
      refuse(['administrator', 'moderator', 'member'], 'an owner invitation', MUST_BE_OWNER),
      refuse(['owner', 'administrator', 'moderator', 'member'], 'a private channel', bad(/^Invalid channel ID \d+\. No invites were sent\.$/)),
    ],
  },
  {
    route: 'POST /invites/multiuse',
    targets: { 'an invitation link': () => ({ path: '/invites/multiuse', params: { stream_ids: [] } }) },
    refused: [refuse(['moderator', 'member'], 'an invitation link', INSUFFICIENT), ...humansWhoMayInvite('an invitation link')],
  },
  {
    route: 'DELETE /invites/{invite_id:int}',
    targets: { "another user's invitation": (sc) => ({ path: `/invites/${sc.invite}` }) },
    refused: [refuse(['moderator', 'member'], "another user's invitation", MUST_BE_ADMIN), ...humansWhoMayInvite("another user's invitation")],
  },
  {
    route: 'POST /invites/{invite_id:int}/resend',
    targets: { "another user's invitation": (sc) => ({ path: `/invites/${sc.invite}/resend` }) },
    refused: [refuse(['moderator', 'member'], "another user's invitation", MUST_BE_ADMIN), ...humansWhoMayInvite("another user's invitation")],
  },
  {
    route: 'DELETE /invites/multiuse/{invite_id:int}',
    targets: { "an administrator's link": (sc) => ({ path: `/invites/multiuse/${sc.multiuseInvite}` }) },
    refused: [refuse(['moderator', 'member'], "an administrator's link", MUST_BE_ADMIN), ...humansWhoMayInvite("an administrator's link")],
  },
];
