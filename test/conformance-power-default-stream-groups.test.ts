/**
 * The default channel group rules prove their power: events with the wrong shape or none at all,
 * changes answered but not made, archived channels left in groups, validation skipped, moderators
 * let in and guests shown the groups. Each deliberately broken variant of our server is caught,
 * and by the rule that targets it.
 */
import { ROLE } from '../lib/entities/user.js';
import { defaultStreamGroupsToApi } from '../lib/queries/channels/default-stream-groups.js';
import type { Mutation } from './support/conformance.js';
import { rewriteAnswer } from './support/power-helpers.js';
import { asUser, type Breakage, caller, changeForm, codePoints, eachBreakageFailsItsRule, formOf, is, mapEvents, on, passesUnbroken, replaceEvents, SUCCESS, userOfRole } from './support/power-mutations.js';

const GROUP = /^\/default_stream_groups\/\d+$/;
const GROUP_STREAMS = /^\/default_stream_groups\/\d+\/streams$/;
const LIFECYCLE = 'default-stream-groups/lifecycle-read-back-and-events';
const REFUSALS = 'default-stream-groups/validation-refused';
const ADMINISTRATORS = 'default-stream-groups/administrators-only';

/** Sends requests to any group endpoint from moderators as the administrator. */
const moderatorsLetIn: Mutation = (request, next, app) =>
  /\/default_stream_groups\//.test(request.path) && caller(app, request)?.role === ROLE.MODERATOR ? next(asUser(request, userOfRole(app, ROLE.ADMINISTRATOR))) : next(request);

/** Archiving a channel puts it back into the groups that held it. */
const archivedChannelsKept: Mutation = on('DELETE', /^\/streams\/\d+$/, async (request, next, app) => {
  const id = Number(/(\d+)$/.exec(request.path)?.[1]);
  const holding = [...app.world.defaultStreamGroups.values()].filter((group) => group.streamIds.has(id));
  const response = await next(request);
  for (const group of holding) group.streamIds.add(id);
  return response;
});

/** A name over 60 characters is stored as given. */
const longNamesAccepted: Mutation = on('POST', '/default_stream_groups/create', (request, next, app) => {
  const name = formOf(request).get('group_name') ?? '';
  if (codePoints(name) <= 60) return next(request);
  const id = app.world.ids.next('defaultStreamGroup');
  app.world.defaultStreamGroups.set(id, { id, name, description: '', streamIds: new Set() });
  return Promise.resolve(SUCCESS);
});

/** Guests' register lists the groups administrators see. */
const guestsShownGroups: Mutation = rewriteAnswer(
  (request, app) => is(request, 'POST', /^\/register$/) && caller(app, request)?.role === ROLE.GUEST,
  (body, _request, app) => void ('realm_default_stream_groups' in body && (body.realm_default_stream_groups = defaultStreamGroupsToApi(app.world))),
);

const BREAKAGES: readonly Breakage[] = [
  { what: 'the default_stream_groups event lists channel objects at level 415', rule: LIFECYCLE, mutate: mapEvents('default_stream_groups', (event) => void (event.default_stream_groups as Array<{ streams: unknown[] }>).forEach((g) => (g.streams = g.streams.map((id) => ({ stream_id: id }))))) },
  { what: 'no default_stream_groups event is sent', rule: LIFECYCLE, mutate: replaceEvents('default_stream_groups', () => undefined) },
  { what: 'op=remove is answered but not done', rule: LIFECYCLE, mutate: on('PATCH', GROUP_STREAMS, (request, next) => (formOf(request).get('op') === 'remove' ? Promise.resolve(SUCCESS) : next(request))) },
  { what: 'a rename with a description keeps the old name', rule: LIFECYCLE, mutate: on('PATCH', GROUP, (request, next) => next(changeForm(request, (form) => form.has('new_description') && form.delete('new_group_name')))) },
  { what: 'archiving a channel leaves it in its groups', rule: LIFECYCLE, mutate: archivedChannelsKept },
  { what: 'names over 60 characters are accepted', rule: REFUSALS, mutate: longNamesAccepted },
  {
    what: 'adding a channel already in the group succeeds',
    rule: REFUSALS,
    mutate: on('PATCH', GROUP_STREAMS, async (request, next) => {
      const response = await next(request);
      return response.status === 400 && formOf(request).get('op') === 'add' ? SUCCESS : response;
    }),
  },
  { what: 'an update naming nothing succeeds', rule: REFUSALS, mutate: on('PATCH', GROUP, (request, next) => ([...formOf(request).keys()].length === 0 ? Promise.resolve(SUCCESS) : next(request))) },
  { what: 'a missing op means add', rule: REFUSALS, mutate: on('PATCH', GROUP_STREAMS, (request, next) => next(changeForm(request, (form) => !form.has('op') && form.set('op', 'add')))) },
  { what: 'moderators manage default channel groups', rule: ADMINISTRATORS, mutate: moderatorsLetIn },
  { what: "guests' register lists the groups", rule: ADMINISTRATORS, mutate: guestsShownGroups },
];

passesUnbroken('every default channel group rule', [LIFECYCLE, REFUSALS, ADMINISTRATORS], [415, 329], 1, 3);
eachBreakageFailsItsRule(BREAKAGES, 1);
