/**
 * The user-group family: the administrator creates, renames and describes the run's groups and
 * changes their members and subgroups; observers compare `realm_user_groups` (the run's groups
 * always, the rest when nothing else changed them). Groups are taken out of use when the rule ends.
 */
import fc from 'fast-check';
import type { IdentityName } from '../../credentials/types.js';
import { GROUP_LEVELS, RuleGroups } from '../../rules/groups/user-groups-support.js';
import type { RuleContext } from '../../rules/types.js';
import { type Family, MAX_SEQUENCES } from '../family.js';
import { outcome } from './perform.js';

const OBSERVERS: readonly IdentityName[] = ['admin', 'member', 'moderator', 'guest'];
/** Groups created per rule at most (each costs a cleanup request). */
const MAX_GROUPS = 4;

export interface GroupsFixture {
  readonly groups: RuleGroups;
  /** Direct members and subgroups of each group, as far as the family changed them. */
  readonly members: Map<number, Set<IdentityName>>;
  readonly subgroups: Map<number, Set<number>>;
}

export type GroupAction =
  | { readonly do: 'members'; readonly group: number; readonly who: readonly IdentityName[] }
  | { readonly do: 'subgroup'; readonly group: number; readonly other: number }
  | { readonly do: 'rename' | 'describe'; readonly group: number }
  | { readonly do: 'create'; readonly who: readonly IdentityName[] };

function actionKinds(level: number): Array<fc.WeightedArbitrary<GroupAction>> {
  const group = fc.nat({ max: MAX_GROUPS - 1 });
  const who = fc.uniqueArray(fc.constantFrom(...OBSERVERS), { minLength: 1, maxLength: 2 });
  const choices: Array<fc.WeightedArbitrary<GroupAction>> = [
    { weight: 3, arbitrary: fc.record({ do: fc.constant('members' as const), group, who }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('rename' as const), group }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('describe' as const), group }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('create' as const), who }) },
  ];
  if (level >= GROUP_LEVELS.SUBGROUP_ENDPOINTS) choices.push({ weight: 2, arbitrary: fc.record({ do: fc.constant('subgroup' as const), group, other: group }) });
  return choices;
}

async function create(ctx: RuleContext, fixture: GroupsFixture, who: readonly IdentityName[]): Promise<string> {
  if (fixture.groups.ids.length >= MAX_GROUPS) return 'create a group: skipped, the rule has enough';
  const { id } = await fixture.groups.create(ctx.as('admin'), [
    ['name', ctx.name('group')],
    ['members', who.map((w) => ctx.identity(w).userId)],
  ]);
  fixture.members.set(id, new Set(who));
  fixture.subgroups.set(id, new Set());
  return `admin creates group ${id} with ${who.join(', ')}`;
}

/** Toggles each identity's direct membership: adds who is not a member, removes who is. */
async function members(ctx: RuleContext, fixture: GroupsFixture, id: number, who: readonly IdentityName[]): Promise<string> {
  const current = fixture.members.get(id) ?? new Set<IdentityName>();
  const add = who.filter((w) => !current.has(w));
  const remove = who.filter((w) => current.has(w));
  const ids = (list: readonly IdentityName[]) => list.map((w) => ctx.identity(w).userId);
  const reply = await ctx.as('admin').post(`/user_groups/${id}/members`, { add: ids(add), delete: ids(remove) });
  if (reply.status === 200) {
    for (const w of add) current.add(w);
    for (const w of remove) current.delete(w);
    fixture.members.set(id, current);
  }
  return outcome(`admin changes group ${id}: adds ${add.join(', ') || 'nobody'}, removes ${remove.join(', ') || 'nobody'}`, reply);
}

/** Whether `to` reaches `from` through subgroups (adding `from` under `to` would close a cycle). */
function reaches(fixture: GroupsFixture, from: number, to: number): boolean {
  const seen = new Set<number>();
  const queue = [from];
  while (queue.length > 0) {
    const next = queue.pop() as number;
    if (next === to) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(fixture.subgroups.get(next) ?? []));
  }
  return false;
}

async function subgroup(fixture: GroupsFixture, ctx: RuleContext, id: number, other: number): Promise<string> {
  const subs = fixture.subgroups.get(id) ?? new Set<number>();
  const remove = subs.has(other);
  if (!remove && (other === id || reaches(fixture, other, id))) return `admin adds group ${other} under ${id}: skipped, it would close a cycle`;
  const reply = await ctx.as('admin').post(`/user_groups/${id}/subgroups`, remove ? { delete: [other] } : { add: [other] });
  if (reply.status === 200) (remove ? subs.delete(other) : subs.add(other));
  fixture.subgroups.set(id, subs);
  return outcome(`admin ${remove ? 'removes' : 'adds'} subgroup ${other} ${remove ? 'from' : 'to'} group ${id}`, reply);
}

async function perform(ctx: RuleContext, fixture: GroupsFixture, action: GroupAction): Promise<string> {
  if (action.do === 'create') return create(ctx, fixture, action.who);
  const ids = fixture.groups.ids;
  const id = ids[action.group % ids.length] as number;
  switch (action.do) {
    case 'members':
      return members(ctx, fixture, id, action.who);
    case 'subgroup':
      return subgroup(fixture, ctx, id, ids[action.other % ids.length] as number);
    case 'rename': {
      const name = ctx.name('group');
      return outcome(`admin renames group ${id} to ${name}`, await ctx.as('admin').patch(`/user_groups/${id}`, { name }));
    }
    case 'describe': {
      const description = `convergence ${ctx.name('description')}`;
      return outcome(`admin describes group ${id}`, await ctx.as('admin').patch(`/user_groups/${id}`, { description }));
    }
  }
}

export const groupsFamily: Family<GroupsFixture, GroupAction> = {
  id: 'event-convergence/user-groups',
  title: "register plus the events of creating the run's user groups and changing their names, descriptions, members and subgroups gives every observer the state a fresh register gives",
  section: 'api/register-queue, api/get-events (realm_user_groups, user_group)',
  levels: { min: 89 },
  needs: OBSERVERS,
  observers: OBSERVERS,
  eventTypes: () => ['user_group', 'realm_user_groups'],
  fetchTypes: () => ['realm_user_groups'],
  includeSubscribers: false,
  maxRuns: MAX_SEQUENCES,
  async setup(ctx) {
    const fixture: GroupsFixture = { groups: new RuleGroups(ctx), members: new Map(), subgroups: new Map() };
    await create(ctx, fixture, ['member']);
    await create(ctx, fixture, ['admin', 'guest']);
    return fixture;
  },
  kinds: (_fixture, level) => actionKinds(level),
  perform,
  owned: (ctx, fixture) => ({ channelIds: [], groupIds: [...fixture.groups.ids], userIds: OBSERVERS.map((o) => ctx.identity(o).userId), messageIds: [] }),
};
