/**
 * `PATCH /navigation_views/{fragment}` (sections 2.8, 4.13; level 390) with `GET`, `POST` and
 * `DELETE` to set up, observe and clean up. Fragments are data: any text (`__proto__`, `%`,
 * `?`, `#`, unicode, slashes) is sent percent-encoded in the path and must round-trip exactly.
 * An unknown fragment answers 404 with code NOT_FOUND (described) or BAD_REQUEST (real server,
 * deviation `navigation-view-not-found-code`).
 */
import fc from 'fast-check';
import type { Reply } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess, fail } from '../../expect/assert.js';
import { expectDocumentedError } from '../../expect/deviation.js';
import { fragmentPath, listViews, viewCommands, type ViewsModel, type ViewsReal } from '../../model/navigation-views-model.js';
import { printableText } from '../support/arbitraries.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { BUILT_IN, DEVIATION, deleteViewsLater, ENDPOINT, EVERY_ENDPOINT, expectBuiltInListed, expectDeleteNotFound, LEVELS, memberViewRule, unconfiguredBuiltIns } from './navigation-views-support.js';
import type { Rule } from '../types.js';
import { checkUnknownParamsReported, type ParamPair } from '../conventions/unknown-parameters.js';

/** Path segments that are hostile as data but survive URL normalisation (never empty, `.` or `..`). */
const hostileSegment = fc
  .oneof(
    fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '100%', '%41', 'q?x=1', 'h#f', 'a+b', 'a b', 'ünïcødé', '日本語', '😀', '<b>', '"\'', 'a;b=c', '\\', 'is', 'narrow'),
    printableText(8),
  )
  .filter((segment) => segment !== '' && segment.trim() === segment && segment !== '.' && segment !== '..' && !segment.includes('/'));

/** A fragment of ours: the run-tagged prefix, then one to three hostile segments. */
const hostileTail = fc.array(hostileSegment, { minLength: 1, maxLength: 3 }).map((segments) => segments.join('/'));

const noCredentials = credentialsRequired({
  id: 'navigation-views/requires-credentials',
  endpoint: EVERY_ENDPOINT,
  section: '4.13',
  levels: LEVELS,
  requests: [
    ['PATCH', '/navigation_views/inbox', { is_pinned: true }],
    ['GET', '/navigation_views'],
    ['POST', '/navigation_views', { fragment: 'narrow/is/x', is_pinned: true, name: 'x' }],
    ['DELETE', '/navigation_views/narrow/is/x'],
  ],
});

const unknownFragment = memberViewRule({
  id: 'navigation-views/unknown-fragment-not-found',
  title: 'editing a fragment the user has no view for answers 404 NOT_FOUND (real servers: 404 BAD_REQUEST)',
  section: '4.13; 7',
  writes: false,
  deviation: DEVIATION,
}, async (ctx, client) => {
  await ctx.property('fragments of no view', [hostileTail, fc.boolean()], async (tail, pinned) => {
    const fragment = `${ctx.runTag}-absent/${tail}`;
    expectDocumentedError(ctx, await client.patch(fragmentPath(fragment), { is_pinned: pinned }), DEVIATION);
  }, { maxRuns: 15 });
});

const builtInName = memberViewRule({
  id: 'navigation-views/built-in-custom-name-refused',
  title: 'a custom name for a built-in view (PATCH or POST) answers 400 BAD_REQUEST and changes nothing',
  section: '4.13; 2.8',
  writes: false,
}, async (ctx, client) => {
  const before = await listViews(client);
  await ctx.property('built-in fragments and names', [fc.constantFrom(...BUILT_IN), printableText(12).filter((name) => name.trim() !== ''), fc.boolean()], async (fragment, name, viaPost) => {
    const reply = viaPost ? await client.post('/navigation_views', { fragment, is_pinned: true, name }) : await client.patch(fragmentPath(fragment), { name, is_pinned: true });
    expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  }, { maxRuns: 14 });
  expectEqual(await listViews(client), before, 'navigation views after refused requests');
});

