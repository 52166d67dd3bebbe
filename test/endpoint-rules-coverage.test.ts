/**
 * docs/endpoints.md says, in each table's Rules column, which conformance rules check each served
 * operation (from the rules' `endpoint` fields) or why none does; these tests hold it to the route
 * table and the rule registry, and show that each kind of mistake is caught.
 */
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { allRules } from '../conformance/rules/registry.js';
import { ROUTES } from '../server/app/routes.js';
import type { Operation } from './support/endpoint-mentions.js';
import { rulesColumnProblems, type RuleEntry } from './support/endpoint-rules-coverage.js';

const page = readFileSync(new URL('../../docs/endpoints.md', import.meta.url), 'utf8');
const served: Operation[] = ROUTES.flatMap((route) => Object.keys(route.methods).map((method) => ({ method, path: route.path })));
const rules: RuleEntry[] = allRules().map(({ id, endpoint }) => ({ id, endpoint }));

t.test('every served operation has its checking rules, or a reason none checks it, in the Rules column of docs/endpoints.md', async (t) => {
  t.same(rulesColumnProblems(page, served, rules), []);
});

/** The page's line numbers move with every edit, so the one problem is matched by its words. */
function expectOnly(t: Test, problems: readonly string[], pattern: RegExp): void {
  t.equal(problems.length, 1, `one problem: ${problems.join('; ')}`);
  t.match(problems[0] ?? '', pattern);
}

t.test('the real page fails when a rule is left out, a cell names a rule of another operation or a reason is dropped', async (t) => {
  const cell = '| `messages/*`, `message-get/*`,';
  t.ok(page.includes(cell), 'the page has the cell this test edits');
  const withoutSend = page.replace(cell, '| `messages/credentials-required`, `message-get/*`,');
  t.match(rulesColumnProblems(withoutSend, served, rules).join('\n'), /rule messages\/channel-every-type-and-to-form checks POST \/messages but is not named/);
  const misplaced = page.replace(cell, '| `messages/*`, `typing/*`, `message-get/*`,');
  expectOnly(t, rulesColumnProblems(misplaced, served, rules), /`typing\/\*` names no rule of POST \/messages/);
  const reason = '| not checked: it deactivates the organization, which no run on a shared target may do |';
  t.ok(page.includes(reason), 'the page has the reason this test drops');
  expectOnly(t, rulesColumnProblems(page.replace(reason, '| |'), served, rules), /no rule checks POST \/realm\/deactivate, and the Rules cell gives no reason/);
});

/** A page with one table and the given rows (endpoint cell, rules cell). */
const tablePage = (...rows: ReadonlyArray<readonly [string, string]>): string =>
  ['| Endpoint | Level | Notes | Rules |', '|---|---|---|---|', ...rows.map(([endpoint, ruleCell]) => `| ${endpoint} | | Notes. | ${ruleCell} |`)].join('\n');

const SERVED: Operation[] = [
  { method: 'GET', path: '/drafts' },
  { method: 'POST', path: '/drafts' },
  { method: 'DELETE', path: '/drafts/{draft_id:int}' },
  { method: 'GET', path: '/users/{user_id:int}' },
  { method: 'GET', path: '/users/{email}' },
];
const RULES: RuleEntry[] = [
  { id: 'drafts/create', endpoint: 'POST /drafts' },
  { id: 'drafts/sequence', endpoint: 'GET, POST /drafts, DELETE /drafts/{draft_id}' },
  { id: 'users/get', endpoint: 'GET /users/{user_id}' },
  { id: 'conventions/envelope', endpoint: '*' },
];
const DRAFTS = '`GET`/`POST /drafts`, `DELETE /drafts/{id}`';
const USERS = '`GET /users/{id}`, `GET /users/{email}`';
const UNCHECKED_EMAIL = '`users/*`; `GET /users/{email}`: not checked, no rule looks users up by email';

