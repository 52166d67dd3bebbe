/**
 * Linkifiers: `POST /realm/filters` (4.16), `GET /realm/linkifiers` (4.19, level 54), section
 * 2.6. Only the run's own linkifiers are created and deleted; the others of a shared target keep
 * their relative order (checked and, if need be, restored in cleanup). Changes by non-admins,
 * updates, deletes and reorders are in linkifiers-changes.ts.
 */
import fc from 'fast-check';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { createOurs, deleteChecked, LIST_LEVEL, linkifierPair, linkifierParams, listLinkifiers, REORDER_LEVEL, UPDATE_LEVEL, URL_TEMPLATE_LEVEL } from '../../model/linkifiers.js';
import { byCodePoint, unknownParamName } from '../support/arbitraries.js';
import { expectUnauthorized } from '../conventions/credentials-required.js';
import { expectListingUnchanged, expectNoneOfTheRunAdded, linkifierRule } from './linkifiers-support.js';
import type { Rule } from '../types.js';

const IGNORED_EVERYWHERE = 167;

const listShape = (templateKey: 'url_template' | 'url_format') =>
  v.object({ linkifiers: v.array(v.object(Object.fromEntries([['id', v.int({ min: 1 })], ['pattern', v.string()], [templateKey, v.string()]]), { exact: true })) });

const listShapeTemplate: Rule = {
  id: 'linkifiers/list-shape-url-template',
  title: 'GET /realm/linkifiers lists objects of exactly id, pattern and url_template, with distinct IDs, since feature level 176',
  endpoint: 'GET /realm/linkifiers',
  section: '2.6; 4.19',
  levels: { min: URL_TEMPLATE_LEVEL },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const reply = await ctx.as('user').get('/realm/linkifiers');
    const { linkifiers } = expectShape(expectSuccess(reply), listShape('url_template'), 'body', reply);
    check(new Set(linkifiers.map((item) => item.id)).size === linkifiers.length, 'a linkifier ID is listed twice', reply);
  },
};

const listShapeFormat: Rule = {
  id: 'linkifiers/list-shape-url-format-before-176',
  title: 'before feature level 176 GET /realm/linkifiers lists objects of exactly id, pattern and url_format',
  endpoint: 'GET /realm/linkifiers',
  section: '2.6; 4.19',
  levels: { min: LIST_LEVEL, max: URL_TEMPLATE_LEVEL - 1 },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const reply = await ctx.as('user').get('/realm/linkifiers');
    expectShape(expectSuccess(reply), listShape('url_format'), 'body', reply);
  },
};

const padding = fc.constantFrom('', ' ', '  ', '\t', ' \t ');

const createListed = linkifierRule({
  id: 'linkifiers/create-returns-id-listed-last',
  title: 'adding a linkifier returns its id; it is listed after every linkifier that existed before, with its pattern and template stripped',
  endpoint: 'POST /realm/filters',
  section: '2.10; 4.16; 4.19',
  levels: { min: LIST_LEVEL },
}, async (ctx, admin) => {
  const declared = ['pattern', 'url_template', 'url_format_string'];
  const unknown = ctx.featureLevel >= IGNORED_EVERYWHERE ? fc.uniqueArray(unknownParamName(declared), { maxLength: 2 }) : fc.constant<string[]>([]);
  // Stripping is documented for url_template (level 176); older servers are sent no padding.
  const pad = ctx.featureLevel >= URL_TEMPLATE_LEVEL ? padding : fc.constant('');
  await ctx.property('padding x unknown parameters', [pad, pad, unknown], async (before, after, names) => {
    const { pattern, template } = linkifierPair(ctx.name('lk'));
    const existing = (await listLinkifiers(ctx.reader('admin'), ctx.featureLevel)).map((entry) => entry.id);
    const params = linkifierParams(ctx.featureLevel, `${before}${pattern}${after}`, `${after}${template}${before}`);
    const reply = await admin.post('/realm/filters', [...params, ...names.map((name) => [name, 'x'] as const)]);
    const body = expectSuccess(reply, ctx.featureLevel >= IGNORED_EVERYWHERE ? { ignored: [...names].sort(byCodePoint) } : {});
    const { id } = expectShape(body, v.object({ id: v.int({ min: 1 }) }), 'body', reply);
    ctx.cleanup(`delete linkifier ${id} (${pattern})`, (c) => deleteChecked(c.as('admin'), id, pattern));
    const listed = await listLinkifiers(ctx.reader('admin'), ctx.featureLevel);
    const position = listed.findIndex((entry) => entry.id === id);
    check(position >= 0, `linkifier ${id} is not listed`);
    expectEqual(listed[position], { id, pattern, template }, `linkifier ${id} as listed`);
    const later = new Set(listed.slice(position + 1).map((entry) => entry.id));
    check(!existing.some((other) => later.has(other)), `linkifier ${id} is listed before some that existed before it`);
  }, { maxRuns: 5 });
});

