/**
 * Saved snippets (`/saved_snippets`, level 297; editing from 368), as the real server keeps them:
 * per user, each change sending the user a `saved_snippets` event (`add`, `update`, `remove`).
 * Titles and contents arrive stripped and non-empty (the endpoint checks them).
 */
import { resourceNotFound } from '../../errors.js';
import type { SavedSnippet } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import { savedSnippetToApi } from '../../queries/personal/saved-snippets.js';
import type { World } from '../../state/world.js';

function ownSnippet(world: World, user: User, id: number): SavedSnippet {
  const snippet = world.savedSnippets.get(id);
  if (!snippet || snippet.userId !== user.id) throw resourceNotFound('Saved snippet does not exist.');
  return snippet;
}

export function createSavedSnippet(world: World, user: User, title: string, content: string): number {
  const snippet: SavedSnippet = { id: world.ids.next('savedSnippet'), userId: user.id, title, content, dateCreated: Math.floor(world.now() / 1000) };
  world.savedSnippets.set(snippet.id, snippet);
  world.events.send({ type: 'saved_snippets', op: 'add', saved_snippet: savedSnippetToApi(snippet) }, [user.id]);
  return snippet.id;
}

/** Changes the given parts; with neither, nothing happens (not even the lookup), as on the real server. */
export function editSavedSnippet(world: World, user: User, id: number, change: { title?: string; content?: string }): void {
  if (change.title === undefined && change.content === undefined) return;
  const snippet = ownSnippet(world, user, id);
  if (change.title !== undefined) snippet.title = change.title;
  if (change.content !== undefined) snippet.content = change.content;
  world.events.send({ type: 'saved_snippets', op: 'update', saved_snippet: savedSnippetToApi(snippet) }, [user.id]);
}

export function deleteSavedSnippet(world: World, user: User, id: number): void {
  ownSnippet(world, user, id);
  world.savedSnippets.delete(id);
  world.events.send({ type: 'saved_snippets', op: 'remove', saved_snippet_id: id }, [user.id]);
}
