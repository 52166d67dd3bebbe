/**
 * Server-side drafts (sections 2.2, 4.8, 6): create, edit, delete, and the wipe that follows
 * turning `enable_drafts_synchronization` off. Events go to the owner's own clients only.
 */
import { badRequest, resourceNotFound } from '../../errors.js';
import type { Draft } from '../../entities/personal.js';
import { boolSetting, type User } from '../../entities/user.js';
import { ownDraft, toApiDraft } from '../../queries/personal/drafts.js';
import type { World } from '../../state/world.js';
import { type DraftInput, type ValidDraft, validateDraft } from './draft-input.js';

/** The gate every drafts endpoint applies first, before reading any parameter. */
export function requireDraftsSynchronization(user: User): void {
  if (!boolSetting(user, 'enable_drafts_synchronization')) throw badRequest('User has disabled synchronizing drafts.');
}

function findOwnDraft(world: World, user: User, draftId: number): Draft {
  const draft = ownDraft(world, user, draftId);
  if (!draft) throw resourceNotFound('Draft does not exist');
  return draft;
}

/** Creates all drafts or none: every draft is validated before the first is stored. Returns their IDs in input order. */
export function createDrafts(world: World, user: User, inputs: readonly DraftInput[]): number[] {
  const valid: ValidDraft[] = inputs.map((input) => validateDraft(world, user, input));
  const created: Draft[] = valid.map((fields) => {
    const draft: Draft = { id: world.ids.next('draft'), userId: user.id, ...fields, to: [...fields.to] };
    world.drafts.set(draft.id, draft);
    return draft;
  });
  // Sent even for an empty list, as the real server does.
  world.events.send({ type: 'drafts', op: 'add', drafts: created.map(toApiDraft) }, [user.id]);
  return created.map((draft) => draft.id);
}

/**
 * Replaces every field of one of the user's drafts. The ownership check (404) comes before the
 * content checks; an edit without `timestamp` moves the draft to "now".
 */
export function editDraft(world: World, user: User, draftId: number, input: DraftInput): void {
  const draft = findOwnDraft(world, user, draftId);
  const fields = validateDraft(world, user, input);
  draft.type = fields.type;
  draft.to = [...fields.to];
  draft.topic = fields.topic;
  draft.content = fields.content;
  draft.lastEditTime = fields.lastEditTime;
  world.events.send({ type: 'drafts', op: 'update', draft: toApiDraft(draft) }, [user.id]);
}

export function deleteDraft(world: World, user: User, draftId: number): void {
  const draft = findOwnDraft(world, user, draftId);
  world.drafts.delete(draft.id);
  world.events.send({ type: 'drafts', op: 'remove', draft_id: draft.id }, [user.id]);
}

/**
 * Deletes every server draft of the user, sending no events. The settings code calls this when
 * `enable_drafts_synchronization` becomes false (the real server's `do_change_user_setting`).
 */
export function deleteAllDraftsOf(world: World, userId: number): void {
  for (const [id, draft] of world.drafts) if (draft.userId === userId) world.drafts.delete(id);
}
