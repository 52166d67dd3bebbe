/**
 * What the user-group rules share: creating run-tagged groups (the ID from `group_id` at level
 * 317, looked up by name before), reading groups back, and taking them out of use afterwards.
 * Real servers never delete groups: from level 290 the cleanup deactivates them, supergroups and
 * setting holders first (a group in use cannot be deactivated), as the creator or else as an
 * owner; before 290 it tries the old `DELETE /user_groups/{id}`.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { RuleContext } from '../types.js';

export const GROUP_LEVELS = {
  IS_SYSTEM_GROUP: 93,
  SUBGROUP_ENDPOINTS: 127,
  DIRECT_SUBGROUP_IDS: 131,
  DEACTIVATION: 290,
  CREATOR: 292,
  CREATE_SUBGROUPS: 311,
  CREATE_RETURNS_ID: 317,
} as const;

export interface ApiGroup {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly members: readonly number[];
  readonly direct_subgroup_ids?: readonly number[];
  readonly is_system_group?: boolean;
  readonly deactivated?: boolean;
  readonly creator_id?: number | null;
  readonly [setting: string]: unknown;
}

const groupShape = v.object({ id: v.int({ min: 0 }), name: v.string(), description: v.string(), members: v.array(v.int()) });

/** `GET /user_groups` (active groups), shape-checked. */
export async function listGroups(client: ApiClient): Promise<ApiGroup[]> {
  const reply = await client.get('/user_groups');
  return expectShape(expectSuccess(reply), v.object({ user_groups: v.array(groupShape) }), 'body', reply).user_groups as ApiGroup[];
}

/** The listed group with this ID (fails when absent). */
export async function groupById(client: ApiClient, id: number): Promise<ApiGroup> {
  const group = (await listGroups(client)).find((entry) => entry.id === id);
  if (!group) fail(`group ${id} is not listed by GET /user_groups`);
  return group;
}

/** System groups by name (`role:members` -> ID). */
export async function systemGroups(client: ApiClient): Promise<Map<string, number>> {
  const groups = await listGroups(client);
  return new Map(groups.filter((group) => group.name.startsWith('role:') && group.is_system_group !== false).map((group) => [group.name, group.id]));
}

/** Sub- or member IDs of `GET /user_groups/{id}/{what}` (level 127), direct or at any depth. */
export async function groupList(client: ApiClient, id: number, what: 'subgroups' | 'members', direct: boolean): Promise<number[]> {
  const flag = what === 'subgroups' ? 'direct_subgroup_only' : 'direct_member_only';
  const reply = await client.get(`/user_groups/${id}/${what}`, { [flag]: direct });
  const body = expectShape(expectSuccess(reply), v.object({ [what]: v.array(v.int()) }), 'body', reply) as JsonObject;
  return [...(body[what] as number[])].sort((a, b) => a - b);
}

export const ascending = (ids: Iterable<number>): number[] => [...new Set(ids)].sort((a, b) => a - b);

/** Groups a rule created; `cleanup` takes every one of them out of use when the rule ends. */
export class RuleGroups {
  readonly ids: number[] = [];

  constructor(private readonly ctx: RuleContext) {
    ctx.cleanup('deactivate the groups of the rule', (c) => retireGroups(c, this.ids, ctx.featureLevel));
  }

  /** Records a group (created by any means) for the cleanup. */
  track(id: number): number {
    if (!this.ids.includes(id)) this.ids.push(id);
    return id;
  }

  /**
   * Creates a group as `client` and returns its ID. `params` must hold at least `name`; the
   * description and members default to '' and [].
   */
  async create(client: ApiClient, params: ReadonlyArray<readonly [string, unknown]>): Promise<{ id: number; reply: Reply }> {
    const pairs = new Map(params);
    const name = pairs.get('name');
    if (typeof name !== 'string') throw new Error('create: a name is needed');
    const all: Array<readonly [string, unknown]> = [...params];
    if (!pairs.has('description')) all.push(['description', '']);
    if (!pairs.has('members')) all.push(['members', []]);
    const reply = await client.post('/user_groups/create', all);
    const body = expectSuccess(reply);
    if (this.ctx.featureLevel >= GROUP_LEVELS.CREATE_RETURNS_ID) {
      check(Number.isInteger(body.group_id), 'the creation response carries the integer group_id (level 317)', reply);
      return { id: this.track(body.group_id as number), reply };
    }
    const found = (await listGroups(client)).find((group) => group.name === name);
    if (!found) fail(`the new group ${JSON.stringify(name)} is not listed`, reply);
    return { id: this.track(found.id), reply };
  }
}

/**
 * Takes groups out of use: deactivation (level 290) in passes until no more succeed, so
 * supergroups and groups whose settings use another go first; as the admin, else the owner.
 */
export async function retireGroups(c: CleanupContext, ids: readonly number[], level: number): Promise<void> {
  const clients: ApiClient[] = [];
  for (const who of ['admin', 'owner'] as const) {
    try {
      clients.push(c.as(who));
    } catch {
      // The run lacks this identity.
    }
  }
  if (level < GROUP_LEVELS.DEACTIVATION) {
    // Older servers deleted groups (`DELETE /user_groups/{id}`, removed at 294); ours may not have it.
    for (const id of ids) for (const client of clients) if ((await client.delete(`/user_groups/${id}`)).status === 200) break;
    return;
  }
  let remaining = [...ids].reverse();
  while (remaining.length > 0) {
    const failed: number[] = [];
    for (const id of remaining) {
      let done = false;
      for (const client of clients) {
        const reply = await client.post(`/user_groups/${id}/deactivate`);
        // Already deactivated counts as done.
        if (reply.status === 200 || /deactivated/i.test(String(reply.body?.msg ?? ''))) {
          done = true;
          break;
        }
      }
      if (!done) failed.push(id);
    }
    if (failed.length === remaining.length) throw new Error(`could not deactivate groups ${failed.join(', ')}`);
    remaining = failed;
  }
}
