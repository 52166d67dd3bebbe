/**
 * Code playgrounds (level 49): `POST /realm/playgrounds` and `DELETE /realm/playgrounds/{id}`,
 * for administrators; read through `POST /register` (`realm_playgrounds`) and the
 * `realm_playgrounds` event, which carries the whole list. The template is `url_template` (an
 * RFC 6570 template whose one variable is `code`) from level 196, `url_prefix` (a URL) before.
 * Realm-wide: every playground of the run is deleted when its rule ends.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { filledTo } from '../channels/subscribe-support.js';
import { awaitEvent, expectPrivilegeRefused } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import { registerState } from '../support/state-fetch.js';
import type { Rule, RuleContext } from '../types.js';

const ADD = 'POST /realm/playgrounds';
const SECTION = 'api/add-code-playground';
const PLAYGROUNDS_LEVEL = 49;
const URL_TEMPLATE_LEVEL = 196;
/** The real server's `RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH`. */
const LANGUAGE_MAX = 40;

interface Playground {
  readonly id: number;
  readonly name: string;
  readonly pygments_language: string;
  readonly template: string;
}

const templateKey = (level: number): string => (level >= URL_TEMPLATE_LEVEL ? 'url_template' : 'url_prefix');
const templateFor = (level: number, tag: string): string => (level >= URL_TEMPLATE_LEVEL ? `https://example.com/${tag}/run?code={code}` : `https://example.com/${tag}/run?code=`);

function asPlayground(entry: JsonObject, level: number): Playground {
  const shape = v.object({ id: v.int({ min: 1 }), name: v.string(), pygments_language: v.string(), [templateKey(level)]: v.string() });
  const checked = expectShape(entry, shape, 'a playground') as JsonObject;
  return { id: checked.id as number, name: checked.name as string, pygments_language: checked.pygments_language as string, template: checked[templateKey(level)] as string };
}

/** The realm's playgrounds as `POST /register` gives them to `client`. */
export async function listPlaygrounds(client: ApiClient, level: number): Promise<Playground[]> {
  const { body, reply } = await registerState(client, ['realm_playgrounds']);
  const list = expectShape(body, v.object({ realm_playgrounds: v.array(v.object({})) }), 'register', reply).realm_playgrounds;
  return list.map((entry) => asPlayground(entry as JsonObject, level));
}

const params = (level: number, name: string, language: string, template: string) => [['name', name], ['pygments_language', language], [templateKey(level), template]] as const;

async function removeRunPlaygrounds(c: CleanupContext, runTag: string, level: number): Promise<void> {
  const admin = c.as('admin');
  // The list is public: the member reads it, sparing the administrator's request budget.
  for (const playground of (await listPlaygrounds(c.as('member'), level)).filter((entry) => entry.name.includes(runTag))) {
    const reply = await admin.delete(`/realm/playgrounds/${playground.id}`);
    if (reply.status !== 200) throw new Error(`deleting playground ${playground.id} (${playground.name}) answered HTTP ${reply.status}; it stays in the realm`);
  }
}

/** A realm-wide rule on playgrounds as the administrator; the run's playgrounds are deleted afterwards. */
function playgroundRule(header: RuleHeader, body: (ctx: RuleContext, admin: ApiClient) => Promise<void>): Rule {
  const prepare = async (ctx: RuleContext): Promise<ApiClient> => {
    ctx.cleanup('delete the run\'s code playgrounds', (c) => removeRunPlaygrounds(c, ctx.runTag, ctx.featureLevel));
    return ctx.as('admin');
  };
  return fixtureRule(header, { endpoint: ADD, levels: { min: PLAYGROUNDS_LEVEL }, writes: true, realmWide: true, needs: ['admin', 'member'] }, prepare, body);
}

async function addPlayground(ctx: RuleContext, admin: ApiClient, name: string, language: string, template: string): Promise<number> {
  const reply = await admin.post('/realm/playgrounds', params(ctx.featureLevel, name, language, template));
  return expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }) }), 'body', reply).id;
}

/** The `realm_playgrounds` event whose list `shows` the change must list what register lists. */
async function expectListEvent(ctx: RuleContext, queue: Parameters<typeof awaitEvent>[0], reader: ApiClient, change: string, shows: (list: Playground[]) => boolean): Promise<void> {
  const toList = (event: JsonObject): Playground[] => (event.realm_playgrounds as JsonObject[]).map((entry) => asPlayground(entry, ctx.featureLevel));
  const event = await awaitEvent(queue, (candidate) => candidate.type === 'realm_playgrounds' && Array.isArray(candidate.realm_playgrounds) && shows(toList(candidate)), change);
  const byId = (list: Playground[]) => [...list].sort((a, b) => a.id - b.id);
  expectEqual(byId(toList(event)), byId(await listPlaygrounds(reader, ctx.featureLevel)), `realm_playgrounds of the event after ${change} (the list register gives)`);
}

