/** Saved snippets: `GET`/`POST /saved_snippets` and `DELETE /saved_snippets/{id}` (297), `PATCH` (368). */
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet } from '../../../lib/actions/personal/saved-snippets.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { savedSnippetsOf } from '../../../lib/queries/personal/saved-snippets.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';

/** `SavedSnippet.MAX_TITLE_LENGTH`, and the longest message for the content. */
const MAX_TITLE_LENGTH = 60;
const MAX_CONTENT_LENGTH = 10_000;
const title = () => str({ strip: true, nonBlank: true, maxLength: MAX_TITLE_LENGTH });
const content = () => str({ strip: true, nonBlank: true, maxLength: MAX_CONTENT_LENGTH });
const snippetId = (path: ReadonlyMap<string, string>): number => Number(path.get('saved_snippet_id'));

const listSnippets = authed({
  since: FEATURES.SAVED_SNIPPETS,
  params: {},
  run({ world, user }) {
    return { saved_snippets: savedSnippetsOf(world, user) };
  },
});

const createSnippet = authed({
  since: FEATURES.SAVED_SNIPPETS,
  params: { content: content().required(), title: title().required() },
  run({ world, user }, args) {
    return { saved_snippet_id: createSavedSnippet(world, user, args.title, args.content) };
  },
});

const editSnippet = authed({
  since: FEATURES.EDIT_SAVED_SNIPPET,
  params: { content: content(), title: title() },
  run({ world, user, path }, args) {
    editSavedSnippet(world, user, snippetId(path), {
      ...(args.title === undefined ? {} : { title: args.title }),
      ...(args.content === undefined ? {} : { content: args.content }),
    });
    return {};
  },
});

const removeSnippet = authed({
  since: FEATURES.SAVED_SNIPPETS,
  params: {},
  run({ world, user, path }) {
    deleteSavedSnippet(world, user, snippetId(path));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/saved_snippets', methods: { GET: listSnippets, POST: createSnippet } },
  { path: '/saved_snippets/{saved_snippet_id:int}', methods: { PATCH: editSnippet, DELETE: removeSnippet } },
];
