/**
 * The names of `POST /user_groups/create` (section 4.9; the real server's `check_user_group_name`):
 * at most 100 code points (exactly 100 accepted, 101 refused), never starting with a reserved
 * prefix, unique in the realm (system and deactivated groups included), never blank; the
 * description has no limit. Each case is checked once per run; refused requests create nothing.
 */
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { filledTo } from '../channels/subscribe-support.js';
import type { Rule, RuleContext } from '../types.js';
import { CREATE } from './user-groups.js';
import { GROUP_LEVELS, groupById, listGroups, RuleGroups, systemGroups } from './user-groups-support.js';
import { NON_GUEST_READERS } from '../support/readers.js';

/** The real server's `NamedUserGroup.MAX_NAME_LENGTH` (not published by register). */
const MAX_GROUP_NAME_LENGTH = 100;
/** Level from which the real server checks names in the view (length, prefixes with `channel:`). */
const NAME_CHECKS_LEVEL = 260;
const RESERVED_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** A description longer than any channel limit, in several scripts. */
const LONG_DESCRIPTION = filledTo('Long: ', 2000, ['a', ' ', 'é', '日', '😀', '*', '\n']);

/**
 * Sends creations that must each be refused with 400 BAD_REQUEST, then checks in one listing that
 * no group got any of the names (groups are never deleted: one created would still be listed).
 */
async function expectRefused(ctx: RuleContext, attempts: ReadonlyArray<readonly [name: string, why: string]>): Promise<void> {
  const admin = ctx.as('admin');
  for (const [name, why] of attempts) expectError(await admin.post('/user_groups/create', { name, description: why, members: [] }), { status: 400, code: 'BAD_REQUEST' });
  const listed = await listGroups(ctx.reader('admin'));
  for (const [name, why] of attempts) check(!listed.some((group) => group.name === name && group.description === why), `a group was created for ${why}`);
}

/** Creates a group that must be accepted and reads its name and description back. */
async function expectCreated(ctx: RuleContext, groups: RuleGroups, name: string, description: string, why: string): Promise<void> {
  const { id } = await groups.create(ctx.as('admin'), [['name', name], ['description', description]]);
  const group = await groupById(ctx.reader('admin'), id);
  expectEqual([group.name, group.description], [name, description], `name and description of ${why}`);
}

const nameLength: Rule = {
  id: 'user-groups/create-name-length-limit',
  title: 'a group name of exactly 100 code points (ASCII or astral) is accepted, 101 is refused with 400 BAD_REQUEST; a description of 2000 code points is stored as sent',
  endpoint: CREATE,
  section: '4.9; 8',
  levels: { min: NAME_CHECKS_LEVEL },
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const groups = new RuleGroups(ctx);
    for (const [what, filler] of [['ASCII', ['g']], ['astral', ['😀', '𝔘']]] as const) {
      await expectRefused(ctx, [[filledTo(ctx.name('long'), MAX_GROUP_NAME_LENGTH + 1, filler), `a ${what} name of ${MAX_GROUP_NAME_LENGTH + 1} code points`]]);
      await expectCreated(ctx, groups, filledTo(ctx.name('max'), MAX_GROUP_NAME_LENGTH, filler), '', `a ${what} name of exactly ${MAX_GROUP_NAME_LENGTH} code points`);
    }
    await expectCreated(ctx, groups, ctx.name('long-description'), LONG_DESCRIPTION, 'a group with a 2000-code-point description');
  },
};

const reservedPrefixes: Rule = {
  id: 'user-groups/create-reserved-prefix-refused',
  title: 'a group name starting with @, role:, user:, stream: or channel: is refused with 400 BAD_REQUEST; the same texts elsewhere in a name are accepted',
  endpoint: CREATE,
  section: '4.9; 7',
  levels: { min: NAME_CHECKS_LEVEL },
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    await expectRefused(ctx, RESERVED_PREFIXES.map((prefix) => [`${prefix}${ctx.name('prefixed')}`, `the prefix ${prefix}`] as const));
    await expectCreated(ctx, new RuleGroups(ctx), `${ctx.name('inner')} ${RESERVED_PREFIXES.join(' ')}`, '', 'a name holding the prefixes after its start');
  },
};

const nameReuse: Rule = {
  id: 'user-groups/create-name-reuse-refused',
  title: 'the name of an active group, of a deactivated group (level 290) or of a system group, and blank names, are refused with 400 BAD_REQUEST; the group already holding the name is unchanged',
  endpoint: CREATE,
  section: '4.9',
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const groups = new RuleGroups(ctx);
    const taken = ctx.name('taken');
    const { id } = await groups.create(admin, [['name', taken], ['description', 'first']]);
    const reader = ctx.reader('admin');
    const names: Array<[string, string]> = [[taken, 'an active group\'s name'], ...[...(await systemGroups(reader)).keys()].map((name): [string, string] => [name, `the system group name ${name}`])];
    if (ctx.featureLevel >= GROUP_LEVELS.DEACTIVATION) {
      const retired = ctx.name('retired');
      const { id: retiredId } = await groups.create(admin, [['name', retired]]);
      expectSuccess(await admin.post(`/user_groups/${retiredId}/deactivate`));
      names.push([retired, 'a deactivated group\'s name']);
    }
    await expectRefused(ctx, names);
    for (const blank of ['', ' ', '   ']) expectError(await admin.post('/user_groups/create', { name: blank, description: 'blank', members: [] }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual((await groupById(reader, id)).description, 'first', 'the description of the group whose name was reused');
  },
};

export const rules: readonly Rule[] = [nameLength, reservedPrefixes, nameReuse];
