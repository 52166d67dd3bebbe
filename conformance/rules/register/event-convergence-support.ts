/**
 * The rule skeleton every convergence family shares: set the family's fixture up once, wait
 * until the setup's events are delivered, then a property over action sequences, each checked
 * by `checkSequence` (conformance/convergence/). A sequence that ends early (a failure) may
 * leave events in flight, so the next one (fast-check shrinking) first waits for them too.
 */
import fc from 'fast-check';
import { checkSequence, keepsDrafts, registerParams } from '../../convergence/check.js';
import type { Family } from '../../convergence/family.js';
import { settle } from '../../convergence/queues.js';
import type { Rule, RuleContext } from '../types.js';

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
    endpoint: 'POST /register',
    section: family.section,
    levels: family.levels,
    writes: true,
    needs: family.needs,
    async run(ctx) {
      const fixture = await family.setup(ctx);
      await settleObservers(ctx, family);
      const notes = new Set<string>();
      let unsettled = false;
      try {
        await ctx.property(
          'actions',
          [fc.array(family.action(fixture, ctx.featureLevel), { minLength: 1, maxLength: family.maxActions })],
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
