import t from 'tap';
import { bad, errorOf, type Params, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';
const SELECT = 3;
const choices = (entries: Record<string, { text: string; order: string }>) => entries;

const fields = async (s: TestServer): Promise<Array<Record<string, unknown>>> => (await s.as(HAMLET).get('/realm/profile_fields')).body.custom_fields;
const fieldNamed = async (s: TestServer, name: string) => (await fields(s)).find((f) => f.name === name);

t.test('GET /realm/profile_fields lists the fields in order with field_data, required, editable_by_user and the summary flag', async (t) => {
  const s = testServer();
  const reply = await s.as('polonius@zulip.com').get('/realm/profile_fields');
  t.equal(reply.status, 200);
  const list = reply.body.custom_fields as Array<Record<string, unknown>>;
  t.same(
    list.map((f) => f.id),
    [1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  t.same(list[3], {
    id: 4,
    name: 'Favorite editor',
    type: 3,
    hint: '',
    field_data: '{"emacs":{"text":"Emacs","order":"2"},"vim":{"text":"Vim","order":"1"}}',
    order: 3,
    required: false,
    editable_by_user: true,
    display_in_profile_summary: true,
  });
  t.notOk('display_in_profile_summary' in (list[0] as object), 'the summary flag is left out when false');
});

t.test('the field object carries each key only from its level', async (t) => {
  const cases: Array<[number, string[]]> = [
    [145, ['id', 'name', 'type', 'hint', 'field_data', 'order']],
    [243, ['id', 'name', 'type', 'hint', 'field_data', 'order', 'display_in_profile_summary']],
    [295, ['id', 'name', 'type', 'hint', 'field_data', 'order', 'required', 'display_in_profile_summary']],
    [296, ['id', 'name', 'type', 'hint', 'field_data', 'order', 'required', 'editable_by_user', 'display_in_profile_summary']],
  ];
  for (const [level, keys] of cases) {
    const s = testServer({ featureLevel: level });
    t.same(Object.keys((await fields(s))[2] as object), keys, `level ${level}`);
  }
});

t.test('POST /realm/profile_fields creates a field last (order = id) with every option and announces it', async (t) => {
  const s = testServer();
  const reply = await s.as(IAGO).post('/realm/profile_fields', {
    name: '  Team  ',
    hint: 'Your team',
    field_type: SELECT,
    field_data: choices({ a: { text: 'Alpha', order: '1' }, b: { text: 'Beta', order: '2' } }),
    required: true,
    editable_by_user: false,
  });
  t.equal(reply.status, 200);
  t.same(reply.body, { result: 'success', msg: '', id: 10 });
  t.same(await fieldNamed(s, 'Team'), {
    id: 10,
    name: 'Team',
    type: 3,
    hint: 'Your team',
    field_data: '{"a":{"text":"Alpha","order":"1"},"b":{"text":"Beta","order":"2"}}',
    order: 10,
    required: true,
    editable_by_user: false,
  });
});

t.test('a default external account takes its name and hint from the provider, and field_data keeps only the subtype', async (t) => {
  const s = testServer();
  const reply = await s.as(IAGO).post('/realm/profile_fields', { field_type: 7, field_data: { subtype: 'twitter' }, name: 'ignored', hint: 'ignored' });
  t.equal(reply.status, 200);
  t.match(await fieldNamed(s, 'Twitter username'), { hint: '', type: 7, field_data: '{"subtype":"twitter"}' });
  const again = await s.as(IAGO).post('/realm/profile_fields', { field_type: 7, field_data: { subtype: 'github' } });
  t.same(errorOf(again), bad('A field with that label already exists.'), 'the development realm already has GitHub username');
  const custom = { subtype: 'custom', url_pattern: 'https://www.reddit.com/user/%(username)s' };
  t.equal((await s.as(IAGO).post('/realm/profile_fields', { name: 'Reddit', field_type: 7, field_data: custom })).status, 200);
  t.equal((await fieldNamed(s, 'Reddit'))?.field_data, JSON.stringify(custom));
});

/** [what, parameters, message, setup]; the development realm already shows two fields in the summary. */
const createErrors: Array<[string, Params, string, ((s: TestServer) => Promise<unknown>)?]> = [
  ['a blank label', { name: '  ', field_type: 1 }, 'Label cannot be blank.'],
  ['a label over 40 characters (before the type is checked)', { name: 'x'.repeat(41), field_type: 100 }, 'name is too long (limit: 40 characters)'],
  ['a hint over 80 characters', { name: 'Phone 2', hint: 'h'.repeat(81), field_type: 1 }, 'hint is too long (limit: 80 characters)'],
  ['an unknown type', { name: 'Phone 2', field_type: 100 }, 'Invalid field type.'],
  [
    'long text in the summary',
    { name: 'Bio 2', field_type: 2, display_in_profile_summary: true },
    'Field type not supported for display in profile summary.',
    (s) => s.as(IAGO).patch('/realm/profile_fields/3', { display_in_profile_summary: false }),
  ],
  ['a duplicate label', { name: 'Biography', field_type: 1 }, 'A field with that label already exists.'],
  ['field_data that is not a dict', { name: 'L', field_type: SELECT, field_data: [] }, 'field_data is not a dict'],
  ['a choice that is not a dict of strings', { name: 'L', field_type: SELECT, field_data: { python: ['1'] } }, 'field_data contains a value that is not an allowed_type'],
  ['a choice without order', { name: 'L', field_type: SELECT, field_data: { 0: { text: 'Python' } } }, 'order key is missing from field_data'],
  ['a blank order', { name: 'L', field_type: SELECT, field_data: { 0: { text: 'Python', order: '' } } }, 'field_data["order"] cannot be blank.'],
  ['a blank choice key', { name: 'L', field_type: SELECT, field_data: { '': { text: 'Python', order: '1' } } }, "'value' cannot be blank."],
  ['no choices', { name: 'L', field_type: SELECT, field_data: {} }, 'Field must have at least one choice.'],
  [
    'duplicate choices',
    { name: 'L', field_type: SELECT, field_data: { 0: { text: 'Dup', order: '1' }, 1: { text: 'Dup', order: '2' } } },
    'Field must not have duplicate choices.',
  ],
  ['an account without subtype', { name: 'A', field_type: 7, field_data: {} }, 'subtype key is missing from field_data'],
  ['an unknown account subtype', { name: 'A', field_type: 7, field_data: { subtype: 'linkedin' } }, 'Invalid external account type'],
  ['a custom account without pattern', { name: 'A', field_type: 7, field_data: { subtype: 'custom' } }, 'Custom external account must define URL pattern'],
  [
    'a pattern with two placeholders',
    { name: 'A', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://x.com/%(username)s/%(username)s' } },
    "URL pattern must contain '%(username)s'.",
  ],
  ['a pattern that is not a URL', { name: 'A', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'reddit.com/%(username)s' } }, 'field_data["url_pattern"] is not a URL'],
  [
    "a pattern longer than Django's 2,048-character URL limit",
    { name: 'A', field_type: 7, field_data: { subtype: 'custom', url_pattern: `https://x.com/${'a'.repeat(2040)}/%(username)s` } },
    'field_data["url_pattern"] is not a URL',
  ],
  ['field_type that is not JSON', { name: 'A', field_type: 'text id' }, 'field_type is not valid JSON'],
  ['field_type missing', { name: 'A' }, "Missing 'field_type' argument"],
];

for (const [what, params, msg, setup] of createErrors) {
  t.test(`POST /realm/profile_fields refuses ${what}`, async (t) => {
    const s = testServer();
    await setup?.(s);
    const reply = await s.as(IAGO).post('/realm/profile_fields', params);
    t.equal(reply.status, 400);
    t.equal(reply.body.msg, msg);
    t.equal((await fields(s)).length, 9, 'nothing was created');
  });
}

t.test('at most two fields are shown in the profile summary, checked before anything else', async (t) => {
  const s = testServer();
  const reply = await s.as(IAGO).post('/realm/profile_fields', { name: '', field_type: 1, display_in_profile_summary: true });
  t.same(errorOf(reply), bad('Only 2 custom profile fields can be displayed in the profile summary.'));
  t.equal((await s.as(IAGO).patch('/realm/profile_fields/3', { display_in_profile_summary: true })).status, 200, 'a field already shown may stay shown');
  const other = await s.as(IAGO).patch('/realm/profile_fields/1', { display_in_profile_summary: true });
  t.same(errorOf(other), bad('Only 2 custom profile fields can be displayed in the profile summary.'));
});

t.test('only administrators and owners change fields; everyone may list them', async (t) => {
  const s = testServer();
  const calls: Array<[string, string, Params]> = [
    ['post', '/realm/profile_fields', { name: 'X', field_type: 1 }],
    ['patch', '/realm/profile_fields/1', { name: 'Y' }],
    ['delete', '/realm/profile_fields/2', {}],
    ['patch', '/realm/profile_fields', { order: [1, 2, 3, 4, 5, 6, 7, 8, 9] }],
  ];
  for (const email of ['shiva@zulip.com', HAMLET, 'polonius@zulip.com']) {
    for (const [method, path, params] of calls) {
      const reply = await s.as(email).call(method, path, params);
      t.same(errorOf(reply), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' }, `${email} ${method} ${path}`);
    }
  }
  t.equal((await s.as('desdemona@zulip.com').post('/realm/profile_fields', { name: 'X', field_type: 1 })).status, 200, 'owners may');
});

t.test('PATCH changes only what is sent, removes users’ values of dropped choices, and keeps the type', async (t) => {
  const s = testServer();
  const reply = await s.as(IAGO).patch('/realm/profile_fields/4', { field_data: { emacs: { text: 'Emacs', order: '1' } }, required: true });
  t.equal(reply.status, 200);
  t.match(await fieldNamed(s, 'Favorite editor'), { hint: '', type: 3, required: true, field_data: '{"emacs":{"text":"Emacs","order":"1"}}' });
  t.equal(s.world.usersByEmail.get(HAMLET)?.profileData.get(4), undefined, "hamlet's vim is gone");
  t.equal(s.world.usersByEmail.get(IAGO)?.profileData.get(4), 'emacs', "iago's emacs stays");
  t.equal((await s.as(IAGO).patch('/realm/profile_fields/2', { name: ' Bio ', hint: 'New hint', editable_by_user: false })).status, 200);
  t.match(await fieldNamed(s, 'Bio'), { id: 2, hint: 'New hint', editable_by_user: false });
});

t.test('PATCH errors: unknown field, default accounts, duplicate label, blank label', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(IAGO).patch('/realm/profile_fields/99', { name: 'X' })), bad('Field id 99 not found.'));
  t.same(errorOf(await s.as(IAGO).patch('/realm/profile_fields/8', { name: 'GitHub' })), bad('Default custom field cannot be updated.'));
  t.equal((await s.as(IAGO).patch('/realm/profile_fields/8', { name: 'GitHub username', field_data: { subtype: 'github' } })).status, 200, 'unchanged values are fine');
  t.same(errorOf(await s.as(IAGO).patch('/realm/profile_fields/1', { name: 'Biography' })), bad('A field with that label already exists.'));
  t.same(errorOf(await s.as(IAGO).patch('/realm/profile_fields/1', { name: ' ' })), bad('Label cannot be blank.'));
  t.same(errorOf(await s.as(IAGO).patch('/realm/profile_fields/1', { name: 'Phone number' })), { status: 200, code: undefined, msg: '' }, 'its own label');
});

t.test('before level 252 an omitted label is reset, so a PATCH must send it', async (t) => {
  const old = testServer({ featureLevel: 251 });
  t.same(errorOf(await old.as(IAGO).patch('/realm/profile_fields/2', { hint: 'h' })), bad('Label cannot be blank.'));
  t.equal((await old.as(IAGO).patch('/realm/profile_fields/3', { name: 'Favorite food', hint: 'h' })).status, 200);
  t.notOk('display_in_profile_summary' in ((await fieldNamed(old, 'Favorite food')) as object), 'the summary flag was reset');
  const current = testServer({ featureLevel: 252 });
  t.equal((await current.as(IAGO).patch('/realm/profile_fields/2', { hint: 'h' })).status, 200);
  t.equal((await fieldNamed(current, 'Biography'))?.hint, 'h');
});

t.test('parameters exist from their levels: pronouns 151, required 244, editable_by_user 296', async (t) => {
  const old = testServer({ featureLevel: 150 });
  t.same(errorOf(await old.as(IAGO).post('/realm/profile_fields', { name: 'P', field_type: 8 })), bad('Invalid field type.'));
  const mid = testServer({ featureLevel: 243 });
  const reply = await mid.as(IAGO).post('/realm/profile_fields', { name: 'R', field_type: 1, required: true, editable_by_user: false });
  t.same(reply.body.ignored_parameters_unsupported, ['editable_by_user', 'required']);
  const level295 = testServer({ featureLevel: 295 });
  const later = await level295.as(IAGO).post('/realm/profile_fields', { name: 'R', field_type: 1, required: true, editable_by_user: false });
  t.same(later.body.ignored_parameters_unsupported, ['editable_by_user']);
  t.equal(level295.world.customProfileFields.find((f) => f.name === 'R')?.required, true);
});

t.test('DELETE removes the field and every value of it', async (t) => {
  const s = testServer();
  t.equal((await s.as(IAGO).delete('/realm/profile_fields/2')).status, 200);
  t.notOk(await fieldNamed(s, 'Biography'));
  t.equal(s.world.usersByEmail.get(HAMLET)?.profileData.has(2), false);
  t.same(errorOf(await s.as(IAGO).delete('/realm/profile_fields/2')), bad('Field id 2 not found.'));
});

t.test('PATCH /realm/profile_fields reorders: every field must be listed, unknown IDs are ignored', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(IAGO).patch('/realm/profile_fields', { order: [1, 2, 3] })), bad('Invalid order mapping.'));
  t.same(errorOf(await s.as(IAGO).patch('/realm/profile_fields', {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'order' argument" });
  t.equal((await s.as(IAGO).patch('/realm/profile_fields', { order: [9, 8, 7, 6, 5, 4, 3, 2, 1, 77] })).status, 200);
  const list = await fields(s);
  t.same(
    list.map((f) => [f.id, f.order]),
    [9, 8, 7, 6, 5, 4, 3, 2, 1].map((id, index) => [id, index]),
  );
});
