/**
 * Saved snippets (`GET`/`POST /saved_snippets`, `DELETE /saved_snippets/{id}` from level 297,
 * `PATCH` from 368; the real server's saved_snippets views): a title of at most 60 characters
 * and content of at most the message limit, both stripped and not blank; only the owner sees,
 * edits or deletes a snippet (others get 404); each change sends the owner a `saved_snippets`
 * event. Every snippet a rule creates is deleted when it ends.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { fetchState } from '../support/channel-fixtures.js';
import { openStreamAs } from '../support/event-stream.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule, RuleContext } from '../types.js';

const SNIPPETS_LEVEL = 297;
const EDIT_LEVEL = 368;
const PATH = '/saved_snippets';
const SECTION = 'api/create-saved-snippet; api/get-saved-snippets; api/delete-saved-snippet';
/** `SavedSnippet.MAX_TITLE_LENGTH`. */
const MAX_TITLE_LENGTH = 60;

const snippetShape = v.object({ id: v.int(), title: v.string(), content: v.string(), date_created: v.int({ min: 0 }) }, { exact: true });
type Snippet = { id: number; title: string; content: string; date_created: number };

/** `POST /saved_snippets` as `who`; a created snippet is deleted when the rule ends. */
async function attemptSnippet(ctx: RuleContext, who: IdentityName, title: string, content: string): Promise<Reply> {
  const reply = await ctx.as(who).post(PATH, { title, content });
  const id = reply.body?.saved_snippet_id;
  if (reply.status === 200 && typeof id === 'number') {
    ctx.cleanup(`delete saved snippet ${id} of ${who}`, async (c) => {
      const gone = await c.as(who).delete(`${PATH}/${id}`);
      if (gone.status !== 200 && gone.status !== 404) throw new Error(`saved snippet ${id} left: HTTP ${gone.status} ${gone.text.slice(0, 200)}`);
    });
  }
  return reply;
}

async function createSnippet(ctx: RuleContext, who: IdentityName, title: string, content: string): Promise<number> {
  const reply = await attemptSnippet(ctx, who, title, content);
  return expectShape(expectSuccess(reply), v.object({ saved_snippet_id: v.int({ min: 1 }) }), 'body', reply).saved_snippet_id;
}

/** The caller's snippet with this ID in `GET /saved_snippets`, if listed. */
async function listed(client: ApiClient, id: number): Promise<Snippet | undefined> {
  const reply = await client.get(PATH);
  const snippets = expectShape(expectSuccess(reply), v.object({ saved_snippets: v.array(snippetShape) }), 'body', reply).saved_snippets;
  return snippets.find((snippet) => snippet.id === id);
}

/** Text of exactly `length` code points starting with `prefix` (accents, CJK, an astral emoji after it). */
const textOfLength = (prefix: string, length: number): string => {
  const chars = [...prefix];
  const filler = ['é', '中', '😀', 'q'];
  for (let i = 0; chars.length < length; i++) chars.push(filler[i % filler.length]!);
  return chars.slice(0, length).join('');
};

