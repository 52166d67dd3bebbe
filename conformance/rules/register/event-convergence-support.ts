/**
 * The rule skeleton every convergence family shares: set the family's fixture up once, wait
 * until the setup's events are delivered, then a property over action sequences, each checked
 * by `checkSequence` (conformance/convergence/). A sequence that ends early (a failure) may
 * leave events in flight, so the next one (fast-check shrinking) first waits for them too.
 */
import fc from 'fast-check';
import { checkSequence, keepsDrafts, registerParams } from '../../convergence/check.js';
import type { Family } from '../../convergence/family.js';
import { MarkerUnavailable, settle } from '../../convergence/queues.js';
import type { Rule, RuleContext } from '../types.js';

/**
 * Sequences with up to `weight` actions of every kind, in a random order (each action drawn with
 * a rank; equal ranks keep the kinds' order). Unbiased, so that every sequence tries each kind;
 * shrinking empties kinds and lowers ranks.
 */
export function sequenceOf<A>(kinds: ReadonlyArray<fc.WeightedArbitrary<A>>): fc.Arbitrary<A[]> {
  const ranked = kinds.map(({ weight, arbitrary }) => fc.array(fc.tuple(arbitrary, fc.nat({ max: 99 })), { maxLength: weight }));
  return fc.noBias(fc.tuple(...ranked)).map((groups) =>
    groups
      .flat()
      .sort((a, b) => a[1] - b[1])
      .map(([action]) => action),
  );
}

async function settleObservers<F, A>(ctx: RuleContext, family: Family<F, A>): Promise<void> {
  await settle(
    family.observers.map((who) => [who, ctx.as(who)] as const),
    ctx.featureLevel,
    keepsDrafts(registerParams(family, ctx.featureLevel)),
  );
}

export function convergenceRule<F, A>(family: Family<F, A>): Rule {
  return {
    id: family.id,
    title: family.title,
    endpoint: 'POST /register, GET /events',
    section: family.section,
    levels: family.levels,
    writes: true,
    needs: family.needs,
    async run(ctx) {
      const fixture = await family.setup(ctx);
      const restore = family.restore;
      if (restore) ctx.cleanup(`undo what the last ${family.id} sequence changed`, async (c) => void (await restore((who) => c.as(who), fixture, true)));
      try {
        await settleObservers(ctx, family);
      } catch (error) {
        if (error instanceof MarkerUnavailable) ctx.skip(error.message);
        throw error;
      }
      const notes = new Set<string>();
      let unsettled = false;
      try {
        await ctx.property(
          'actions',
          [sequenceOf(family.kinds(fixture, ctx.featureLevel))],
          async (actions) => {
            if (unsettled) await settleObservers(ctx, family);
            unsettled = true;
            await checkSequence(ctx, family, fixture, actions, notes);
            unsettled = false;
          },
          { maxRuns: family.maxRuns },
        );
      } finally {
        for (const note of notes) ctx.note(note);
      }
    },
  };
}
