/**
 * The move and resolve rights when the realm narrows them to nobody (realm-wide, restored and
 * read back): the realm settings then give no one the right, so what remains is what the real
 * server grants besides them: from level 396 administrators and the channel's administrators
 * still move messages within and out of a channel, while resolving follows only
 * `can_resolve_topics_group` (the realm's, or the channel's from level 402).
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fetchState } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { EDIT_LEVELS } from './message-edit-support.js';
import { MOVE_OUT, RENAME, RESOLVE, roleTable } from './message-move-roles.js';

const SETTINGS = ['can_move_messages_between_topics_group', 'can_move_messages_between_channels_group', 'can_resolve_topics_group'] as const;

/** A group-setting value in a form that compares equal however the target orders its lists. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const group = value as { direct_members?: number[]; direct_subgroups?: number[] };
  return JSON.stringify({ members: [...(group.direct_members ?? [])].sort((a, b) => a - b), subgroups: [...(group.direct_subgroups ?? [])].sort((a, b) => a - b) });
}

async function nobodyGroupId(admin: ApiClient): Promise<number | undefined> {
  const reply = await admin.get('/user_groups');
  const groups = expectShape(expectSuccess(reply), v.object({ user_groups: v.array(v.object({ id: v.int(), name: v.string() })) }), 'body', reply).user_groups;
  return groups.find((group) => group.name === 'role:nobody')?.id;
}

/** Sets the realm's move and resolve settings to nobody, restoring (and reading back) the old values after the rule. */
async function narrowToNobody(ctx: RuleContext): Promise<void> {
  const admin = ctx.as('admin');
  const before: JsonObject = await fetchState(admin, ['realm']);
  const nobody = await nobodyGroupId(admin);
  if (nobody === undefined) return ctx.skip('GET /user_groups lists no role:nobody system group');
  const old = new Map(SETTINGS.map((name) => [name, before[`realm_${name}`]]));
  ctx.cleanup('restore the realm move and resolve settings', async (c) => {
    const client = c.as('admin');
    for (const [name, value] of old) await client.patch('/realm', [[name, { new: value }]]);
    const now = await fetchState(client, ['realm']);
    const changed = [...old].filter(([name, value]) => canonical(now[`realm_${name}`]) !== canonical(value)).map(([name]) => name);
    if (changed.length > 0) throw new Error(`realm settings left changed: ${changed.join(', ')}`);
  });
  for (const name of SETTINGS) expectSuccess(await admin.patch('/realm', [[name, { new: nobody }]]));
}

const narrowed: Rule = {
  id: 'message-move/rights-with-realm-settings-narrowed-to-nobody',
  title: 'with can_move_messages_between_topics_group, can_move_messages_between_channels_group and can_resolve_topics_group set to role:nobody, each role renames, moves out and resolves exactly as the remaining rights say: administrators and channel administrators move (level 396 on), nobody resolves',
  endpoint: 'PATCH /messages/{message_id}',
  section: 'api/update-message; help/restrict-moving-messages; help/resolve-a-topic',
  levels: { min: EDIT_LEVELS.RESOLVE_GROUP },
  writes: true,
  realmWide: true,
  needs: ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'],
  async run(ctx) {
    await narrowToNobody(ctx);
    // The moderator sends here (the other role tables' sender is the second member).
    await roleTable(ctx, (rights, who) => rights.moveTopics(who), RENAME, 'moderator');
    await roleTable(ctx, (rights, who) => rights.moveOutOfChannel(who), MOVE_OUT, 'moderator');
    await roleTable(ctx, (rights, who) => rights.resolve(who), RESOLVE, 'moderator');
  },
};

export const rules: readonly Rule[] = [narrowed];
