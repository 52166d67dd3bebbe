/**
 * The sorted ID lists under the history index, against a plain sorted array: after any sequence
 * of additions and removals (enough to split and empty chunks), a list holds the same IDs and
 * finds the same neighbours; unions and intersections of lists, and walks outward from a
 * point, give what filtering the arrays gives.
 */
import fc from 'fast-check';
import t from 'tap';
import { IdList } from '../lib/state/history/id-list.js';
import { ascending, firstAccepted, intersectionOf, lastAccepted, unionOf } from '../lib/state/history/id-sources.js';

const operations = fc.array(fc.record({ add: fc.boolean(), id: fc.integer({ min: 1, max: 3000 }), run: fc.integer({ min: 1, max: 400 }) }), { maxLength: 40 });

/** Applies runs of consecutive IDs (so chunks fill and split) to a list and to a Set. */
function build(ops: ReadonlyArray<{ add: boolean; id: number; run: number }>): { list: IdList; ids: number[] } {
  const list = new IdList();
  const set = new Set<number>();
  for (const { add, id, run } of ops) {
    for (let k = 0; k < run; k++) {
      const value = id + (add ? k : -k);
      if (value < 1) continue;
      const changed = add ? list.add(value) : list.delete(value);
      if (changed !== (add !== set.has(value))) throw new Error(`${add ? 'add' : 'delete'} of ${value} reported ${changed}`);
      if (add) set.add(value);
      else set.delete(value);
    }
  }
  return { list, ids: [...set].sort((a, b) => a - b) };
}

const atMost = (ids: readonly number[], id: number) => [...ids].reverse().find((value) => value <= id);
const atLeast = (ids: readonly number[], id: number) => ids.find((value) => value >= id);

t.test('a list holds what a sorted array holds after any additions and removals', async (t) => {
  fc.assert(
    fc.property(operations, fc.array(fc.integer({ min: 0, max: 3500 }), { maxLength: 20 }), (ops, probes) => {
      const { list, ids } = build(ops);
      if (list.size !== ids.length || JSON.stringify([...list]) !== JSON.stringify(ids)) return false;
      if (list.first !== ids[0] || list.last !== ids.at(-1)) return false;
      return probes.every((p) => list.atMost(p) === atMost(ids, p) && list.atLeast(p) === atLeast(ids, p) && list.has(p) === ids.includes(p));
    }),
    { numRuns: 150 },
  );
  t.pass('every run agreed');
});

t.test('unions, intersections and walks outward from a point give what filtering the arrays gives', async (t) => {
  fc.assert(
    fc.property(fc.array(operations, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 3500 }), fc.nat({ max: 30 }), (lists, point, limit) => {
      const built = lists.map(build);
      const union = [...new Set(built.flatMap((b) => b.ids))].sort((a, b) => a - b);
      const intersection = (built[0]?.ids ?? []).filter((id) => built.every((b) => b.ids.includes(id)));
      const even = (id: number) => id % 2 === 0;
      const sources = [
        [unionOf(built.map((b) => b.list)), union],
        [intersectionOf(built.map((b) => b.list)), intersection],
      ] as const;
      return sources.every(([source, ids]) => {
        const kept = ids.filter(even);
        const below = kept.filter((id) => id <= point);
        return (
          JSON.stringify([...ascending(source)]) === JSON.stringify(ids) &&
          JSON.stringify(lastAccepted(source, point, limit, even)) === JSON.stringify(limit === 0 ? below : below.slice(-limit)) &&
          JSON.stringify(firstAccepted(source, point, limit, even)) === JSON.stringify(kept.filter((id) => id >= point).slice(0, limit))
        );
      });
    }),
    { numRuns: 150 },
  );
  t.pass('every run agreed');
});