const hostileData = memberViewRule({
  id: 'navigation-views/hostile-fragments-are-data',
  title: 'any fragment (reserved words, %, ?, #, unicode, slashes) is stored, listed, edited and deleted exactly as given',
  section: '2.8; 4.13',
  writes: true,
}, async (ctx, client) => {
  const added = new Set<string>();
  deleteViewsLater(ctx, added);
  await ctx.property('hostile fragments', [hostileTail, fc.boolean()], async (tail, pinned) => {
    const fragment = `${ctx.name('nv')}/${tail}`;
    const name = `${fragment} name`;
    expectSuccess(await client.post('/navigation_views', { fragment, is_pinned: pinned, name }), { ignored: [] });
    added.add(fragment);
    const find = async () => (await listViews(client)).find((view) => view.fragment === fragment);
    expectEqual(await find(), { fragment, is_pinned: pinned, name }, `the view ${JSON.stringify(fragment)} as listed`);
    const reply = await client.patch(fragmentPath(fragment), { is_pinned: !pinned });
    expectPlainSuccess(reply);
    expectEqual((await find())?.is_pinned, !pinned, 'is_pinned after the edit');
    expectSuccess(await client.delete(fragmentPath(fragment)));
    check((await find()) === undefined, `the view ${JSON.stringify(fragment)} is still listed after DELETE`);
  }, { maxRuns: 15 });
});

const builtInOverride = memberViewRule({
  id: 'navigation-views/built-in-pin-override',
  title: 'a built-in view can be hidden and pinned again (its name stays null)',
  section: '2.8; 4.13',
  writes: true,
}, async (ctx, client) => {
  const { free } = await unconfiguredBuiltIns(ctx, client);
  if (free.length === 0) ctx.skip('the member already configured every built-in view');
  const fragment = free[0] as string;
  deleteViewsLater(ctx, [fragment]);
  expectSuccess(await client.post('/navigation_views', { fragment, is_pinned: false }), { ignored: [] });
  for (const pinned of [true, false]) {
    expectSuccess(await client.patch(fragmentPath(fragment), { is_pinned: pinned }), { ignored: [] });
    await expectBuiltInListed(client, fragment, pinned);
  }
});

const unknownIgnored = memberViewRule({
  id: 'navigation-views/edit-unknown-parameters-ignored',
  title: 'unknown parameters of an edit are reported, sorted, in ignored_parameters_unsupported',
  section: '1 convention 4; 9.3',
  writes: true,
}, async (ctx, client) => {
  const fragment = `${ctx.name('nv')}/ignored`;
  deleteViewsLater(ctx, [fragment]);
  expectSuccess(await client.post('/navigation_views', { fragment, is_pinned: true, name: `${fragment} name` }));
  const send = (pairs: ParamPair[]) => client.patch(fragmentPath(fragment), [['is_pinned', 'true'], ...pairs]);
  await checkUnknownParamsReported(ctx, { declared: ['is_pinned', 'name', 'fragment'], send, maxRuns: 8 });
});

const modelSequence = memberViewRule({
  id: 'navigation-views/model-sequence',
  title: 'after any sequence of adding, pinning, renaming and deleting views, GET /navigation_views agrees with the model after every step',
  endpoint: EVERY_ENDPOINT,
  section: '4.13; 2.8',
  writes: true,
  deviation: DEVIATION,
}, async (ctx, client) => {
  const added = new Set<string>();
  deleteViewsLater(ctx, added);
  const expectNotFound = (reply: Reply): void => {
    if (reply.exchange.method === 'PATCH') {
      expectDocumentedError(ctx, reply, DEVIATION);
      return;
    }
    expectDeleteNotFound(reply, 'deleting an unknown fragment');
  };
  await ctx.assert(
    'add / pin / rename / delete sequences',
    fc.asyncProperty(fc.commands(viewCommands(), { maxCommands: 10 }), async (cmds) => {
      const model: ViewsModel = { prefix: ctx.name('nvm'), views: new Map(), names: 0 };
      const real: ViewsReal = { client, added, expectNotFound };
      await fc.asyncModelRun(() => ({ model, real }), cmds);
      for (const fragment of model.views.keys()) await client.delete(fragmentPath(fragment));
    }),
    { maxRuns: 12 },
  );
});

const absentBefore: Rule = {
  id: 'navigation-views/absent-before-390',
  title: 'before level 390 the navigation-view endpoints do not exist (404)',
  endpoint: EVERY_ENDPOINT,
  section: '4.13; 9.2',
  levels: { max: LEVELS.min - 1 },
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    for (const reply of [await client.get('/navigation_views'), await client.patch(fragmentPath('inbox'), { is_pinned: true })]) {
      if (reply.status !== 404) fail('expected HTTP 404 before level 390', reply);
    }
  },
};

export const rules: readonly Rule[] = [absentBefore, noCredentials, unknownFragment, builtInName, hostileData, builtInOverride, unknownIgnored, modelSequence];