const lifecycle = playgroundRule({
  id: 'playgrounds/add-remove-with-events',
  title: 'an added playground (name and language stripped) is in register\'s realm_playgrounds and in a realm_playgrounds event with the whole list; deleting it removes it with another event; deleting it again or an unknown ID answers 400 BAD_REQUEST',
  endpoint: `${ADD}, DELETE /realm/playgrounds/{playground_id}`,
  section: `${SECTION}; api/remove-code-playground; api/get-events`,
}, async (ctx, admin) => {
  const queue = await openStreamAs(ctx, 'member', ['realm_playgrounds']);
  const name = ctx.name('playground');
  const template = templateFor(ctx.featureLevel, ctx.runTag);
  const id = await addPlayground(ctx, admin, `  ${name}  `, '  Python  ', template);
  const listed = (await listPlaygrounds(ctx.as('member'), ctx.featureLevel)).find((entry) => entry.id === id);
  expectEqual(listed, { id, name, pygments_language: 'Python', template }, 'the new playground in the member\'s register state');
  const member = ctx.as('member');
  await expectListEvent(ctx, queue, member, 'the addition', (list) => list.some((entry) => entry.id === id));
  expectSuccess(await admin.delete(`/realm/playgrounds/${id}`));
  check(!(await listPlaygrounds(member, ctx.featureLevel)).some((entry) => entry.id === id), `playground ${id} is still listed after its deletion`);
  await expectListEvent(ctx, queue, member, 'the deletion', (list) => !list.some((entry) => entry.id === id));
  expectError(await admin.delete(`/realm/playgrounds/${id}`), { status: 400, code: 'BAD_REQUEST' });
  expectError(await admin.delete(`/realm/playgrounds/${id + 1_000_000}`), { status: 400, code: 'BAD_REQUEST' });
});

const validation = playgroundRule({
  id: 'playgrounds/validation-refused',
  title: `a language of ${LANGUAGE_MAX} characters from the allowed set is accepted; a longer one, other characters, blank names or languages, a template without the one variable code (a URL before level 196) and a taken name and language pair are refused (400 BAD_REQUEST) and add nothing`,
  section: SECTION,
}, async (ctx, admin) => {
  const level = ctx.featureLevel;
  const good = templateFor(level, ctx.runTag);
  const name = ctx.name('playground');
  const language = filledTo('C++ c# x.y/z-w_', LANGUAGE_MAX, ['a', 'B', '1']);
  const id = await addPlayground(ctx, admin, name, language, good);
  const refusals: Array<[string, string, string, string]> = [
    [`a language of ${LANGUAGE_MAX + 1} characters`, ctx.name('playground'), filledTo('L', LANGUAGE_MAX + 1, ['a']), good],
    ['a language with !', ctx.name('playground'), 'Python!', good],
    ['a language with a non-ASCII letter', ctx.name('playground'), 'Pythön', good],
    ['a language with $', ctx.name('playground'), 'Py$thon', good],
    ['a blank name', '   ', 'Python', good],
    ['a blank language', ctx.name('playground'), '   ', good],
    ['the name and language of an existing playground', name, language, good],
  ];
  if (level >= URL_TEMPLATE_LEVEL) {
    refusals.push(
      ['a template without code', ctx.name('playground'), 'Python', `https://example.com/${ctx.runTag}/run?src={source}`],
      ['a template with code and another variable', ctx.name('playground'), 'Python', `https://example.com/${ctx.runTag}/{lang}?code={code}`],
      ['an invalid template', ctx.name('playground'), 'Python', `https://example.com/${ctx.runTag}/run?code={code`],
      ['a blank template', ctx.name('playground'), 'Python', '  '],
    );
  } else refusals.push(['a prefix that is not a URL', ctx.name('playground'), 'Python', 'not a url']);
  for (const [what, refusedName, refusedLanguage, template] of refusals) {
    const reply = await admin.post('/realm/playgrounds', params(level, refusedName, refusedLanguage, template));
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${what} should be refused with 400 BAD_REQUEST; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  }
  const ours = (await listPlaygrounds(ctx.as('member'), level)).filter((entry) => entry.name.includes(ctx.runTag) || entry.template.includes(ctx.runTag));
  expectEqual(ours.map((entry) => entry.id), [id], 'the run\'s playgrounds after the refusals');
});

const administratorsOnly = playgroundRule({
  id: 'playgrounds/administrators-only',
  title: 'moderators, members and guests may neither add nor delete playgrounds (400) and change nothing',
  endpoint: `${ADD}, DELETE /realm/playgrounds/{playground_id}`,
  section: `${SECTION}; api/remove-code-playground`,
  needs: ['moderator', 'member', 'guest'],
}, async (ctx, admin) => {
  const id = await addPlayground(ctx, admin, ctx.name('playground'), 'Python', templateFor(ctx.featureLevel, ctx.runTag));
  for (const who of ['moderator', 'member', 'guest'] as const) {
    const client = ctx.as(who);
    expectPrivilegeRefused(await client.post('/realm/playgrounds', params(ctx.featureLevel, ctx.name(`playground-${who}`), 'Python', templateFor(ctx.featureLevel, ctx.runTag))), `the ${who} adding a playground`);
    expectPrivilegeRefused(await client.delete(`/realm/playgrounds/${id}`), `the ${who} deleting a playground`);
  }
  const ours = (await listPlaygrounds(ctx.as('member'), ctx.featureLevel)).filter((entry) => entry.name.includes(ctx.runTag));
  expectEqual(ours.map((entry) => entry.id), [id], 'the run\'s playgrounds after the refused requests');
});

export const rules: readonly Rule[] = [lifecycle, validation, administratorsOnly];
