/**
 * The channel-administration rules prove their power: `GET /streams` filters per role, reading
 * one channel, its members, email address and subscription status, `PATCH /streams/{id}` (limits,
 * read-back, privacy, retention, group settings with `old`), its events and their audience, who
 * administers, and archiving. Each deliberately broken variant of our server is caught, and by
 * the rule that targets it.
 */
import { ROLE } from '../lib/entities/user.js';
import type { ApiRequest } from '../server/app/request.js';
import type { Mutation } from './support/conformance.js';
import {
  asUser,
  badRequestAnswer,
  type Breakage,
  caller,
  changeForm,
  codePoints,
  eachBreakageFailsItsRule,
  errorsSucceed,
  formOf,
  idIn,
  is,
  mapAnswers,
  mapEvents,
  on,
  passesUnbroken,
  SUCCESS,
  userOfRole,
} from './support/power-mutations.js';

const STREAM = /^\/streams\/\d+$/;

/** The request with one query parameter removed (GET parameters travel in the query string). */
const withoutQuery = (request: ApiRequest, name: string): ApiRequest => ({ ...request, query: request.query.filter(([key]) => key !== name) });

/** Sends requests matching `when` from callers of role `from` as the first user of role `to`. */
const actAs = (method: string, path: RegExp, from: number, to: number, when: (request: ApiRequest) => boolean = () => true): Mutation => (request, next, app) =>
  is(request, method, path) && caller(app, request)?.role === from && when(request) ? next(asUser(request, userOfRole(app, to))) : next(request);

/** Ignores one query parameter of `GET /streams`. */
const ignoreListFilter = (name: string): Mutation => on('GET', '/streams', (request, next) => next(withoutQuery(request, name)));

/** Answers a `PATCH /streams/{id}` carrying `name` with success, without applying it. */
const dropPatchParam = (name: string): Mutation => (request, next) =>
  is(request, 'PATCH', STREAM) && formOf(request).has(name) ? Promise.resolve(SUCCESS) : next(request);