const lifecycle: Rule = {
  id: 'saved-snippets/create-list-delete',
  title: 'a created snippet is listed with its ID, stripped title and content and an integer date_created, an add event carries it, deleting it is an empty success with a remove event, and deleting again answers 404',
  endpoint: `POST ${PATH}`,
  section: `${SECTION}; api/get-events#saved_snippets-add`,
  levels: { min: SNIPPETS_LEVEL },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const stream = await openStreamAs(ctx, 'member', ['saved_snippets']);
    const title = ctx.name('snippet');
    const content = `${ctx.name('content')}\nsecond line`;
    const id = await createSnippet(ctx, 'member', `  ${title} `, `\n ${content}  \n`);
    const added = await stream.next((e) => e.type === 'saved_snippets' && e.op === 'add' && (e.saved_snippet as { id?: unknown } | undefined)?.id === id, 'saved_snippets add event');
    const snippet = expectShape(added.event.saved_snippet, snippetShape, 'saved_snippets add event saved_snippet');
    expectEqual([snippet.id, snippet.title, snippet.content], [id, title, content], 'the added snippet in the event');
    const shown = await listed(client, id);
    check(shown !== undefined, `GET ${PATH} does not list snippet ${id}`);
    expectEqual([shown.title, shown.content, shown.date_created], [title, content, snippet.date_created], 'the listed snippet');
    expectPlainSuccess(await client.delete(`${PATH}/${id}`));
    // Late events of earlier rules arrive before the add awaited above: the next removal is this one.
    const removed = await stream.next((e) => e.type === 'saved_snippets' && e.op === 'remove', 'saved_snippets remove event');
    expectEqual(removed.event.saved_snippet_id, id, 'saved_snippet_id of the remove event');
    check((await listed(client, id)) === undefined, `GET ${PATH} still lists the deleted snippet`);
    expectError(await client.delete(`${PATH}/${id}`), { status: 404, code: 'BAD_REQUEST' });
  },
};

const limits: Rule = {
  id: 'saved-snippets/title-and-content-limits',
  title: 'a title of 60 characters and content of max_message_length characters (after stripping) are accepted; a 61-character title, longer content and a blank title or content answer 400 BAD_REQUEST and create nothing',
  endpoint: `POST ${PATH}`,
  section: SECTION,
  levels: { min: SNIPPETS_LEVEL },
  writes: true,
  needs: ['moderator'],
  async run(ctx) {
    const client = ctx.as('moderator');
    const realm = await fetchState(client, ['realm']);
    const maxContent = typeof realm.max_message_length === 'number' ? realm.max_message_length : 10_000;
    const title = textOfLength(ctx.name('t'), MAX_TITLE_LENGTH);
    const content = textOfLength(ctx.name('c'), maxContent);
    const id = await createSnippet(ctx, 'moderator', ` ${title} `, content);
    expectEqual((await listed(client, id))?.title, title, 'the 60-character title, stripped');
    const refused: ReadonlyArray<readonly [string, string, string]> = [
      ['a 61-character title', textOfLength(ctx.name('t'), MAX_TITLE_LENGTH + 1), 'x'],
      ['content over max_message_length', ctx.name('t'), textOfLength(ctx.name('c'), maxContent + 1)],
      ['a blank title', '   ', 'x'],
      ['blank content', ctx.name('t'), ' \n '],
    ];
    for (const [what, badTitle, badContent] of refused) {
      const reply = await attemptSnippet(ctx, 'moderator', badTitle, badContent);
      check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${what} should answer 400 BAD_REQUEST; got HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
    }
  },
};

