import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { bad, errorOf, type Params, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const PYTHON = { name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' };

const listed = async (s: TestServer) => (await s.as('hamlet@zulip.com').post('/register', { fetch_event_types: ['realm_playgrounds'] })).body.realm_playgrounds;

t.test('an administrator adds playgrounds (values stripped) and removes them; register lists them by ID', async (t) => {
  const s = testServer();
  const reply = await s.as(IAGO).post('/realm/playgrounds', { ...PYTHON, name: ' Python playground ' });
  t.same(reply.body, { result: 'success', msg: '', id: 1 });
  t.equal((await s.as(IAGO).post('/realm/playgrounds', { ...PYTHON, name: 'Second' })).status, 200, 'several per language');
  t.same(await listed(s), [
    { id: 1, name: 'Python playground', pygments_language: 'Python', url_template: PYTHON.url_template },
    { id: 2, name: 'Second', pygments_language: 'Python', url_template: PYTHON.url_template },
  ]);
  t.equal((await s.as(IAGO).delete('/realm/playgrounds/1')).status, 200);
  t.same(errorOf(await s.as(IAGO).delete('/realm/playgrounds/1')), bad('Invalid playground'));
  t.same((await listed(s)).map((p: { id: number }) => p.id), [2]);
});

t.test('the language character set is the real pattern read as Python reads it: `+-.` is a range, so a comma passes', async (t) => {
  // zerver/views/realm_playgrounds.py `check_pygments_language`: r"^[ a-zA-Z0-9_+-./#]*$".
  const s = testServer();
  for (const language of ['a,b', 'C++', 'objective-c', 'c#', 'x.y/z', 'with space']) {
    t.equal((await s.as(IAGO).post('/realm/playgrounds', { ...PYTHON, name: language, pygments_language: language })).status, 200, language);
  }
  t.same(errorOf(await s.as(IAGO).post('/realm/playgrounds', { ...PYTHON, pygments_language: 'a*b' })), bad('Invalid characters in pygments language'));
});

t.test("the language pattern's `$` matches before one final newline, as Python's does; the stored language is stripped", async (t) => {
  const s = testServer();
  t.equal((await s.as(IAGO).post('/realm/playgrounds', { ...PYTHON, pygments_language: 'Rust\n' })).status, 200);
  t.same((await listed(s)).map((p: { pygments_language: string }) => p.pygments_language), ['Rust']);
  for (const language of ['Rust\n\n', 'Ru\nst']) {
    t.same(errorOf(await s.as(IAGO).post('/realm/playgrounds', { ...PYTHON, pygments_language: language })), bad('Invalid characters in pygments language'), JSON.stringify(language));
  }
});

const errors: Array<[string, Params, string, Record<string, string[]>?]> = [
  ['bad characters in the language', { ...PYTHON, pygments_language: 'a$b$c' }, 'Invalid characters in pygments language'],
  ['a language over 40 characters', { ...PYTHON, pygments_language: 'p'.repeat(41) }, 'pygments_language is too long (limit: 40 characters)'],
  ['another variable', { ...PYTHON, url_template: 'https://template.com{?test,code}' }, '"code" should be the only variable present in the URL template', { __all__: ['"code" should be the only variable present in the URL template'] }],
  ['an invalid template', { ...PYTHON, url_template: 'https://template.com?test={test' }, 'Invalid URL template.', { url_template: ['Invalid URL template.'] }],
  ['no code variable', { ...PYTHON, url_template: 'https://template.com{?test}' }, 'Missing the required variable "code" in the URL template'],
  ['a blank name', { ...PYTHON, name: '  ' }, 'This field cannot be blank.', { name: ['This field cannot be blank.'] }],
];

for (const [what, params, msg, fieldErrors] of errors) {
  t.test(`POST /realm/playgrounds refuses ${what}`, async (t) => {
    const s = testServer();
    const reply = await s.as(IAGO).post('/realm/playgrounds', params);
    t.same(errorOf(reply), bad(msg));
    if (fieldErrors) t.same(reply.body.errors, fieldErrors);
    t.equal(s.world.realmPlaygrounds.size, 0);
  });
}

t.test('a missing template is REQUEST_VARIABLE_MISSING', async (t) => {
  const s = testServer();
  const reply = await s.as(IAGO).post('/realm/playgrounds', { name: 'x', pygments_language: 'Python' });
  t.same(errorOf(reply), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'url_template' argument" });
});

t.test('a second playground with the same name and language is refused', async (t) => {
  const s = testServer();
  await s.as(IAGO).post('/realm/playgrounds', PYTHON);
  const reply = await s.as(IAGO).post('/realm/playgrounds', PYTHON);
  t.same(errorOf(reply), bad('Realm playground with this Realm, Pygments language and Name already exists.'));
  t.same(reply.body.errors, { __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'] });
});

t.test('only administrators manage playgrounds', async (t) => {
  const s = testServer();
  for (const email of ['shiva@zulip.com', 'hamlet@zulip.com', 'polonius@zulip.com']) {
    t.same(errorOf(await s.as(email).post('/realm/playgrounds', PYTHON)), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    t.same(errorOf(await s.as(email).delete('/realm/playgrounds/1')), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  }
  t.equal((await s.as('desdemona@zulip.com').post('/realm/playgrounds', PYTHON)).status, 200);
});

t.test('levels: no playgrounds before 49; url_prefix (a URL) before 196', async (t) => {
  const none = testServer({ featureLevel: 48 });
  t.equal((await none.as(IAGO).post('/realm/playgrounds', PYTHON)).status, 404);
  t.notOk('realm_playgrounds' in (await none.as(IAGO).post('/register', {})).body);
  const old = testServer({ featureLevel: 195 });
  const prefix = { name: 'P', pygments_language: 'Python', url_prefix: 'https://python.example.com' };
  t.same(errorOf(await old.as(IAGO).post('/realm/playgrounds', { ...prefix, url_prefix: 'https://invalid-url' })), bad('url_prefix is not a URL'));
  t.equal((await old.as(IAGO).post('/realm/playgrounds', prefix)).status, 200);
  t.same(await listed(old), [{ id: 1, name: 'P', pygments_language: 'Python', url_prefix: 'https://python.example.com' }]);
  t.same(errorOf(await old.as(IAGO).post('/realm/playgrounds', PYTHON)), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'url_prefix' argument" });
});

for (const [name, action] of [
  ['add', (s: TestServer) => s.as(IAGO).post('/realm/playgrounds', PYTHON)],
  ['remove', async (s: TestServer) => s.as(IAGO).delete(`/realm/playgrounds/${[...s.world.realmPlaygrounds.keys()][0]}`)],
] as const) {
  t.test(`playground ${name}: every active account gets the complete list, and a client converges`, async (t) => {
    const s = testServer();
    if (name === 'remove') await s.as(IAGO).post('/realm/playgrounds', { ...PYTHON, name: 'Old' });
    const everyone = listenAll(s);
    const events = await checkEventsConverge(t, s.as('hamlet@zulip.com'), { fetchEventTypes: ['realm_playgrounds'], action: () => action(s) });
    checkEventShapes(t, events);
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [{ type: 'realm_playgrounds', realm_playgrounds: await listed(s) }],
    );
    checkRecipients(t, everyone.received(), isEvent('realm_playgrounds'), activeIds(s), `realm_playgrounds after ${name}`);
  });
}
