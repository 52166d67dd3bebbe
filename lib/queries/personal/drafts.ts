/** Reading drafts and their API shape (section 2.2; behaviour reference §2.3). */
import type { Draft } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

/** The API form of a draft: `{id, type, to, topic, content, timestamp}` (timestamp in whole seconds). */
export interface ApiDraft {
  readonly id: number;
  readonly type: Draft['type'];
  readonly to: number[];
  readonly topic: string;
  readonly content: string;
  readonly timestamp: number;
}

/** Drafts the register response carries at most (`MAX_DRAFTS_IN_REGISTER_RESPONSE`). */
export const MAX_DRAFTS_IN_REGISTER = 1000;

export function toApiDraft(draft: Draft): ApiDraft {
  return {
    id: draft.id,
    type: draft.type,
    to: [...draft.to],
    topic: draft.topic,
    content: draft.content,
    // The real server reports int(last_edit_time.timestamp()): truncated, never rounded up.
    timestamp: Math.trunc(draft.lastEditTime),
  };
}

/** The user's drafts, oldest edit first (ties by ID, i.e. creation order). */
export function draftsOf(world: World, userId: number): Draft[] {
  const own: Draft[] = [];
  for (const draft of world.drafts.values()) if (draft.userId === userId) own.push(draft);
  return own.sort((a, b) => a.lastEditTime - b.lastEditTime || a.id - b.id);
}

/**
 * `GET /drafts`: every draft of the user, oldest edit first. The real server sorts this way
 * (`test_fetch_drafts`); the OpenAPI text claims most recent first, which is not what it does.
 */
export function listDrafts(world: World, user: User): ApiDraft[] {
  return draftsOf(world, user.id).map(toApiDraft);
}

/**
 * Register's `drafts`: the most recently edited 1000, newest first (the real server orders
 * this query by `-last_edit_time`, unlike `GET /drafts`).
 */
export function draftsState(world: World, user: User): ApiDraft[] {
  return draftsOf(world, user.id).reverse().slice(0, MAX_DRAFTS_IN_REGISTER).map(toApiDraft);
}

/** The user's own draft with this ID, or undefined (another user's draft counts as missing). */
export function ownDraft(world: World, user: User, draftId: number): Draft | undefined {
  const draft = world.drafts.get(draftId);
  return draft && draft.userId === user.id ? draft : undefined;
}