const BREAKAGES: readonly Breakage[] = [
  { what: 'include_subscribed=false is ignored', rule: 'streams/filters-per-role', mutate: ignoreListFilter('include_subscribed') },
  { what: 'include_public=false is ignored', rule: 'streams/filters-per-role', mutate: ignoreListFilter('include_public') },
  { what: "moderators get an administrator's list (private channels without access)", rule: 'streams/filters-per-role', mutate: actAs('GET', /^\/streams$/, ROLE.MODERATOR, ROLE.ADMINISTRATOR) },
  { what: 'guests get public channels wholesale', rule: 'streams/filters-per-role', mutate: actAs('GET', /^\/streams$/, ROLE.GUEST, ROLE.MEMBER) },
  {
    what: 'include_can_access_content lists channels known by metadata only',
    rule: 'streams/filters-per-role',
    mutate: on('GET', '/streams', (request, next) => next(request.query.some(([key]) => key === 'include_can_access_content') ? { ...withoutQuery(request, 'include_can_access_content'), query: [...withoutQuery(request, 'include_can_access_content').query, ['include_all', 'true']] } : request)),
  },
  { what: 'the list is in reverse name order', rule: 'streams/filters-per-role', mutate: mapAnswers('GET', /^\/streams$/, (body) => void (body.streams as unknown[]).reverse()) },
  { what: 'is_default is sent without include_default', rule: 'streams/filters-per-role', mutate: mapAnswers('GET', /^\/streams$/, (body) => (body.streams as Array<Record<string, unknown>>).forEach((entry) => (entry.is_default ??= false))) },
  { what: 'exclude_archived=false is ignored', rule: 'streams/exclude-archived', mutate: ignoreListFilter('exclude_archived') },
  { what: 'a moderator reads private channels it cannot see', rule: 'streams/get-by-id-access-per-role', mutate: actAs('GET', STREAM, ROLE.MODERATOR, ROLE.ADMINISTRATOR) },
  { what: 'the subscriber list misses its last subscriber', rule: 'streams/members-per-role', mutate: mapAnswers('GET', /^\/streams\/\d+\/members$/, (body) => void (body.subscribers as number[]).pop()) },
  { what: 'administrators get the email address without content access', rule: 'streams/email-address-needs-content-access', mutate: actAs('GET', /^\/streams\/\d+\/email_address$/, ROLE.ADMINISTRATOR, ROLE.OWNER) },
  { what: 'is_subscribed is always true', rule: 'subscription-status/is-subscribed-per-role', mutate: mapAnswers('GET', /^\/users\/\d+\/subscriptions\/\d+$/, (body) => void (body.is_subscribed = true)) },
  {
    what: 'a new name of exactly the limit is refused',
    rule: 'streams-update/rename-limits-and-duplicates',
    mutate: (request, next) => (is(request, 'PATCH', STREAM) && codePoints((formOf(request).get('new_name') ?? '').trim()) >= 60 ? Promise.resolve(badRequestAnswer('Channel name too long (limit: 60 characters).')) : next(request)),
  },
  {
    what: 'a change of case alone is refused as the same name',
    rule: 'streams-update/rename-limits-and-duplicates',
    mutate: (request, next, app) => {
      const name = formOf(request).get('new_name');
      const current = app.world.streams.get(idIn(request))?.name;
      return is(request, 'PATCH', STREAM) && name !== null && current !== undefined && name !== current && name.toLowerCase() === current.toLowerCase() ? Promise.resolve(badRequestAnswer('Channel already has that name.')) : next(request);
    },
  },
  { what: 'a description is answered but not stored', rule: 'streams-update/description-limit', mutate: dropPatchParam('description') },
  {
    what: 'history_public_to_subscribers alone is ignored',
    rule: 'streams-update/privacy-transitions',
    mutate: (request, next) => next(is(request, 'PATCH', STREAM) ? changeForm(request, (form) => !form.has('is_private') && form.delete('history_public_to_subscribers')) : request),
  },
  { what: 'administrators may set a channel retention', rule: 'streams-update/retention-owners-only', mutate: actAs('PATCH', STREAM, ROLE.ADMINISTRATOR, ROLE.OWNER, (request) => formOf(request).has('message_retention_days')) },
  { what: 'topics_policy is answered but not stored', rule: 'streams-update/topics-policy-values', mutate: dropPatchParam('topics_policy') },
  {
    what: "a group setting's old value is not checked (no EXPECTATION_MISMATCH)",
    rule: 'streams-update/group-settings-new-and-old',
    mutate: (request, next) =>
      next(is(request, 'PATCH', STREAM) ? changeForm(request, (form) => {
        for (const [key, value] of [...form]) if (key.startsWith('can_') && value.startsWith('{')) form.set(key, JSON.stringify({ new: (JSON.parse(value) as { new: unknown }).new }));
      }) : request),
  },
  { what: 'the description update event carries the old description', rule: 'streams-update/events-to-metadata-audience', mutate: mapEvents('stream', (event) => void (event.property === 'description' && String(event.value).includes('bold') && (event.value = ''))) },
  { what: 'the rename event carries the old name as its value', rule: 'streams-update/events-to-metadata-audience', mutate: mapEvents('stream', (event) => void (event.property === 'name' && (event.value = event.name))) },
  {
    what: "a private channel's description update also reaches users who cannot see it",
    rule: 'streams-update/events-to-metadata-audience',
    mutate: async (request, next, app) => {
      const response = await next(request);
      const stream = app.world.streams.get(idIn(request));
      const description = formOf(request).get('description');
      if (is(request, 'PATCH', STREAM) && response.status === 200 && stream?.inviteOnly && description !== null) {
        const everyone = [...app.world.users.values()].filter((user) => user.isActive).map((user) => user.id);
        app.world.events.send({ type: 'stream', op: 'update', stream_id: stream.id, name: stream.name, property: 'description', value: description, rendered_description: '' }, everyone);
      }
      return response;
    },
  },
  { what: 'the invite_only update lacks history_public_to_subscribers', rule: 'streams-update/events-to-metadata-audience', mutate: mapEvents('stream', (event) => void (event.property === 'invite_only' && delete event.history_public_to_subscribers)) },
  { what: 'moderators administer any channel', rule: 'streams-update/administer-by-role', mutate: actAs('PATCH', STREAM, ROLE.MODERATOR, ROLE.ADMINISTRATOR) },
  { what: 'a member archives a channel it does not administer', rule: 'streams-archive/by-role-read-back-and-events', mutate: actAs('DELETE', STREAM, ROLE.MEMBER, ROLE.ADMINISTRATOR) },
  { what: 'the stream delete event of archiving lacks stream_ids at level 415', rule: 'streams-archive/by-role-read-back-and-events', mutate: mapEvents('stream', (event) => void (event.op === 'delete' && delete event.stream_ids)) },
  { what: 'archiving an archived channel succeeds', rule: 'streams-archive/by-role-read-back-and-events', mutate: errorsSucceed('DELETE', STREAM) },
  { what: 'unarchiving is answered but not done', rule: 'streams-archive/by-role-read-back-and-events', mutate: dropPatchParam('is_archived') },
];

passesUnbroken('every channel-administration rule', [...new Set(BREAKAGES.map((breakage) => breakage.rule))], [415, 289, 207], 3, 10);
eachBreakageFailsItsRule(BREAKAGES, 3);
