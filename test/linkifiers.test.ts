import t from 'tap';
import { checkRe2 } from '../lib/patterns/re2-syntax.js';
import { parseUriTemplate } from '../lib/patterns/uri-template.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer } from './support/harness.js';

const iago = 'iago@zulip.com';
const hamlet = 'hamlet@zulip.com';

const FIXTURE = [
  { pattern: '#D(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip-desktop/pull/{id}', id: 1 },
  { pattern: 'zulip-mobile#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip-mobile/pull/{id}', id: 2 },
  { pattern: 'zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/{repo}/pull/{id}', id: 3 },
];

t.test('RE2 syntax: accepted patterns report their named groups', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['#(?P<id>[0-9]+)', ['id']],
    ['(?P<a>x)(?<b>y)(z)', ['a', 'b']],
    ['(?i)abc|(?s:.)\\d{2,}\\pL\\p{Greek}[[:alpha:]\\w-]', []],
    ['\\Qa*b\\E+', []],
    ['x{01}a{,5}', []],
    ['(a{10}){100}', []],
    ['é(?P<ñ>x)', ['ñ']],
  ];
  for (const [pattern, groups] of cases) {
    const result = checkRe2(pattern);
    t.same(result.ok ? [...result.groupNames] : result.error, groups, pattern);
  }
});

t.test('RE2 syntax: refused patterns carry RE2 error texts', async (t) => {
  const cases: Array<[string, string]> = [
    ['(foo', 'missing ): (foo'],
    ['ZUL-(?P<id>\\d????)', 'bad repetition operator: ????'],
    ['a)', 'unexpected ): a)'],
    ['*', 'no argument for repetition operator: *'],
    ['a|*', 'no argument for repetition operator: *'],
    ['a++', 'bad repetition operator: ++'],
    ['a{1001}', 'invalid repetition size: {1001}'],
    ['a{2,1}', 'invalid repetition size: {2,1}'],
    ['(a{10}){101}', 'invalid repetition size: {101}'],
    ['(?=x)', 'invalid perl operator: (?='],
    ['(?<=x)', 'invalid perl operator: (?<='],
    ['(?!x)', 'invalid perl operator: (?!'],
    ['(?P=name)', 'invalid perl operator: (?P'],
    ['(?x)abc', 'invalid perl operator: (?x'],
    ['(a)\\1', 'invalid escape sequence: \\1'],
    ['\\Z', 'invalid escape sequence: \\Z'],
    ['a\\', 'trailing \\'],
    ['[a', 'missing ]: [a'],
    ['[z-a]', 'invalid character class range: z-a'],
    ['\\p{Foo}', 'invalid character class range: \\p{Foo}'],
    ['[[:foo:]]', 'invalid character class range: [:foo:]'],
    ['(?P<a-b>x)', 'invalid named capture group: (?P<a-b>'],
    ['(?P<name', 'invalid named capture group: (?P<name'],
  ];
  for (const [pattern, error] of cases) {
    const result = checkRe2(pattern);
    t.equal(result.ok ? 'accepted' : result.error, error, pattern);
  }
});

t.test('URL templates: RFC 6570 operators are accepted, broken expressions refused', async (t) => {
  for (const ok of ['$fgfg', '$not_a_url$', '{+x}', '{#x}', '{.x}', '{/x}', '{?a,b}', '{x*}', '{x:5}', 'https://x/{a}/{b}']) {
    t.ok(parseUriTemplate(ok).ok, ok);
  }
  for (const bad of ['{id', '{{}', '{//foo}', '{bar++}', '{}', 'a}b', '{x:0}', '{=x}']) t.notOk(parseUriTemplate(bad).ok, bad);
  t.same(parseUriTemplate('{?b,a}/{b}'), { ok: true, variableNames: ['b', 'a'] });
});

t.test('GET /realm/linkifiers lists the realm linkifiers in order to any user, guests included', async (t) => {
  const s = testServer();
  const reply = await s.as('polonius@zulip.com').get('/realm/linkifiers');
  t.equal(reply.status, 200);
  t.same(reply.body, { result: 'success', msg: '', linkifiers: FIXTURE });
});

t.test('GET /realm/linkifiers exists from level 54 and shows url_format before level 176', async (t) => {
  t.equal((await testServer({ featureLevel: 53 }).as(iago).get('/realm/linkifiers')).status, 404);
  const old = await testServer({ featureLevel: 175 }).as(iago).get('/realm/linkifiers');
  t.same(old.body.linkifiers[0], { pattern: FIXTURE[0]!.pattern, url_format: 'https://github.com/zulip/zulip-desktop/pull/%(id)s', id: 1 });
});

t.test('adding a linkifier requires an administrator before any parameter is read', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(hamlet).post('/realm/filters')), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  t.equal(s.world.linkifiers.size, 3);
});