const edit: Rule = {
  id: 'saved-snippets/edit',
  title: 'PATCH changes the title, the content or both (stripped; read back and sent as an update event); with neither it succeeds without looking the snippet up; an unknown snippet answers 404 and a 61-character title 400 (level 368)',
  endpoint: `PATCH ${PATH}/{saved_snippet_id}`,
  section: 'api/edit-saved-snippet; changelog 368',
  levels: { min: EDIT_LEVEL },
  writes: true,
  needs: ['second-member'],
  async run(ctx) {
    const client = ctx.as('second-member');
    const id = await createSnippet(ctx, 'second-member', ctx.name('before'), 'before');
    const stream = await openStreamAs(ctx, 'second-member', ['saved_snippets']);
    const after = ctx.name('after');
    const both = ctx.name('both');
    const steps: ReadonlyArray<readonly [Record<string, string>, string, string]> = [
      [{ title: ` ${after} ` }, after, 'before'],
      [{ content: ' new content ' }, after, 'new content'],
      [{ title: both, content: 'both\nchanged' }, both, 'both\nchanged'],
    ];
    for (const [params, title, content] of steps) {
      expectPlainSuccess(await client.patch(`${PATH}/${id}`, params));
      const { event } = await stream.next((e) => e.type === 'saved_snippets' && e.op === 'update' && (e.saved_snippet as { id?: unknown } | undefined)?.id === id, 'saved_snippets update event');
      const updated = expectShape(event.saved_snippet, snippetShape, 'saved_snippets update event saved_snippet');
      expectEqual([updated.id, updated.title, updated.content], [id, title, content], 'the updated snippet in the event');
      const shown = await listed(client, id);
      expectEqual([shown?.title, shown?.content], [title, content], 'the snippet read back');
    }
    expectPlainSuccess(await client.patch(`${PATH}/2147483000`));
    expectError(await client.patch(`${PATH}/2147483000`, { title: 'x' }), { status: 404, code: 'BAD_REQUEST' });
    expectError(await client.patch(`${PATH}/${id}`, { title: textOfLength(ctx.name('t'), MAX_TITLE_LENGTH + 1) }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual((await listed(client, id))?.title, both, 'the title after the refused edit');
  },
};

const othersSnippets: Rule = {
  id: 'saved-snippets/private-to-owner',
  title: "another member does not see a snippet in GET /saved_snippets, and deleting (or, from level 368, editing) it answers 404; the owner's snippet is unchanged",
  endpoint: `DELETE ${PATH}/{saved_snippet_id}`,
  section: SECTION,
  levels: { min: SNIPPETS_LEVEL },
  writes: true,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const title = ctx.name('private');
    const id = await createSnippet(ctx, 'member', title, 'private');
    const other = ctx.as('second-member');
    check((await listed(other, id)) === undefined, "another member's GET /saved_snippets lists the member's snippet");
    expectError(await other.delete(`${PATH}/${id}`), { status: 404, code: 'BAD_REQUEST' });
    if (ctx.featureLevel >= EDIT_LEVEL) expectError(await other.patch(`${PATH}/${id}`, { title: 'stolen' }), { status: 404, code: 'BAD_REQUEST' });
    const mine = await listed(ctx.as('member'), id);
    if (mine?.title !== title || mine.content !== 'private') fail(`the owner's snippet changed: ${JSON.stringify(mine)}`);
  },
};

const registerState: Rule = {
  id: 'saved-snippets/register-state',
  title: 'POST /register saved_snippets lists the user\'s snippets as GET /saved_snippets does',
  endpoint: `GET ${PATH}`,
  section: `${SECTION}; api/register-queue`,
  levels: { min: SNIPPETS_LEVEL },
  writes: true,
  needs: ['moderator'],
  async run(ctx) {
    const id = await createSnippet(ctx, 'moderator', ctx.name('state'), 'state');
    const state = await fetchState(ctx.as('moderator'), ['saved_snippets']);
    const snippets = expectShape(state, v.object({ saved_snippets: v.array(snippetShape) }), 'register saved_snippets').saved_snippets;
    const entry = snippets.find((snippet: JsonObject) => snippet.id === id);
    expectEqual(entry, await listed(ctx.as('moderator'), id), 'the snippet in register and in GET /saved_snippets');
  },
};

const absentBefore: Rule = {
  id: 'saved-snippets/absent-before-297',
  title: 'before level 297 the saved-snippet endpoints do not exist (404)',
  endpoint: `GET ${PATH}`,
  section: 'changelog 297',
  levels: { max: SNIPPETS_LEVEL - 1 },
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    for (const reply of [await client.get(PATH), await client.delete(`${PATH}/1`)]) if (reply.status !== 404) fail('expected HTTP 404 before level 297', reply);
  },
};

const noCredentials = credentialsRequired({
  id: 'saved-snippets/requires-credentials',
  endpoint: `GET ${PATH}`,
  section: SECTION,
  levels: { min: SNIPPETS_LEVEL },
  requests: [['GET', PATH], ['POST', PATH, { title: 'x', content: 'x' }], ['DELETE', `${PATH}/1`]],
});

export const rules: readonly Rule[] = [lifecycle, limits, edit, othersSnippets, registerState, absentBefore, noCredentials];
