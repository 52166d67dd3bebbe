/** Drafts: `GET/POST /drafts`, `PATCH/DELETE /drafts/{draft_id}` (sections 2.2, 4.8). */
import { createDrafts, deleteDraft, editDraft, requireDraftsSynchronization } from '../../../lib/actions/personal/drafts.js';
import { draftInput } from '../../../lib/actions/personal/draft-input.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { listDrafts } from '../../../lib/queries/personal/drafts.js';
import { list } from '../../../lib/input/schema.js';
import { authed, type AuthedContext, type RouteDef } from '../../app/endpoint.js';
import { json } from '../../app/params.js';

/** The sync-disabled refusal comes before any parameter is read (`test_require_enable_drafts_synchronization`). */
const gate = ({ user }: AuthedContext): void => requireDraftsSynchronization(user);

const draftId = (path: ReadonlyMap<string, string>): number => Number(path.get('draft_id'));

const getDrafts = authed({
  since: FEATURES.DRAFTS,
  gate,
  params: {},
  run({ world, user }) {
    const drafts = listDrafts(world, user);
    return { count: drafts.length, drafts };
  },
});

const postDrafts = authed({
  since: FEATURES.DRAFTS,
  gate,
  params: { drafts: json(list(draftInput)).required() },
  run({ world, user }, args) {
    return { ids: createDrafts(world, user, args.drafts) };
  },
});

const patchDraft = authed({
  since: FEATURES.DRAFTS,
  gate,
  params: { draft: json(draftInput).required() },
  run({ world, user, path }, args) {
    editDraft(world, user, draftId(path), args.draft);
    return {};
  },
});

const removeDraft = authed({
  since: FEATURES.DRAFTS,
  gate,
  params: {},
  run({ world, user, path }) {
    deleteDraft(world, user, draftId(path));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/drafts', methods: { GET: getDrafts, POST: postDrafts } },
  { path: '/drafts/{draft_id:int}', methods: { PATCH: patchDraft, DELETE: removeDraft } },
];
