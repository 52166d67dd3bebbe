/** Drafts: `GET/POST /drafts`, `PATCH/DELETE /drafts/{draft_id}` (sections 2.2, 4.8). */
import { createDrafts, deleteDraft, editDraft, requireDraftsSynchronization } from '../../lib/actions/drafts.js';
import { draftInput } from '../../lib/actions/draft-input.js';
import type { Feature } from '../../lib/features.js';
import { listDrafts } from '../../lib/queries/drafts.js';
import { list } from '../../lib/schema.js';
import { authed, type AuthedContext, type RouteDef } from '../endpoint.js';
import { json } from '../params.js';

/** The drafts endpoints and `enable_drafts_synchronization` appeared at level 87 (Zulip 5.0). */
const DRAFTS_ENDPOINTS: Feature = { level: 87, what: 'drafts endpoints' };

/** The sync-disabled refusal comes before any parameter is read (`test_require_enable_drafts_synchronization`). */
const gate = ({ user }: AuthedContext): void => requireDraftsSynchronization(user);

const draftId = (path: ReadonlyMap<string, string>): number => Number(path.get('draft_id'));

const getDrafts = authed({
  since: DRAFTS_ENDPOINTS,
  gate,
  params: {},
  run({ world, user }) {
    const drafts = listDrafts(world, user);
    return { count: drafts.length, drafts };
  },
});

const postDrafts = authed({
  since: DRAFTS_ENDPOINTS,
  gate,
  params: { drafts: json(list(draftInput)).required() },
  run({ world, user }, args) {
    return { ids: createDrafts(world, user, args.drafts) };
  },
});

const patchDraft = authed({
  since: DRAFTS_ENDPOINTS,
  gate,
  params: { draft: json(draftInput).required() },
  run({ world, user, path }, args) {
    editDraft(world, user, draftId(path), args.draft);
    return {};
  },
});

const removeDraft = authed({
  since: DRAFTS_ENDPOINTS,
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
