/**
 * The group-setting parameters of `POST /user_groups/create` (section 1 convention 7, 4.9), one
 * rule per setting from the level it appeared at: any system group or anonymous group the setting
 * may take is stored and read back in canonical form (an object with no members and one subgroup
 * is that group's ID; an empty one is `role:nobody`), and the system groups it may not take are
 * refused without creating a group. The description says `can_mention_group` cannot be
 * `role:owners`; real servers accept it (deviation `can-mention-group-owners`).
 */
import fc from 'fast-check';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import type { Rule, RuleContext } from '../types.js';
import { CREATE, humanIds } from './user-groups.js';
import { ascending, listGroups, RuleGroups, systemGroups } from './user-groups-support.js';
import { NON_GUEST_READERS } from '../support/readers.js';

export interface GroupSettingSpec {
  readonly name: string;
  readonly since: number;
  /** System groups the real server refuses (the description's list, plus the reference's). */
  readonly refused: readonly string[];
}

const INTERNET = 'role:internet';
const EVERYONE = 'role:everyone';

export const GROUP_SETTINGS: readonly GroupSettingSpec[] = [
  { name: 'can_add_members_group', since: 305, refused: [INTERNET, EVERYONE] },
  { name: 'can_join_group', since: 301, refused: [INTERNET, EVERYONE] },
  { name: 'can_leave_group', since: 308, refused: [INTERNET] },
  { name: 'can_manage_group', since: 283, refused: [INTERNET, EVERYONE] },
  { name: 'can_mention_group', since: 198, refused: [INTERNET] },
  { name: 'can_remove_members_group', since: 324, refused: [INTERNET, EVERYONE] },
];

/** Level 258: `can_mention_group` takes anonymous groups (an integer only before). */
const MENTION_OBJECT_LEVEL = 258;
const DEVIATION = 'can-mention-group-owners';

/** System groups that may appear inside anonymous values (never refused as subgroups). */
const ANONYMOUS_SUBGROUPS = ['role:moderators', 'role:administrators', 'role:fullmembers', 'role:members'];

type SettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

type Choice = { kind: 'named'; group: string } | { kind: 'anonymous'; members: number[]; subgroups: string[] };

function choices(ctx: RuleContext, system: ReadonlyMap<string, number>, spec: GroupSettingSpec): fc.Arbitrary<Choice> {
  const named = fc.constantFrom(...system.keys()).map((group): Choice => ({ kind: 'named', group }));
  const objects = spec.name !== 'can_mention_group' || ctx.featureLevel >= MENTION_OBJECT_LEVEL;
  if (!objects) return named;
  const anonymous = fc
    .tuple(fc.subarray(humanIds(ctx), { maxLength: 3 }), fc.subarray(ANONYMOUS_SUBGROUPS.filter((name) => system.has(name)), { maxLength: 2 }))
    .map(([members, subgroups]): Choice => ({ kind: 'anonymous', members, subgroups }));
  return fc.oneof(named, anonymous);
}

/** The wire value and its canonical read-back form. */
function encode(choice: Choice, system: ReadonlyMap<string, number>): { wire: SettingValue; canonical: SettingValue; named?: string } {
  if (choice.kind === 'named') {
    const id = system.get(choice.group) as number;
    return { wire: id, canonical: id, named: choice.group };
  }
  const subgroups = choice.subgroups.map((name) => system.get(name) as number);
  const wire = { direct_members: choice.members, direct_subgroups: subgroups };
  if (choice.members.length === 0 && subgroups.length === 1) return { wire, canonical: subgroups[0] as number, named: choice.subgroups[0] as string };
  if (choice.members.length === 0 && subgroups.length === 0) return { wire, canonical: system.get('role:nobody') as number, named: 'role:nobody' };
  return { wire, canonical: { direct_members: ascending(choice.members), direct_subgroups: ascending(subgroups) } };
}