const duplicatePattern = linkifierRule({
  id: 'linkifiers/duplicate-pattern-bad-request',
  title: 'adding a linkifier whose pattern another linkifier of the realm already has answers 400 BAD_REQUEST and adds nothing',
  endpoint: 'POST /realm/filters',
  section: '2.6; 4.16',
  levels: { min: LIST_LEVEL },
}, async (ctx, admin) => {
  const { pattern, template } = linkifierPair(ctx.name('lk'));
  await createOurs(ctx, pattern, template);
  const before = await listLinkifiers(ctx.reader('admin'), ctx.featureLevel);
  await ctx.property('other templates', [fc.stringMatching(/^[a-z0-9]{1,12}$/)], async (path) => {
    const reply = await admin.post('/realm/filters', linkifierParams(ctx.featureLevel, pattern, `https://example.org/${path}/{id}`));
    expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  }, { maxRuns: 3 });
  await expectListingUnchanged(ctx.reader('admin'), ctx.featureLevel, before, 'the refused duplicates');
});

/** Patterns no regular-expression engine accepts (each carries the run tag), and blank ones. */
const BAD_PATTERNS: ReadonlyMap<string, (tag: string) => string> = new Map([
  ['unclosed group', (tag: string) => `(${tag}`],
  ['unopened group', (tag: string) => `${tag})`],
  ['unclosed class', (tag: string) => `[${tag}`],
  ['unclosed named group', (tag: string) => `${tag}(?P<id>[0-9]+`],
  ['empty group name', (tag: string) => `${tag}(?P<>x)`],
  ['repetition min over max', (tag: string) => `${tag}x{2,1}`],
  ['double star', (tag: string) => `${tag}**`],
  ['leading star', (tag: string) => `*${tag}`],
  ['empty', () => ''],
  ['blank', () => ' \t '],
]);

const invalidPattern = linkifierRule({
  id: 'linkifiers/invalid-pattern-bad-request',
  title: 'an empty pattern or one that is not a valid regular expression answers 400 BAD_REQUEST and adds nothing',
  endpoint: 'POST /realm/filters',
  section: '4.16',
  levels: { min: LIST_LEVEL },
}, async (ctx, admin) => {
  await ctx.property('bad patterns', [fc.constantFrom(...BAD_PATTERNS.keys())], async (kind) => {
    const tag = ctx.name('lk');
    const pattern = BAD_PATTERNS.get(kind)!(tag);
    const reply = await admin.post('/realm/filters', linkifierParams(ctx.featureLevel, pattern, `https://example.com/${tag}/{id}`));
    expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  }, { maxRuns: 10 });
  await expectNoneOfTheRunAdded(ctx, 'refused patterns');
});

/** Templates that are not RFC 6570 (reference 7.3), after a valid prefix. */
const BAD_TEMPLATES = ['{id', '{{}', '{//foo}', '{bar++}', '{id}{', 'x}{id'];

