import t from 'tap';
import { FEATURES } from '../lib/features/feature-levels.js';
import { bool, int, list } from '../lib/input/schema.js';
import type { RequestParams } from '../server/app/form.js';
import { json, readDeclared } from '../server/app/params.js';
import { testServer } from './support/harness.js';

const form = (entries: Record<string, string>): RequestParams => ({ body: new Map(Object.entries(entries)), query: new Map(), files: [] });

const specs = {
  plain: json(bool).default(false).availableFrom(FEATURES.CREATE_GROUP_SUBGROUPS),
  fallback: json(list(int)).default([]).availableFrom(FEATURES.CREATE_GROUP_SUBGROUPS, { otherwise: [7] }),
  legacy: json(int).required().availableBefore(FEATURES.CREATE_GROUP_SUBGROUPS),
  renamed: json(bool).default(true).availableBefore(FEATURES.CREATE_GROUP_SUBGROUPS, { otherwise: false }),
};

t.test('availableFrom: below the level the parameter is not read, and the value is the fallback or absent', async (t) => {
  const sent = form({ plain: 'true', fallback: '[1]', legacy: '5', renamed: 'true' });
  const old = readDeclared(testServer({ featureLevel: 310 }).world, specs, sent);
  t.same(old.values, { fallback: [7], legacy: 5, renamed: true });
  t.notOk('plain' in old.values, 'no fallback: no value');
  t.same([...old.consumed].sort(), ['legacy', 'renamed'], 'the others are left for ignored_parameters_unsupported');
  const modern = readDeclared(testServer({ featureLevel: 311 }).world, specs, sent);
  t.same(modern.values, { plain: true, fallback: [1], renamed: false });
  t.same([...modern.consumed].sort(), ['fallback', 'plain']);
});

t.test('defaults apply only where the parameter exists; a required parameter is required only there', async (t) => {
  const modern = readDeclared(testServer({ featureLevel: 311 }).world, specs, form({}));
  t.same(modern.values, { plain: false, fallback: [], renamed: false });
  t.throws(() => readDeclared(testServer({ featureLevel: 310 }).world, specs, form({})), { code: 'REQUEST_VARIABLE_MISSING' });
});

t.test('the value types say when a level can leave a parameter without value', async (t) => {
  const { values } = readDeclared(testServer().world, specs, form({}));
  // Compile-time checks: a gated parameter without `otherwise` may be undefined, one with it may not.
  const plain: boolean | undefined = values.plain;
  const fallback: number[] = values.fallback;
  const legacy: number | undefined = values.legacy;
  const renamed: boolean = values.renamed;
  // @ts-expect-error a gated parameter without `otherwise` is not always present
  const notAlways: boolean = values.plain;
  t.same([plain, fallback, legacy, renamed, notAlways], [false, [], undefined, false, false]);
});
