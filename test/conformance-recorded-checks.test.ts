/**
 * What a failure records for its reproduction: the assertion helpers' machine-readable checks
 * (kind, path into the checked answer, expected and received; a value compared without its reply
 * is placed only when that is certain), and how a script carries recorded IDs over to a fresh run.
 */
import t from 'tap';
import { expect, type Rule, runSuite, v } from '../conformance/index.js';
import { learnIds, substitute } from '../conformance/report/repro/runtime.js';
import { brokenApp } from './support/conformance.js';

t.test('the assertion helpers record what they checked: kind, path into the checked answer, expected and received', async (t) => {
  const base = { endpoint: 'GET /users/me', section: '2.3', writes: false, needs: ['admin'] } as const;
  const me = (ctx: Parameters<Rule['run']>[0]) => ctx.as('admin').get('/users/me');
  const cases: Array<[string, Rule['run'], Record<string, unknown>]> = [
    ['status', async (ctx) => expect.expectStatus(await me(ctx), 404), { kind: 'status', expected: [404], received: 200 }],
    ['error', async (ctx) => void expect.expectError(await me(ctx), { status: 400, code: 'BAD_REQUEST' }), { kind: 'error', expected: { status: 400, code: 'BAD_REQUEST' }, received: { status: 200, result: 'success' } }],
    ['by the label', async (ctx) => expect.expectEqual((await me(ctx)).body?.role, 100, 'role of the user', await me(ctx)), { kind: 'equal', path: '.role', expected: 100, received: 200 }],
    ['by identity', async (ctx) => {
      const reply = await me(ctx);
      expect.expectEqual(reply.body?.profile_data, {}, 'the profile', reply);
    }, { kind: 'equal', path: '.profile_data', expected: {} }],
    ['in the last answer', async (ctx) => expect.expectEqual((await me(ctx)).body?.delivery_email, 'x@example.org', 'delivery address'), { kind: 'equal', path: '.delivery_email', expected: 'x@example.org' }],
    ['a boolean is not guessed', async (ctx) => expect.expectEqual((await me(ctx)).body?.is_bot, true, 'bot or not', undefined), { kind: 'equal', expected: true, received: false }],
    ['a missing key', async (ctx) => {
      const reply = await me(ctx);
      expect.expectShape(reply.body, v.object({ nickname: v.string() }), 'body', reply);
    }, { kind: 'shape', path: '.nickname', expected: 'present' }],
    ['a wrong value', async (ctx) => {
      const reply = await me(ctx);
      expect.expectShape(reply.body?.profile_data, v.record(v.object({ value: v.int() })), 'profile_data', reply);
    }, { kind: 'shape', path: '.profile_data["1"].value', expected: 'integer', received: '+1-234-567-8901' }],
    ['a condition', async (ctx) => expect.check(false, 'computed', await me(ctx)), { kind: 'condition' }],
  ];
  const rules = cases.map(([name, run]) => ({ ...base, id: `check/${name.replace(/ /g, '-')}`, title: name, run }));
  const { app, handler } = brokenApp();
  const result = await runSuite({ handler, rules, numRuns: 1, seed: 1 });
  app.close();
  for (const [name, , expected] of cases) {
    const check = result.results.find((rule) => rule.title === name)!.failure!.check!;
    t.match(check, expected, name);
    if (name.startsWith('a boolean')) t.notOk('path' in check || 'exchange' in check, 'a boolean compared without its reply is not placed');
    else t.type(check.exchange, 'number', `${name}: the checked exchange is named`);
  }
});

t.test('scripts rewrite IDs only where IDs stand, and learn them from lists by what the run named, never by position', async (t) => {
  const ids = new Map<string, number | string>([['number:9', 4], ['number:136', 7]]);
  const tag = ['conf-aaaaaa', 'conf-bbbbbb'] as const;
  t.same(
    ['9', '[9,136]', '{"operand":136}', '/api/v1/users/9', 'conf-aaaaaa-lk-136-(?P<id>[0-9]+)', '9.5', 'a9'].map((text) => substitute(text, tag, [], ids)),
    ['4', '[4,7]', '{"operand":7}', '/api/v1/users/4', 'conf-bbbbbb-lk-136-(?P<id>[0-9]+)', '9.5', 'a9'],
  );
  const learnt = new Map<string, number | string>();
  const recorded = { members: [{ user_id: 6, email: 'a@x' }, { user_id: 9, email: 'b@x' }, { user_id: 25, email: 'conf-aaaaaa-user1@x' }], stream_id: 30, ids: [41], queue_id: 'abc:1', last_event_id: 3 };
  const fresh = { members: [{ user_id: 9, email: 'b@x' }, { user_id: 19, email: 'conf-bbbbbb-user1@x' }], stream_id: 31, ids: [42], queue_id: 'def:2', last_event_id: 5 };
  learnIds(recorded, fresh, '', learnt, tag);
  t.same(Object.fromEntries(learnt), { 'number:25': 19, 'number:30': 31, 'number:41': 42, 'string:abc:1': 'def:2' }, 'a user the run made, by its tagged email; nothing paired by position; counters left alone');
});
