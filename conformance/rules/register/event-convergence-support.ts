/**
 * The rule skeleton every convergence family shares: set the family's fixture up once, then a
 * property over action sequences, each checked by `checkSequence` (conformance/convergence/).
 */
import fc from 'fast-check';
import { checkSequence } from '../../convergence/check.js';
import type { Family } from '../../convergence/family.js';
import type { Rule } from '../types.js';

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
      const notes = new Set<string>();
      try {
        await ctx.property(
          'actions',
          [fc.array(family.action(fixture, ctx.featureLevel), { minLength: 1, maxLength: family.maxActions })],
          async (actions) => checkSequence(ctx, family, fixture, actions, notes),
          { maxRuns: family.maxRuns },
        );
      } finally {
        for (const note of notes) ctx.note(note);
      }
    },
  };
}
