/**
 * Changing linkifiers (sections 2.6, 4.16, 5.5): only administrators may add, update
 * (`PATCH /realm/filters/{filter_id}`, level 57), delete or reorder (`PATCH /realm/linkifiers`,
 * level 202) them; unknown IDs and malformed reorders are refused; and any sequence of changes
 * leaves the run's linkifiers as a model of them says. Others' linkifiers keep their order.
 */
import fc from 'fast-check';
import { expectError } from '../../expect/assert.js';
import { expectDocumentedError } from '../../expect/deviation.js';
import { createOurs, deleteCreated, LIST_LEVEL, type LinkifierModel, linkifierCommands, type LinkifierReal, linkifierPair, linkifierParams, listLinkifiers, REORDER_LEVEL, seedLinkifiers, UPDATE_LEVEL } from '../../model/linkifiers.js';
import { FAR_ID_FLOOR } from '../support/message-fixtures.js';
import { expectListingUnchanged, linkifierRule } from './linkifiers-support.js';
import type { Rule } from '../types.js';

const nonAdmin = linkifierRule({
  id: 'linkifiers/changes-need-administrator',
  title: 'a member may list linkifiers but adding, updating, deleting or reordering them is refused and changes nothing',
  endpoint: 'POST /realm/filters',
  section: '4.16; 5.5',
  levels: { min: LIST_LEVEL },
  needs: ['admin', 'member'],
  deviation: 'admin-only-code',
}, async (ctx, admin) => {
  const { pattern, template } = linkifierPair(ctx.name('lk'));
  const id = await createOurs(ctx, pattern, template);
  const member = ctx.as('member');
  const before = await listLinkifiers(member, ctx.featureLevel);
  const fresh = linkifierPair(ctx.name('lk'));
  const attempts: Array<[string, () => ReturnType<typeof member.post>]> = [
    ['add', () => member.post('/realm/filters', linkifierParams(ctx.featureLevel, fresh.pattern, fresh.template))],
    ['delete', () => member.delete(`/realm/filters/${id}`)],
    ...(ctx.featureLevel >= UPDATE_LEVEL ? [['update', () => member.patch(`/realm/filters/${id}`, linkifierParams(ctx.featureLevel, fresh.pattern, fresh.template))] as [string, () => ReturnType<typeof member.post>]] : []),
    ...(ctx.featureLevel >= REORDER_LEVEL ? [['reorder', () => member.patch('/realm/linkifiers', { ordered_linkifier_ids: [...before.map((entry) => entry.id)].reverse() })] as [string, () => ReturnType<typeof member.post>]] : []),
    // The administrator check comes before the parameters (reference 0.2).
    ['add without parameters', () => member.post('/realm/filters')],
  ];
  for (const [what, attempt] of attempts) expectDocumentedError(ctx, await attempt(), 'admin-only-code', `a member's ${what} answered 400 UNAUTHORIZED_PRINCIPAL`);
  await expectListingUnchanged(member, ctx.featureLevel, before, 'the refused changes');
});

const unknownId: Rule = {
  id: 'linkifiers/update-or-delete-unknown-bad-request',
  title: 'updating or deleting a linkifier ID that does not exist answers 400 BAD_REQUEST',
  endpoint: 'DELETE, PATCH /realm/filters/{filter_id}',
  section: '4.16; 7',
  levels: { min: LIST_LEVEL },
  writes: false,
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const known = (await listLinkifiers(ctx.reader('admin'), ctx.featureLevel)).map((entry) => entry.id);
    const id = fc.integer({ min: Math.max(FAR_ID_FLOOR, ...known.map((x) => x + 1)), max: 2 ** 31 - 1 });
    const methods = ctx.featureLevel >= UPDATE_LEVEL ? (['delete', 'patch'] as const) : (['delete'] as const);
    const { pattern, template } = linkifierPair(ctx.name('lk'));
    await ctx.property('unknown IDs x method', [id, fc.constantFrom(...methods)], async (filterId, method) => {
      const reply = method === 'delete' ? await admin.delete(`/realm/filters/${filterId}`) : await admin.patch(`/realm/filters/${filterId}`, linkifierParams(ctx.featureLevel, pattern, template));
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 10 });
  },
};

const reorderValidation = linkifierRule({
  id: 'linkifiers/reorder-must-list-each-once',
  title: 'a reorder whose list repeats an ID, leaves one out or names an unknown one answers 400 BAD_REQUEST and keeps the order',
  endpoint: 'PATCH /realm/linkifiers',
  section: '2.6',
  levels: { min: REORDER_LEVEL },
}, async (ctx, admin) => {
  for (let i = 0; i < 2; i++) {
    const { pattern, template } = linkifierPair(ctx.name('lk'));
    await createOurs(ctx, pattern, template);
  }
  const before = await listLinkifiers(ctx.reader('admin'), ctx.featureLevel);
  const ids = before.map((entry) => entry.id);
  const unknown = fc.integer({ min: Math.max(FAR_ID_FLOOR, ...ids.map((x) => x + 1)), max: 2 ** 31 - 1 });
  const broken = fc.oneof(
    fc.tuple(fc.nat(), fc.nat()).map(([at, which]) => { const list = [...ids]; list.splice(at % (list.length + 1), 0, ids[which % ids.length]!); return list; }),
    fc.nat().map((which) => ids.filter((_, i) => i !== which % ids.length)),
    fc.tuple(fc.nat(), unknown).map(([at, extra]) => { const list = [...ids]; list.splice(at % (list.length + 1), 0, extra); return list; }),
    fc.tuple(fc.nat(), unknown).map(([which, extra]) => ids.map((id, i) => (i === which % ids.length ? extra : id))),
  );
  await ctx.property('broken lists', [broken], async (list) => {
    expectError(await admin.patch('/realm/linkifiers', { ordered_linkifier_ids: list }), { status: 400, code: 'BAD_REQUEST' });
  }, { maxRuns: 12 });
  await expectListingUnchanged(ctx.reader('admin'), ctx.featureLevel, before, 'the refused reorders');
});

const modelSequence = linkifierRule({
  id: 'linkifiers/sequence-matches-model',
  title: "after any sequence of adds, updates, deletes and reorders, the run's linkifiers are listed in the modelled order with the modelled patterns and templates",
  endpoint: 'PATCH /realm/linkifiers',
  section: '2.6; 4.16; 4.19',
  levels: { min: LIST_LEVEL },
}, async (ctx, admin) => {
  const commands = fc.commands(linkifierCommands(ctx.featureLevel), { maxCommands: 8 });
  await ctx.assert(
    'initial linkifiers x adds, updates, deletes and reorders',
    fc.asyncProperty(fc.integer({ min: 2, max: 3 }), commands, async (initial, sequence) => {
      const real: LinkifierReal = { admin, reader: ctx.reader('admin'), level: ctx.featureLevel, name: (label) => ctx.name(label), created: new Set(), everCreated: new Set() };
      const model: LinkifierModel = { ours: [] };
      try {
        await seedLinkifiers(model, real, initial);
        await fc.asyncModelRun(() => ({ model, real }), sequence);
      } finally {
        await deleteCreated(real);
      }
    }),
    { maxRuns: 15 },
  );
});

export const rules: readonly Rule[] = [nonAdmin, unknownId, reorderValidation, modelSequence];
