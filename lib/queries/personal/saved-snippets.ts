/** Saved snippets as the API shows them (`GET /saved_snippets`, `saved_snippets` in `/register`). */
import type { SavedSnippet } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

export const savedSnippetToApi = (snippet: SavedSnippet): Record<string, unknown> => ({
  id: snippet.id,
  title: snippet.title,
  content: snippet.content,
  date_created: snippet.dateCreated,
});

/** The user's snippets, oldest first. */
export function savedSnippetsOf(world: World, user: User): Record<string, unknown>[] {
  return [...world.savedSnippets.values()].filter((s) => s.userId === user.id).map(savedSnippetToApi);
}
