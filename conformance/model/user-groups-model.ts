/**
 * The model-based sequence for subgroups (section 4.18): the model is the direct subgroups of a
 * few groups the rule created. Each command is one `POST /user_groups/{id}/subgroups` with `add`
 * and/or `delete` lists; the model decides the outcome (add first, then delete, all or nothing):
 * adding an existing direct subgroup, closing a cycle (the target is, or is below, a group being
 * added) or deleting a group that is not a direct subgroup is refused, and so is a request with
 * nothing to do. After each command the target's direct subgroups must match; at the end of a run
 * every group's direct and recursive subgroups must.
 */
import fc from 'fast-check';
import type { ApiClient } from '../client/api-client.js';
import { expectEqual, expectError, expectSuccess } from '../expect/assert.js';
import { groupList } from '../rules/groups/user-groups-support.js';

export interface SubgroupsModel {
  /** The groups of the sequence (created once per rule). */
  readonly groups: readonly number[];
  /** Group ID -> its direct subgroups. */
  readonly direct: Map<number, Set<number>>;
}

export interface SubgroupsReal {
  /** Changes the subgroups. */
  readonly client: ApiClient;
  /** Reads them back (any non-guest sees every group's subgroups). */
  readonly reader: ApiClient;
}

/** The group and every group below it. */
export function closure(direct: ReadonlyMap<number, ReadonlySet<number>>, id: number): Set<number> {
  const seen = new Set<number>();
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.pop() as number;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const sub of direct.get(next) ?? []) stack.push(sub);
  }
  return seen;
}

const sorted = (ids: Iterable<number>): number[] => [...ids].sort((a, b) => a - b);

/** The model after the request, or undefined when the server must refuse it. */
export function outcome(direct: ReadonlyMap<number, ReadonlySet<number>>, target: number, add: readonly number[], remove: readonly number[]): Map<number, Set<number>> | undefined {
  if (add.length === 0 && remove.length === 0) return undefined;
  const next = new Map([...direct].map(([id, subs]) => [id, new Set(subs)]));
  const subs = next.get(target) ?? new Set<number>();
  next.set(target, subs);
  if (add.some((id) => subs.has(id))) return undefined;
  if (add.some((id) => closure(direct, id).has(target))) return undefined;
  for (const id of add) subs.add(id);
  if (remove.some((id) => !subs.has(id))) return undefined;
  for (const id of remove) subs.delete(id);
  return next;
}

/** Every group's direct and recursive subgroups agree with the model. */
export async function expectSubgroupsAsModel(model: SubgroupsModel, client: ApiClient): Promise<void> {
  for (const id of model.groups) {
    expectEqual(await groupList(client, id, 'subgroups', true), sorted(model.direct.get(id) ?? []), `direct subgroups of group ${id}`);
    const below = closure(model.direct, id);
    below.delete(id);
    expectEqual(await groupList(client, id, 'subgroups', false), sorted(below), `recursive subgroups of group ${id}`);
  }
}

type SubgroupCommand = fc.AsyncCommand<SubgroupsModel, SubgroupsReal>;

class UpdateSubgroups implements SubgroupCommand {
  constructor(readonly target: number, readonly add: readonly number[], readonly remove: readonly number[]) {}
  check = () => true;
  async run(model: SubgroupsModel, real: SubgroupsReal): Promise<void> {
    const at = (i: number) => model.groups[i % model.groups.length] as number;
    const target = at(this.target);
    const add = [...new Set(this.add.map(at))];
    const remove = [...new Set(this.remove.map(at))];
    const next = outcome(model.direct, target, add, remove);
    const params = { ...(add.length > 0 || this.add.length > 0 ? { add } : {}), ...(remove.length > 0 || this.remove.length > 0 ? { delete: remove } : {}) };
    const reply = await real.client.post(`/user_groups/${target}/subgroups`, params);
    if (next === undefined) {
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    } else {
      expectSuccess(reply, { ignored: [] });
      model.direct.clear();
      for (const [id, subs] of next) model.direct.set(id, subs);
    }
    expectEqual(await groupList(real.reader, target, 'subgroups', true), sorted(model.direct.get(target) ?? []), `direct subgroups of group ${target}`);
  }
  toString = () => `update(#${this.target}, add=[${this.add.map((i) => `#${i}`).join(',')}], delete=[${this.remove.map((i) => `#${i}`).join(',')}])`;
}

/** Commands over `size` groups (indices into the model's groups). */
export function subgroupCommands(size: number): Array<fc.Arbitrary<SubgroupCommand>> {
  const index = fc.nat({ max: size - 1 });
  const indices = fc.uniqueArray(index, { maxLength: 2 });
  return [
    fc.tuple(index, fc.uniqueArray(index, { minLength: 1, maxLength: 2 })).map(([t, add]) => new UpdateSubgroups(t, add, [])),
    fc.tuple(index, fc.uniqueArray(index, { minLength: 1, maxLength: 2 })).map(([t, remove]) => new UpdateSubgroups(t, [], remove)),
    fc.tuple(index, indices, indices).map(([t, add, remove]) => new UpdateSubgroups(t, add, remove)),
  ];
}