t.test('adding a linkifier strips both fields, returns its id, puts it last and sends the whole list to every active user', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const reply = await s.as(iago).post('/realm/filters', { pattern: '  #(?P<id>[0-9]+) ', url_template: ' https://github.com/zulip/zulip/issues/{id}\n' });
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body).sort(), ['id', 'msg', 'result']);
  const id = reply.body.id;
  const list = (await s.as(hamlet).get('/realm/linkifiers')).body.linkifiers;
  t.same(list.at(-1), { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}', id });
  t.equal(events.length, 1);
  t.same(events[0]!.event, { type: 'realm_linkifiers', realm_linkifiers: list });
  const active = [...s.world.users.values()].filter((u) => u.isActive && !u.isSystemBot).map((u) => u.id);
  t.same([...events[0]!.userIds].sort((a, b) => a - b), active.sort((a, b) => a - b));
});

t.test('validation failures give the first message and an errors object, and change nothing', async (t) => {
  const cases: Array<[Record<string, string>, string, Record<string, string[]>]> = [
    [{ pattern: '', url_template: 'https://x/{id}' }, 'This field cannot be blank.', { pattern: ['This field cannot be blank.'], __all__: ["Group 'id' in URL template is not present in linkifier pattern."] }],
    [{ pattern: '#(?P<id>\\d+)', url_template: '  ' }, 'This field cannot be blank.', { url_template: ['This field cannot be blank.'], __all__: ["Group 'id' in linkifier pattern is not present in URL template."] }],
    [{ pattern: '#(?P<id>\\d+)', url_template: 'https://x/{id' }, 'Invalid URL template.', { url_template: ['Invalid URL template.'] }],
    [{ pattern: '(foo', url_template: 'https://x' }, 'Bad regular expression: missing ): (foo', { __all__: ['Bad regular expression: missing ): (foo'] }],
    [{ pattern: 'ZUL-(?P<id>\\d????)', url_template: 'https://x/{id}' }, 'Bad regular expression: bad repetition operator: ????', { __all__: ['Bad regular expression: bad repetition operator: ????'] }],
    [{ pattern: '(?<=a)(?P<id>\\d)', url_template: 'x{id}' }, 'Bad regular expression: invalid perl operator: (?<=', { __all__: ['Bad regular expression: invalid perl operator: (?<='] }],
    [{ pattern: '(?P<x>a)\\1', url_template: 'x{x}' }, 'Bad regular expression: invalid escape sequence: \\1', { __all__: ['Bad regular expression: invalid escape sequence: \\1'] }],
    [{ pattern: '(?P<id>\\d+)', url_template: 'https://x/{b}/{a}/{id}' }, "Group 'a' in URL template is not present in linkifier pattern.", { __all__: ["Group 'a' in URL template is not present in linkifier pattern."] }],
    [{ pattern: '(?P<z>a)(?P<y>b)(c)', url_template: 'https://x/{z}' }, "Group 'y' in linkifier pattern is not present in URL template.", { __all__: ["Group 'y' in linkifier pattern is not present in URL template."] }],
    [{ pattern: FIXTURE[0]!.pattern, url_template: 'https://x/{id}' }, 'Realm filter with this Realm and Pattern already exists.', { __all__: ['Realm filter with this Realm and Pattern already exists.'] }],
    [{ pattern: FIXTURE[0]!.pattern, url_template: 'https://x/{nope}' }, "Group 'nope' in URL template is not present in linkifier pattern.", { __all__: ["Group 'nope' in URL template is not present in linkifier pattern.", 'Realm filter with this Realm and Pattern already exists.'] }],
  ];
  for (const [params, msg, errors] of cases) {
    const s = testServer();
    const events = recordEvents(s);
    const reply = await s.as(iago).post('/realm/filters', params);
    t.same(errorOf(reply), bad(msg), msg);
    t.same(reply.body.errors, errors, msg);
    t.same(Object.keys(reply.body.errors), Object.keys(errors), 'field errors come before __all__');
    t.equal(s.world.linkifiers.size, 3);
    t.equal(events.length, 0);
  }
});

t.test('templates need not look like URLs and may use any RFC 6570 operator', async (t) => {
  const s = testServer();
  for (const [pattern, url_template] of [
    ['no-groups', '$fgfg'],
    ['(?P<x>a)(?P<y>b)', '{+x}{#y}'],
    ['(?P<a>a)(?P<b>b)', 'https://x{/a}{?a,b}'],
    ['(?P<v>[0-9]+)', 'https://x/{v:5}/{v*}'],
    ['__proto__', 'constructor'],
  ]) {
    const reply = await s.as(iago).post('/realm/filters', { pattern, url_template });
    t.equal(reply.status, 200, `${pattern} ${url_template}`);
  }
});