function settingRule(spec: GroupSettingSpec): Rule {
  return {
    id: `user-groups/create-${spec.name.replace(/_/g, '-')}`,
    title: `${spec.name} at creation takes the groups it allows, in canonical form, and refuses ${spec.refused.join(' and ')}`,
    endpoint: CREATE,
    section: '4.9; 1 convention 7',
    levels: { min: spec.since },
    writes: true,
    needs: ['admin'],
    readers: NON_GUEST_READERS,
    ...(spec.name === 'can_mention_group' ? { deviation: DEVIATION } : {}),
    async run(ctx) {
      const admin = ctx.as('admin');
      const reader = ctx.reader('admin');
      const groups = new RuleGroups(ctx);
      const system = await systemGroups(reader);
      // Every refused system group once, then any value.
      for (const refused of spec.refused) {
        const id = system.get(refused);
        if (id === undefined) continue;
        const name = ctx.name(spec.name.replace(/_/g, '-'));
        expectError(await admin.post('/user_groups/create', { name, description: '', members: [], [spec.name]: id }), { status: 400, code: 'BAD_REQUEST' });
        check(!(await listGroups(reader)).some((group) => group.name === name), `a group exists after ${spec.name}=${refused} was refused`);
      }
      await ctx.property('system and anonymous groups', [choices(ctx, system, spec)], async (choice) => {
        const { wire, canonical, named } = encode(choice, system);
        const name = ctx.name(spec.name.replace(/_/g, '-'));
        const params = { name, description: '', members: [], [spec.name]: wire };
        const reply = await admin.post('/user_groups/create', params);
        if (named !== undefined && spec.refused.includes(named)) {
          expectError(reply, { status: 400, code: 'BAD_REQUEST' });
          check(!(await listGroups(reader)).some((group) => group.name === name), `a group exists after ${spec.name}=${named} was refused`);
          return;
        }
        if (spec.name === 'can_mention_group' && named === 'role:owners' && reply.status === 400) {
          expectError(reply, { status: 400, code: 'BAD_REQUEST' });
          return;
        }
        expectSuccess(reply, { ignored: [] });
        const created = (await listGroups(reader)).find((group) => group.name === name);
        check(created !== undefined, `the group ${name} is not listed`, reply);
        groups.track(created.id);
        if (spec.name === 'can_mention_group' && named === 'role:owners') ctx.deviation(DEVIATION, 'can_mention_group accepted role:owners');
        // The listing that found the group carries its settings: no second read.
        expectEqual(created[spec.name], canonical, `${spec.name} of the new group`);
      }, { maxRuns: 8 });
    },
  };
}

const mentionObjectBefore258: Rule = {
  id: 'user-groups/create-can-mention-group-object-refused-before-258',
  title: 'before level 258 can_mention_group takes only a group ID: an object answers 400 and creates nothing',
  endpoint: CREATE,
  section: '4.9; 9.2',
  levels: { min: 198, max: MENTION_OBJECT_LEVEL - 1 },
  writes: false,
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const name = ctx.name('mention-object');
    const value = { direct_members: [ctx.identity('admin').userId], direct_subgroups: [] };
    expectError(await admin.post('/user_groups/create', { name, description: '', members: [], can_mention_group: value }), { status: 400, code: 'BAD_REQUEST' });
    check(!(await listGroups(admin)).some((group) => group.name === name), 'a group exists after a refused creation');
  },
};

const laterSettingsIgnored: Rule = {
  id: 'user-groups/create-later-settings-ignored',
  title: 'group settings from later levels are reported as ignored at creation',
  endpoint: CREATE,
  section: '4.9; 9.2',
  levels: { min: 167, max: 323 },
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const groups = new RuleGroups(ctx);
    const members = (await systemGroups(admin)).get('role:members');
    const later = GROUP_SETTINGS.filter((spec) => spec.since > ctx.featureLevel).map((spec) => spec.name);
    const { reply } = await groups.create(admin, [['name', ctx.name('later')], ...later.map((name) => [name, members] as const)]);
    expectSuccess(reply, { ignored: [...later].sort() });
  },
};

export const rules: readonly Rule[] = [...GROUP_SETTINGS.map(settingRule), mentionObjectBefore258, laterSettingsIgnored];
