/**
 * `PATCH /drafts/{draft_id}` (sections 2.2, 4.8; level 87) with `POST /drafts`, `GET /drafts` and
 * `DELETE /drafts/{draft_id}` to set up, observe and clean up. An edit replaces the whole draft;
 * a draft the caller does not own (unknown, deleted, another user's) answers 404 BAD_REQUEST;
 * invalid drafts are refused without touching the stored one.
 */
import fc from 'fast-check';
import { expectError } from '../../expect/assert.js';
import { type DraftCase, draftCase, draftContent } from '../../model/draft-cases.js';
import { draftCommands, type DraftsModel, type DraftsReal, expectDraftsAsModel, listDrafts } from '../../model/drafts-model.js';
import { printableText } from '../support/arbitraries.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { BASE_DRAFT, BASE_EXPECTED, draftsSetup, ENDPOINT, EVERY_ENDPOINT, expectDraft, expectEditRefused, LEVELS, memberDraftsRule } from './drafts-support.js';
import type { Rule, RuleContext } from '../types.js';
import { checkUnknownParamsReported, type ParamPair } from '../conventions/unknown-parameters.js';

const noCredentials = credentialsRequired({
  id: 'drafts/requires-credentials',
  endpoint: EVERY_ENDPOINT,
  section: '4.8',
  levels: LEVELS,
  requests: [
    ['PATCH', '/drafts/1', { draft: BASE_DRAFT }],
    ['DELETE', '/drafts/1'],
    ['GET', '/drafts'],
    ['POST', '/drafts', { drafts: [BASE_DRAFT] }],
  ],
});

const editReplaces = memberDraftsRule({
  id: 'drafts/edit-replaces-draft',
  title: 'an edit replaces type, recipients, topic, content and timestamp of the draft, as GET /drafts shows',
  section: '4.8; 2.2',
}, async (ctx, setup) => {
  const id = await setup.create(BASE_DRAFT);
  await ctx.property('replacement drafts', [draftCase(setup.world)], async (replacement: DraftCase) => {
    expectPlainSuccess(await setup.client.patch(`/drafts/${id}`, { draft: replacement.input }));
    await expectDraft(setup, id, replacement.expected, 'after the edit');
  });
});

const unknownDraft: Rule = {
  id: 'drafts/edit-unknown-draft-not-found',
  title: 'editing or deleting a draft ID the user does not have answers 404 BAD_REQUEST',
  endpoint: ENDPOINT,
  section: '4.8; 7',
  levels: LEVELS,
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const setup = await draftsSetup(ctx);
    const own = new Set((await listDrafts(setup.client)).map((draft) => draft.id));
    const absent = fc.integer({ min: 1, max: 2 ** 31 - 1 }).filter((id) => !own.has(id));
    await ctx.property("IDs not among the user's drafts", [absent, draftCase(setup.world), fc.boolean()], async (id, draft, viaDelete) => {
      const reply = viaDelete ? await setup.client.delete(`/drafts/${id}`) : await setup.client.patch(`/drafts/${id}`, { draft: draft.input });
      expectError(reply, { status: 404, code: 'BAD_REQUEST' });
    }, { maxRuns: 10 });
  },
};

const otherUsersDraft: Rule = {
  id: 'drafts/edit-other-users-draft-not-found',
  title: "another user's draft cannot be edited or deleted (404 BAD_REQUEST, as if it did not exist) and stays as it was",
  endpoint: ENDPOINT,
  section: '4.8; 7',
  levels: LEVELS,
  writes: true,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const owner = await draftsSetup(ctx, 'second-member');
    const intruder = ctx.as('member');
    const id = await owner.create(BASE_DRAFT);
    await ctx.property('edits and deletes by another user', [draftCase({ selfId: ctx.identity('member').userId, otherIds: [] }), fc.boolean()], async (draft, viaDelete) => {
      const reply = viaDelete ? await intruder.delete(`/drafts/${id}`) : await intruder.patch(`/drafts/${id}`, { draft: draft.input });
      expectError(reply, { status: 404, code: 'BAD_REQUEST' });
      await expectDraft(owner, id, BASE_EXPECTED, "the owner's draft");
    }, { maxRuns: 6 });
  },
};

/** Inserts a NUL at a generated position. */
const withNull = (text: fc.Arbitrary<string>) =>
  fc.tuple(text, fc.nat()).map(([value, at]) => {
    const chars = [...value];
    const i = at % (chars.length + 1);
    return [...chars.slice(0, i), '\u0000', ...chars.slice(i)].join('');
  });

const nullBytes = memberDraftsRule({
  id: 'drafts/edit-null-bytes-refused',
  title: 'an edit whose content, or channel-draft topic, contains a null byte answers 400 BAD_REQUEST and leaves the draft unchanged',
  section: '2.2; 8',
}, async (ctx, setup) => {
  const channel = setup.world.channelId;
  const id = await setup.create(BASE_DRAFT);
  const inContent = withNull(draftContent).map((content) => ({ ...BASE_DRAFT, content }));
  const inTopic = withNull(printableText(10)).map((topic) => ({ type: 'stream' as const, to: [channel ?? 0], topic, content: 'x' }));
  await ctx.property('null bytes', [channel === undefined ? inContent : fc.oneof(inContent, inTopic)], async (draft) => {
    await expectEditRefused(setup, id, draft, 'after a refused edit');
  }, { maxRuns: 12 });
});

const unknownIgnored = memberDraftsRule({
  id: 'drafts/edit-unknown-parameters-ignored',
  title: 'unknown parameters of an edit are reported, sorted, in ignored_parameters_unsupported',
  section: '1 convention 4; 9.3',
  levels: { min: 167 },
}, async (ctx, setup) => {
  const id = await setup.create(BASE_DRAFT);
  const send = (pairs: ParamPair[]) => setup.client.patch(`/drafts/${id}`, [['draft', JSON.stringify(BASE_DRAFT)], ...pairs]);
  await checkUnknownParamsReported(ctx, { declared: ['draft', 'draft_id'], send, maxRuns: 8 });
});

async function runModel(ctx: RuleContext): Promise<void> {
  const setup = await draftsSetup(ctx);
  const commands = fc.commands(draftCommands(draftCase(setup.world)), { maxCommands: 8 });
  await ctx.assert(
    'create / edit / delete / edit-deleted sequences',
    fc.asyncProperty(commands, async (cmds) => {
      const model: DraftsModel = { live: new Map(), gone: new Set() };
      const real: DraftsReal = { client: setup.client, created: setup.created };
      await expectDraftsAsModel(model, real.client);
      await fc.asyncModelRun(() => ({ model, real }), cmds);
      // Drafts of this run are deleted as it goes, so runs stay independent.
      for (const id of model.live.keys()) await setup.client.delete(`/drafts/${id}`);
    }),
    { maxRuns: 10 },
  );
}

const modelSequence: Rule = {
  id: 'drafts/model-sequence',
  title: 'after any sequence of creating, editing and deleting drafts, GET /drafts agrees with the model after every step',
  endpoint: EVERY_ENDPOINT,
  section: '4.8; 2.2',
  levels: LEVELS,
  writes: true,
  needs: ['member'],
  run: runModel,
};

export const rules: readonly Rule[] = [noCredentials, editReplaces, unknownDraft, otherUsersDraft, nullBytes, unknownIgnored, modelSequence];
