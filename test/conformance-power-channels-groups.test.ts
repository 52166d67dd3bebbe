/**
 * The sharp user-group rules prove their power: name limits and reserved prefixes, names already
 * used, creation and subgroup rights by role, and repeated or cyclic subgroup changes. Each
 * deliberately broken variant of our server is caught, and by the rule that targets it.
 */
import t from 'tap';
import { ROLE } from '../lib/entities/user.js';
import { failedIds, failureLines, type Mutation, runOnReference } from './support/conformance.js';
import { asUser, badRequestAnswer, caller, changeForm, codePoints, formOf, jsonParam, on, SUCCESS, userOfRole } from './support/power-mutations.js';

const GROUP_RULES = [
  'user-groups/create-name-length-limit',
  'user-groups/create-reserved-prefix-refused',
  'user-groups/create-name-reuse-refused',
  'user-groups/create-by-role',
  'user-group-subgroups/permissions-by-role',
  'user-group-subgroups/cycle-refused',
  'user-group-subgroups/already-or-not-a-subgroup-refused',
];

const CREATE = '/user_groups/create';
const SUBGROUPS = /^\/user_groups\/(\d+)\/subgroups$/;

/** The target group's ID of a subgroups request. */
const targetOf = (path: string): number => Number(/\/user_groups\/(\d+)\/subgroups$/.exec(path)?.[1]);

/** Refuses group creations whose form matches `bad`. */
const refuseCreation = (bad: (form: URLSearchParams) => boolean, msg: string): Mutation =>
  on('POST', CREATE, (request, next) => (bad(formOf(request)) ? Promise.resolve(badRequestAnswer(msg)) : next(request)));

const BREAKAGES: ReadonlyArray<{ what: string; rule: string; mutate: Mutation }> = [
  { what: 'group names are limited to 60 code points, like channel names', rule: 'user-groups/create-name-length-limit', mutate: refuseCreation((form) => codePoints(form.get('name') ?? '') > 60, 'User group name cannot exceed 60 characters.') },
  { what: 'group names are counted in UTF-16 units', rule: 'user-groups/create-name-length-limit', mutate: refuseCreation((form) => (form.get('name') ?? '').length > 100, 'User group name cannot exceed 100 characters.') },
  { what: 'group descriptions are limited to 1024 code points', rule: 'user-groups/create-name-length-limit', mutate: refuseCreation((form) => codePoints(form.get('description') ?? '') > 1024, 'description is too long') },
  {
    what: "the 'channel:' prefix is accepted (dropped from the name)",
    rule: 'user-groups/create-reserved-prefix-refused',
    mutate: on('POST', CREATE, (request, next) => next(changeForm(request, (form) => form.get('name')?.startsWith('channel:') && form.set('name', form.get('name')!.slice('channel:'.length))))),
  },
  {
    what: 'names of deactivated groups can be used again',
    rule: 'user-groups/create-name-reuse-refused',
    mutate: on('POST', CREATE, (request, next, app) => {
      const name = formOf(request).get('name');
      for (const group of app.world.groups.values()) if (group.deactivated && group.name === name) group.name = `${name} (deactivated)`;
      return next(request);
    }),
  },
  { what: 'guests may create groups', rule: 'user-groups/create-by-role', mutate: on('POST', CREATE, (request, next, app) => next(caller(app, request)?.role === ROLE.GUEST ? asUser(request, userOfRole(app, ROLE.MEMBER)) : request)) },
  {
    what: 'moderators may not create groups',
    rule: 'user-groups/create-by-role',
    mutate: on('POST', CREATE, (request, next, app) => (caller(app, request)?.role === ROLE.MODERATOR ? Promise.resolve(badRequestAnswer('Insufficient permission')) : next(request))),
  },
  {
    what: "moderators may change any group's subgroups",
    rule: 'user-group-subgroups/permissions-by-role',
    mutate: on('POST', SUBGROUPS, (request, next, app) => next(caller(app, request)?.role === ROLE.MODERATOR ? asUser(request, userOfRole(app, ROLE.OWNER)) : request)),
  },
  {
    what: 'holders of can_add_members_group may also remove subgroups',
    rule: 'user-group-subgroups/permissions-by-role',
    mutate: on('POST', SUBGROUPS, (request, next, app) => {
      const group = app.world.groups.get(targetOf(request.path));
      const adders = group?.settings.get('can_add_members_group');
      const user = caller(app, request);
      const creator = group?.creatorId === null || group?.creatorId === undefined ? undefined : app.world.users.get(group.creatorId);
      const adder = adders?.kind === 'anonymous' && user !== undefined && adders.members.has(user.id);
      return next(adder && creator && formOf(request).has('delete') ? asUser(request, creator) : request);
    }),
  },
  {
    what: 'adding a group to itself is accepted without change',
    rule: 'user-group-subgroups/cycle-refused',
    mutate: on('POST', SUBGROUPS, (request, next) => (jsonParam<number[]>(formOf(request), 'add')?.includes(targetOf(request.path)) ? Promise.resolve(SUCCESS) : next(request))),
  },
  {
    what: 'adding a direct subgroup again is accepted without change',
    rule: 'user-group-subgroups/already-or-not-a-subgroup-refused',
    mutate: on('POST', SUBGROUPS, (request, next, app) => {
      const group = app.world.groups.get(targetOf(request.path));
      const form = formOf(request);
      const add = jsonParam<number[]>(form, 'add');
      if (!group || !add || form.has('delete') || !add.every((id) => group.subgroups.has(id))) return next(request);
      return Promise.resolve(SUCCESS);
    }),
  },
];

t.test('the targeted group rules pass against the unbroken reference server at 415 and 334', async (t) => {
  for (const level of [415, 334]) {
    const result = await runOnReference({ featureLevel: level, numRuns: 5, seed: 3, only: GROUP_RULES });
    t.same(failureLines(result), [], `level ${level}`);
    t.equal(result.results.filter((r) => r.outcome === 'passed').length, GROUP_RULES.length, `level ${level}: every rule ran`);
  }
});

for (const breakage of BREAKAGES) {
  t.test(`the suite fails naming ${breakage.rule} when ${breakage.what}`, async (t) => {
    const result = await runOnReference({ mutate: breakage.mutate, numRuns: 5, seed: 4, only: [breakage.rule] });
    t.same(failedIds(result), [breakage.rule]);
  });
}
