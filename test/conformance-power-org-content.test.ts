/**
 * The custom emoji, code playground and invitation rules prove their power: against
 * deliberately broken variants of our server (a name rule off, a role that may not act
 * allowed, a refusal turned into success, an event sent to the wrong users...) the named rule
 * fails; against the unbroken server every one of them passes at several levels.
 */
import { ROLE } from '../lib/entities/user.js';
import type { Mutation } from './support/conformance.js';
import { apiPath, type Breakage, changeForm, codePoints, eachBreakageFailsItsRule, errorsSucceed, mapAnswers, on, passesUnbroken } from './support/power-mutations.js';
import { actAs, alsoAnnounce } from './support/power-org.js';

const RULES = [
  'realm-emoji/add-list-deactivate-with-events',
  'realm-emoji/name-rules',
  'realm-emoji/exactly-one-file',
  'realm-emoji/add-by-role',
  'realm-emoji/deactivate-by-role',
  'playgrounds/add-remove-with-events',
  'playgrounds/validation-refused',
  'playgrounds/administrators-only',
  'invites/send-list-resend-revoke',
  'invites/refused-requests',
  'invites/multiuse-create-list-revoke',
  'invites/changed-event-to-administrators-and-inviter',
  'invites/invite-as-by-role',
  'invites/multiuse-by-role',
  'invites/control-by-role',
];

const EMOJI = /^\/realm\/emoji\/[^/]+$/;

/** Emoji uploads whose name ends in `_` or `-` are sent without that end. */
const trailingMarkDropped: Mutation = (request, next) => {
  const path = apiPath(request);
  if (request.method !== 'POST' || !EMOJI.test(path) || !/[_-]$/.test(path)) return next(request);
  return next({ ...request, path: request.path.replace(/(?:_|-|%5F|%2D)+$/i, '') });
};

const BREAKAGES: readonly Breakage[] = [
  { what: 'an emoji name ending in an underscore or dash is accepted without it', rule: 'realm-emoji/name-rules', mutate: trailingMarkDropped },
  { what: 'uploads without exactly one file are answered with success', rule: 'realm-emoji/exactly-one-file', mutate: errorsSucceed('POST', EMOJI) },
  { what: 'guests may add emoji', rule: 'realm-emoji/add-by-role', mutate: actAs(EMOJI, ROLE.GUEST, ROLE.MEMBER, ['POST']) },
  { what: 'any member may deactivate any emoji', rule: 'realm-emoji/deactivate-by-role', mutate: actAs(EMOJI, (role) => role === ROLE.MEMBER || role === ROLE.MODERATOR, ROLE.ADMINISTRATOR, ['DELETE']) },
  {
    what: 'deactivated emoji are left out of GET /realm/emoji',
    rule: 'realm-emoji/add-list-deactivate-with-events',
    mutate: mapAnswers('GET', /^\/realm\/emoji$/, (body) => {
      const all = body.emoji as Record<string, { deactivated: boolean }>;
      body.emoji = Object.fromEntries(Object.entries(all).filter(([, emoji]) => !emoji.deactivated));
    }),
  },
  {
    what: 'languages of 41 characters are cut to 40',
    rule: 'playgrounds/validation-refused',
    mutate: on('POST', '/realm/playgrounds', (request, next) => next(changeForm(request, (form) => codePoints(form.get('pygments_language') ?? '') === 41 && form.set('pygments_language', (form.get('pygments_language') ?? '').slice(0, 40))))),
  },
  { what: 'deleting an unknown playground succeeds', rule: 'playgrounds/add-remove-with-events', mutate: errorsSucceed('DELETE', /^\/realm\/playgrounds\/\d+$/) },
  { what: 'moderators may add and delete playgrounds', rule: 'playgrounds/administrators-only', mutate: actAs(/^\/realm\/playgrounds/, ROLE.MODERATOR, ROLE.ADMINISTRATOR) },
  { what: 'a revoked invitation can be revoked again', rule: 'invites/send-list-resend-revoke', mutate: errorsSucceed('DELETE', /^\/invites\/\d+$/) },
  { what: 'invitations to existing users are answered with success', rule: 'invites/refused-requests', mutate: mapAnswers('POST', /^\/invites$/, (body) => body.code === 'INVITATION_FAILED' && Object.assign(body, { result: 'success', msg: '', code: undefined })) },
  { what: 'reusable links are listed without link_url', rule: 'invites/multiuse-create-list-revoke', mutate: mapAnswers('GET', /^\/invites$/, (body) => (body.invites as Array<Record<string, unknown>>).forEach((invite) => delete invite.link_url)) },
  { what: 'invites_changed reaches every user', rule: 'invites/changed-event-to-administrators-and-inviter', mutate: alsoAnnounce('POST', /^\/invites$/, () => ({ type: 'invites_changed' })) },
  { what: 'moderators may invite administrators', rule: 'invites/invite-as-by-role', mutate: actAs(/^\/invites$/, ROLE.MODERATOR, ROLE.ADMINISTRATOR) },
  { what: 'members create reusable links whatever the realm allows', rule: 'invites/multiuse-by-role', mutate: actAs(/^\/invites\/multiuse/, ROLE.MEMBER, ROLE.ADMINISTRATOR) },
  { what: 'members list and revoke everyone\'s invitations', rule: 'invites/control-by-role', mutate: actAs(/^\/invites/, ROLE.MEMBER, ROLE.ADMINISTRATOR, ['GET', 'DELETE', 'POST']) },
];

passesUnbroken('every custom emoji, code playground and invitation rule', RULES, [415, 289, 207], 5, 10);

eachBreakageFailsItsRule(BREAKAGES, 5);