t.test('both fields are required; before level 176 the template is url_format_string', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(iago).post('/realm/filters', { url_template: 'x' })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'pattern' argument" });
  t.same(errorOf(await s.as(iago).post('/realm/filters', { pattern: 'x', url_format_string: 'https://x/%(id)s' })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'url_template' argument" });
  const both = await s.as(iago).post('/realm/filters', { pattern: 'y', url_template: 'y', url_format_string: 'https://y.com/%(a)s' });
  t.same(both.body.ignored_parameters_unsupported, ['url_format_string'], 'the legacy name is ignored since level 176');
  const old = testServer({ featureLevel: 175 });
  t.same(errorOf(await old.as(iago).post('/realm/filters', { pattern: 'x', url_template: 'x' })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'url_format_string' argument" });
  const added = await old.as(iago).post('/realm/filters', { pattern: 'ZUL-(?P<id>\\d+)', url_format_string: 'https://realm.com/my_realm_filter/#hashtag/%(id)s' });
  t.equal(added.status, 200);
  t.same((await old.as(iago).get('/realm/linkifiers')).body.linkifiers.at(-1), { pattern: 'ZUL-(?P<id>\\d+)', url_format: 'https://realm.com/my_realm_filter/#hashtag/%(id)s', id: added.body.id });
  const noGroup = await old.as(iago).post('/realm/filters', { pattern: 'ZUL2-(?P<id>\\d+)', url_format_string: 'https://realm.com/my_realm_filter/' });
  t.same(errorOf(noGroup), bad('Invalid URL format string.'));
  t.same(noGroup.body.errors, { url_format_string: ['Invalid URL format string.'], __all__: ["Group 'id' in linkifier pattern is not present in URL format string."] });
  t.same(errorOf(await old.as(iago).post('/realm/filters', { pattern: 'ZUL3-(?P<id>\\d+)', url_format_string: '$fgfg' })), bad('Enter a valid URL.'));
  // Django's URLValidator refuses more than 2,048 characters before trying its pattern.
  const url = (length: number) => `https://realm.com/${'a'.repeat(length - 'https://realm.com//%(id)s'.length)}/%(id)s`;
  t.same(errorOf(await old.as(iago).post('/realm/filters', { pattern: 'ZUL4-(?P<id>\\d+)', url_format_string: url(2049) })), bad('Enter a valid URL.'));
  t.equal((await old.as(iago).post('/realm/filters', { pattern: 'ZUL5-(?P<id>\\d+)', url_format_string: url(2048) })).status, 200, 'one of 2,048 characters is a URL');
});

t.test('at levels 167-175 url_format_string is consumed and url_template is the ignored one', async (t) => {
  const old = testServer({ featureLevel: 175 });
  const legacy = await old.as(iago).post('/realm/filters', { pattern: 'A(?P<n>\\d)', url_format_string: 'https://a.com/%(n)s' });
  t.equal(legacy.status, 200);
  t.notOk('ignored_parameters_unsupported' in legacy.body);
  const both = await old.as(iago).post('/realm/filters', { pattern: 'B(?P<n>\\d)', url_format_string: 'https://b.com/%(n)s', url_template: 'https://b.com/{n}' });
  t.same(both.body.ignored_parameters_unsupported, ['url_template']);
});

t.test('events follow the level: realm_filters tuples too before 176, only them before 54', async (t) => {
  const mid = testServer({ featureLevel: 100 });
  const midEvents = recordEvents(mid);
  await mid.as(iago).post('/realm/filters', { pattern: 'A(?P<n>\\d)', url_format_string: 'https://a.com/%(n)s' });
  t.same(midEvents.map((e) => e.event.type), ['realm_linkifiers', 'realm_filters']);
  t.same((midEvents[1]!.event.realm_filters as unknown[]).at(-1), ['A(?P<n>\\d)', 'https://a.com/%(n)s', 4]);
  t.match((midEvents[0]!.event.realm_linkifiers as unknown[]).at(-1), { url_format: 'https://a.com/%(n)s', id: 4 });
  const early = testServer({ featureLevel: 53 });
  const earlyEvents = recordEvents(early);
  await early.as(iago).post('/realm/filters', { pattern: 'B', url_format_string: 'https://b.com/%(n)s' });
  t.same(earlyEvents.length, 0, 'a group mismatch is still refused');
  await early.as(iago).post('/realm/filters', { pattern: 'B(?P<n>\\d)', url_format_string: 'https://b.com/%(n)s' });
  t.same(earlyEvents.map((e) => e.event.type), ['realm_filters']);
});

t.test('PATCH /realm/filters/{id} replaces both fields in place (level 57)', async (t) => {
  const old = testServer({ featureLevel: 56 });
  const before = await old.as(iago).patch('/realm/filters/1', { pattern: 'a', url_format_string: 'https://a.com/%(x)s' });
  t.same(before.body.allowed_methods, ['DELETE'], 'below level 57 only DELETE exists on that path');
  const s = testServer();
  t.same(errorOf(await s.as(hamlet).patch('/realm/filters/1')), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  t.same(errorOf(await s.as(iago).patch('/realm/filters/1', { pattern: 'a' })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'url_template' argument" });
  t.same(errorOf(await s.as(iago).patch('/realm/filters/99', { pattern: 'a', url_template: 'b' })), bad('Linkifier not found.'));
  const dup = await s.as(iago).patch('/realm/filters/1', { pattern: FIXTURE[1]!.pattern, url_template: 'https://x/{id}' });
  t.same(errorOf(dup), bad('Realm filter with this Realm and Pattern already exists.'));
  const events = recordEvents(s);
  const same = await s.as(iago).patch('/realm/filters/2', { pattern: FIXTURE[1]!.pattern, url_template: 'https://x/{id}' });
  t.equal(same.status, 200, 'keeping its own pattern is not a duplicate');
  t.same(same.body, { result: 'success', msg: '' });
  const list = (await s.as(iago).get('/realm/linkifiers')).body.linkifiers;
  t.same(list.map((l: { id: number }) => l.id), [1, 2, 3], 'the order is unchanged');
  t.equal(list[1].url_template, 'https://x/{id}');
  t.same(events.map((e) => e.event), [{ type: 'realm_linkifiers', realm_linkifiers: list }]);
});

t.test('DELETE /realm/filters/{id} removes it and keeps the order of the rest', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(hamlet).delete('/realm/filters/2')), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  t.same(errorOf(await s.as(iago).delete('/realm/filters/42')), bad('Linkifier not found.'));
  const events = recordEvents(s);
  const reply = await s.as(iago).delete('/realm/filters/2', {}, { query: { extra: '1' } });
  t.same(reply.body, { result: 'success', msg: '' }, 'a plain view: no ignored_parameters_unsupported');
  t.same(events[0]!.event, { type: 'realm_linkifiers', realm_linkifiers: [FIXTURE[0], FIXTURE[2]] });
});

t.test('PATCH /realm/linkifiers reorders (level 202) with its two errors', async (t) => {
  t.equal((await testServer({ featureLevel: 201 }).as(iago).patch('/realm/linkifiers', { ordered_linkifier_ids: [3, 2, 1] })).status, 405);
  const s = testServer();
  const events = recordEvents(s);
  t.same(errorOf(await s.as(iago).patch('/realm/linkifiers', { ordered_linkifier_ids: [1, 1, 2, 3] })), bad('The ordered list must not contain duplicated linkifiers'));
  t.same(errorOf(await s.as(iago).patch('/realm/linkifiers', { ordered_linkifier_ids: [1, 1] })), bad('The ordered list must not contain duplicated linkifiers'), 'duplicates are checked first');
  for (const ids of [[1, 2], [1, 2, 3, 4], [1, 2, 4]]) {
    t.same(errorOf(await s.as(iago).patch('/realm/linkifiers', { ordered_linkifier_ids: ids })), bad('The ordered list must enumerate all existing linkifiers exactly once'));
  }
  t.same(errorOf(await s.as(iago).patch('/realm/linkifiers', { ordered_linkifier_ids: '[1,"2"]' })), bad('ordered_linkifier_ids[1] is not an integer'));
  t.equal(events.length, 0);
  t.equal((await s.as(iago).patch('/realm/linkifiers', { ordered_linkifier_ids: [3, 1, 2] })).status, 200);
  const added = await s.as(iago).post('/realm/filters', { pattern: 'new', url_template: 'x' });
  const ids = (await s.as(iago).get('/realm/linkifiers')).body.linkifiers.map((l: { id: number }) => l.id);
  t.same(ids, [3, 1, 2, added.body.id], 'a new linkifier goes last after a reorder');
  t.same(events.map((e) => e.event.type), ['realm_linkifiers', 'realm_linkifiers']);
});

t.test('reordering an empty realm with [] succeeds without an event', async (t) => {
  const s = testServer();
  for (const id of [1, 2, 3]) await s.as(iago).delete(`/realm/filters/${id}`);
  const events = recordEvents(s);
  t.equal((await s.as(iago).patch('/realm/linkifiers', { ordered_linkifier_ids: [] })).status, 200);
  t.equal(events.length, 0);
  t.same(errorOf(await s.as(iago).patch('/realm/linkifiers', { ordered_linkifier_ids: [1] })), bad('The ordered list must enumerate all existing linkifiers exactly once'));
});
