/**
 * The model-based sequence for drafts (sections 2.2, 4.8): the model is the drafts this run
 * created (ID -> how each must read back) plus the IDs it deleted. Commands create, edit and
 * delete drafts and edit IDs that are gone; after each command `GET /drafts` must agree with the
 * model: every live draft of ours listed exactly, every deleted one absent. Other drafts of the
 * user (a shared account) are ignored.
 */
import fc from 'fast-check';
import type { ApiClient } from '../client/api-client.js';
import { check, expectError, expectShape, expectSuccess, fail } from '../expect/assert.js';
import { v } from '../expect/shape.js';
import { type DraftCase, draftDifference, type ExpectedDraft, type ListedDraft } from './draft-cases.js';

export interface DraftsModel {
  readonly live: Map<number, ExpectedDraft>;
  readonly gone: Set<number>;
}

export interface DraftsReal {
  readonly client: ApiClient;
  /** Every draft ID ever created (the rule's cleanup deletes the ones still there). */
  readonly created: Set<number>;
}

export const listedDraftShape = v.object(
  { id: v.int({ min: 1 }), type: v.literal('', 'stream', 'private'), to: v.array(v.int()), topic: v.string(), content: v.string(), timestamp: v.int({ min: 0 }) },
  { exact: true },
);

/** `GET /drafts`, shape-checked (`count` equals the number of drafts). */
export async function listDrafts(client: ApiClient): Promise<ListedDraft[]> {
  const reply = await client.get('/drafts');
  const body = expectShape(expectSuccess(reply), v.object({ count: v.int({ min: 0 }), drafts: v.array(listedDraftShape) }), 'body', reply);
  check(body.count === body.drafts.length, `count ${body.count} differs from the ${body.drafts.length} drafts listed`, reply);
  return body.drafts;
}

/** The server's listing agrees with the model. */
export async function expectDraftsAsModel(model: DraftsModel, client: ApiClient): Promise<void> {
  const listed = new Map((await listDrafts(client)).map((draft) => [draft.id, draft]));
  for (const [id, expected] of model.live) {
    const draft = listed.get(id);
    if (!draft) fail(`draft ${id} is not listed by GET /drafts`);
    const difference = draftDifference(draft, expected);
    if (difference !== '') fail(`draft ${id} reads back wrong: ${difference}`);
  }
  for (const id of model.gone) check(!listed.has(id), `deleted draft ${id} is still listed`);
}

type DraftCommand = fc.AsyncCommand<DraftsModel, DraftsReal>;

/** Picks one of the model's live drafts by a generated index. */
const pick = (model: DraftsModel, index: number): number => [...model.live.keys()][index % model.live.size] as number;

class CreateDraft implements DraftCommand {
  constructor(readonly draft: DraftCase) {}
  check = (model: Readonly<DraftsModel>) => model.live.size < 6;
  async run(model: DraftsModel, real: DraftsReal): Promise<void> {
    const reply = await real.client.post('/drafts', { drafts: [this.draft.input] });
    const { ids } = expectShape(expectSuccess(reply), v.object({ ids: v.array(v.int({ min: 1 }), { minLength: 1 }) }), 'body', reply);
    const id = ids[0] as number;
    check(ids.length === 1 && !model.live.has(id) && !model.gone.has(id), `POST /drafts answered ids ${JSON.stringify(ids)}: expected one new ID`, reply);
    real.created.add(id);
    model.live.set(id, this.draft.expected);
    await expectDraftsAsModel(model, real.client);
  }
  toString = () => `create(${JSON.stringify(this.draft.input)})`;
}

class EditDraft implements DraftCommand {
  constructor(readonly index: number, readonly draft: DraftCase) {}
  check = (model: Readonly<DraftsModel>) => model.live.size > 0;
  async run(model: DraftsModel, real: DraftsReal): Promise<void> {
    const id = pick(model, this.index);
    expectSuccess(await real.client.patch(`/drafts/${id}`, { draft: this.draft.input }), { ignored: [] });
    model.live.set(id, this.draft.expected);
    await expectDraftsAsModel(model, real.client);
  }
  toString = () => `edit(#${this.index}, ${JSON.stringify(this.draft.input)})`;
}

class DeleteDraft implements DraftCommand {
  constructor(readonly index: number) {}
  check = (model: Readonly<DraftsModel>) => model.live.size > 0;
  async run(model: DraftsModel, real: DraftsReal): Promise<void> {
    const id = pick(model, this.index);
    expectSuccess(await real.client.delete(`/drafts/${id}`));
    model.live.delete(id);
    model.gone.add(id);
    await expectDraftsAsModel(model, real.client);
  }
  toString = () => `delete(#${this.index})`;
}

class EditGoneDraft implements DraftCommand {
  constructor(readonly index: number, readonly draft: DraftCase) {}
  check = (model: Readonly<DraftsModel>) => model.gone.size > 0;
  async run(model: DraftsModel, real: DraftsReal): Promise<void> {
    const id = [...model.gone][this.index % model.gone.size] as number;
    expectError(await real.client.patch(`/drafts/${id}`, { draft: this.draft.input }), { status: 404, code: 'BAD_REQUEST' });
    expectError(await real.client.delete(`/drafts/${id}`), { status: 404, code: 'BAD_REQUEST' });
    await expectDraftsAsModel(model, real.client);
  }
  toString = () => `edit-deleted(#${this.index})`;
}

/** The command arbitraries for drafts built by `draft`. */
export function draftCommands(draft: fc.Arbitrary<DraftCase>): Array<fc.Arbitrary<DraftCommand>> {
  const index = fc.nat({ max: 50 });
  return [
    draft.map((d) => new CreateDraft(d)),
    fc.tuple(index, draft).map(([i, d]) => new EditDraft(i, d)),
    index.map((i) => new DeleteDraft(i)),
    fc.tuple(index, draft).map(([i, d]) => new EditGoneDraft(i, d)),
  ];
}