t.test('a table that names every rule of its operations and the reason for the unchecked one passes', async (t) => {
  t.same(rulesColumnProblems(tablePage([DRAFTS, '`drafts/*`'], [USERS, UNCHECKED_EMAIL]), SERVED, RULES), []);
});

t.test('a rule missing from its cell, or a glob that names no rule of the row, is reported', async (t) => {
  t.same(rulesColumnProblems(tablePage([DRAFTS, '`drafts/create`'], [USERS, UNCHECKED_EMAIL]), SERVED, RULES), [
    'rule drafts/sequence checks GET /drafts but is not named in its Rules cell (docs/endpoints.md:3)',
    'rule drafts/sequence checks POST /drafts but is not named in its Rules cell (docs/endpoints.md:3)',
    'rule drafts/sequence checks DELETE /drafts/{draft_id} but is not named in its Rules cell (docs/endpoints.md:3)',
  ]);
  t.same(rulesColumnProblems(tablePage([DRAFTS, '`drafts/*`, `users/get`'], [USERS, UNCHECKED_EMAIL]), SERVED, RULES), [
    'docs/endpoints.md:3: `users/get` names no rule of GET /drafts, POST /drafts, DELETE /drafts/{draft_id}',
  ]);
  t.same(rulesColumnProblems(tablePage([DRAFTS, '`drafts/*`'], [USERS, '`users/*`, `drafts/old-*`']), SERVED, RULES), [
    'docs/endpoints.md:4: `drafts/old-*` names no rule of GET /users/{user_id}, GET /users/{email}',
    'docs/endpoints.md:4: no rule checks GET /users/{email}, and the Rules cell does not name it with a reason',
  ]);
});

t.test('a rule naming a path without a method checks every method served there', async (t) => {
  const anyMethod = [...RULES, { id: 'drafts/anonymous', endpoint: '/drafts' }];
  t.same(rulesColumnProblems(tablePage([DRAFTS, '`drafts/create`, `drafts/sequence`'], [USERS, UNCHECKED_EMAIL]), SERVED, anyMethod), [
    'rule drafts/anonymous checks GET /drafts but is not named in its Rules cell (docs/endpoints.md:3)',
    'rule drafts/anonymous checks POST /drafts but is not named in its Rules cell (docs/endpoints.md:3)',
  ]);
});

t.test('an operation no rule checks needs a stated reason, and a served operation must be in a table', async (t) => {
  t.same(rulesColumnProblems(tablePage([DRAFTS, '`drafts/*`'], ['`GET /users/{email}`', ''], ['`GET /users/{id}`', '`users/*`']), SERVED, RULES), [
    'docs/endpoints.md:4: no rule checks GET /users/{email}, and the Rules cell gives no reason',
  ]);
  t.same(rulesColumnProblems(tablePage(['`GET /users/{email}`', 'not checked: no rule looks users up by email'], ['`GET /users/{id}`', '`users/*`']), SERVED, RULES), [
    'GET /drafts is served but in no table of docs/endpoints.md',
    'POST /drafts is served but in no table of docs/endpoints.md',
    'DELETE /drafts/{draft_id} is served but in no table of docs/endpoints.md',
  ]);
});

t.test('rows naming unserved operations, tables without a Rules column and malformed rule endpoints are reported', async (t) => {
  const page = [tablePage([DRAFTS, '`drafts/*`'], [USERS, UNCHECKED_EMAIL], ['`PATCH /drafts/{id}`', 'not served']), '', '| Endpoint | Notes |', '|---|---|', '| `GET /users/{id}` | Notes. |'].join('\n');
  t.same(rulesColumnProblems(page, SERVED, [...RULES, { id: 'drafts/edit', endpoint: 'drafts' }, { id: 'drafts/put', endpoint: 'PUT /drafts' }]), [
    'rule drafts/edit: endpoint \'drafts\' names no \'METHOD /path\' (or \'*\')',
    'rule drafts/put: PUT /drafts is not served',
    'docs/endpoints.md:5: PATCH /drafts/{id} names no served operation',
    'docs/endpoints.md:9: the table has no Rules column',
  ]);
});