const invalidTemplate = linkifierRule({
  id: 'linkifiers/invalid-url-template-bad-request',
  title: 'a url_template that is not a valid RFC 6570 template, or is blank, answers 400 BAD_REQUEST and adds nothing',
  endpoint: 'POST /realm/filters',
  section: '2.6; 4.16',
  levels: { min: URL_TEMPLATE_LEVEL },
}, async (ctx, admin) => {
  await ctx.property('bad templates', [fc.constantFrom(...BAD_TEMPLATES, '', ' '), fc.boolean()], async (bad, prefixed) => {
    const { pattern } = linkifierPair(ctx.name('lk'));
    const template = prefixed && bad.trim() !== '' ? `https://example.com/${ctx.runTag}/${bad}` : bad;
    expectError(await admin.post('/realm/filters', { pattern, url_template: template }), { status: 400, code: 'BAD_REQUEST' });
  }, { maxRuns: 12 });
  await expectNoneOfTheRunAdded(ctx, 'refused linkifiers');
});

const GROUP_NAMES = ['id', 'repo', 'num', 'x'] as const;

const groupsMatchVariables = linkifierRule({
  id: 'linkifiers/named-groups-must-match-template-variables',
  title: "a linkifier is accepted exactly when the pattern's named groups and the template's variables are the same set (unnamed groups do not count)",
  endpoint: 'POST /realm/filters',
  section: '2.6; 4.16',
  levels: { min: URL_TEMPLATE_LEVEL },
}, async (ctx, admin) => {
  const names = fc.subarray([...GROUP_NAMES], { minLength: 0 });
  await ctx.property('named groups x template variables x unnamed group', [names, names, fc.boolean()], async (groups, variables, unnamed) => {
    const tag = ctx.name('lk');
    // Every pattern keeps one named group the template uses, as older validators demand one.
    const pattern = [`${tag}-(?P<base>[0-9]+)`, ...groups.map((name) => `(?P<${name}>[a-z0-9]+)`), ...(unnamed ? ['([A-Z]+)'] : [])].join('-');
    const template = [`https://example.com/${tag}/{base}`, ...variables.map((name) => `{${name}}`)].join('/');
    const reply = await admin.post('/realm/filters', { pattern, url_template: template });
    const same = groups.length === variables.length && groups.every((name) => variables.includes(name));
    if (!same) {
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
      return;
    }
    const { id } = expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }) }), 'body', reply);
    expectSuccess(await admin.delete(`/realm/filters/${id}`));
  }, { maxRuns: 20 });
});

const noCredentials: Rule = {
  id: 'linkifiers/no-credentials-unauthorized',
  title: 'listing, adding, updating, deleting and reordering linkifiers without credentials answer 401 UNAUTHORIZED',
  endpoint: 'GET /realm/linkifiers',
  section: '5.4',
  levels: { min: LIST_LEVEL },
  writes: false,
  async run(ctx) {
    const calls = [
      () => ctx.anonymous.get('/realm/linkifiers'),
      () => ctx.anonymous.post('/realm/filters', { pattern: 'x(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' }),
      () => ctx.anonymous.delete('/realm/filters/1'),
      ...(ctx.featureLevel >= UPDATE_LEVEL ? [() => ctx.anonymous.patch('/realm/filters/1', { pattern: 'x', url_template: 'y' })] : []),
      ...(ctx.featureLevel >= REORDER_LEVEL ? [() => ctx.anonymous.patch('/realm/linkifiers', { ordered_linkifier_ids: [] })] : []),
    ];
    for (const call of calls) expectUnauthorized(await call());
  },
};

export const rules: readonly Rule[] = [listShapeTemplate, listShapeFormat, createListed, duplicatePattern, invalidPattern, invalidTemplate, groupsMatchVariables, noCredentials];
