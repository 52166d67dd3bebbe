/**
 * The checks of adding a navigation view as the real server makes them (sections 2.8, 4.13): the
 * fragment and the name are stripped and must not be blank (no other length limit), `is_pinned`
 * is a required JSON boolean, custom views need a name and built-in ones take none, a fragment
 * or a name the user already has is refused; every built-in view can be configured; deleting a
 * view twice, or editing it after, finds nothing (404).
 */
import type { Reply } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { expectDocumentedError } from '../../expect/deviation.js';
import { fragmentPath, listViews } from '../../model/navigation-views-model.js';
import { DEVIATION, deleteViewsLater, expectBuiltInListed, expectDeleteNotFound, memberViewRule, unconfiguredBuiltIns } from './navigation-views-support.js';
import type { Rule } from '../types.js';

const EXISTS = 'Navigation view already exists.';

function expectRefused(reply: Reply, what: string, msg?: string): void {
  expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  if (msg !== undefined) check(reply.body?.msg === msg, `${what}: msg should be ${JSON.stringify(msg)}, got ${JSON.stringify(reply.body?.msg)}`, reply);
}

const addChecks = memberViewRule({
  id: 'navigation-views/add-checks',
  title: 'adding a view: blank fragment or name, a missing or non-boolean is_pinned, a custom view without name, a taken fragment or name are refused; fragment and name are stored stripped, at any length',
  endpoint: 'POST /navigation_views',
  section: '2.8; 4.13; 8',
  writes: true,
}, async (ctx, client) => {
  const base = ctx.name('nvc');
  const [pinned, hidden, short] = [`${base}/pinned`, `${base}/hidden`, `${base}/short`];
  deleteViewsLater(ctx, [pinned, hidden, short, `${base}/other`]);
  const add = (params: Record<string, unknown>) => client.post('/navigation_views', params);
  expectRefused(await add({ fragment: ' \t ', is_pinned: true, name: `${base} blank fragment` }), 'a blank fragment');
  expectRefused(await add({ fragment: pinned, is_pinned: true }), 'a custom view without name', 'Custom views must have a valid name.');
  expectRefused(await add({ fragment: pinned, is_pinned: true, name: '  ' }), 'a blank name');
  for (const wire of ['yes', '[]']) expectRefused(await add({ fragment: pinned, is_pinned: wire, name: `${base} p` }), `is_pinned=${wire}`);
  expectError(await add({ fragment: pinned, name: `${base} p` }), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
  expectEqual((await listViews(client)).filter((view) => view.fragment.startsWith(base)), [], 'views after the refused adds');

  const longName = `${base} ${'n'.repeat(1000)}`;
  expectSuccess(await add({ fragment: `  ${pinned}\t`, is_pinned: true, name: `  ${longName} ` }), { ignored: [] });
  expectSuccess(await add({ fragment: hidden, is_pinned: false, name: `${base} hidden` }), { ignored: [] });
  expectSuccess(await add({ fragment: short, is_pinned: true, name: 'x' }), { ignored: [] });
  expectRefused(await add({ fragment: pinned, is_pinned: false, name: `${base} again` }), 'the same fragment again', EXISTS);
  expectRefused(await add({ fragment: `${base}/other`, is_pinned: true, name: `${base} hidden` }), "another view's name", EXISTS);
  const ours = (await listViews(client)).filter((view) => view.fragment.startsWith(base)).sort((a, b) => (a.fragment < b.fragment ? -1 : 1));
  expectEqual(
    ours,
    [
      { fragment: hidden, is_pinned: false, name: `${base} hidden` },
      { fragment: pinned, is_pinned: true, name: longName },
      { fragment: short, is_pinned: true, name: 'x' },
    ],
    'our views after the adds (stripped, the first add of a fragment kept)',
  );
});

const goneAfterDelete = memberViewRule({
  id: 'navigation-views/delete-twice-not-found',
  title: 'after a view is deleted, deleting it again or editing it answers 404 (NOT_FOUND; real servers BAD_REQUEST), as does deleting a fragment never added',
  endpoint: 'DELETE, PATCH /navigation_views/{fragment}',
  section: '4.13; 7',
  writes: true,
  deviation: DEVIATION,
}, async (ctx, client) => {
  const fragment = `${ctx.name('nvd')}/once`;
  deleteViewsLater(ctx, [fragment]);
  expectSuccess(await client.post('/navigation_views', { fragment, is_pinned: true, name: `${fragment} name` }));
  expectSuccess(await client.delete(fragmentPath(fragment)));
  expectDeleteNotFound(await client.delete(fragmentPath(fragment)), 'the second delete');
  expectDocumentedError(ctx, await client.patch(fragmentPath(fragment), { is_pinned: false }), DEVIATION);
  expectDeleteNotFound(await client.delete(fragmentPath(`${ctx.name('nvd')}/never`)), 'deleting a fragment never added');
  check(!(await listViews(client)).some((view) => view.fragment === fragment), `${fragment} is listed after its delete`);
});

const everyBuiltIn = memberViewRule({
  id: 'navigation-views/every-built-in-configurable',
  title: 'each built-in view can be added without a name (listed with name null) and deleted again; the OpenAPI example narrow/is/alerted is a custom view and needs a name',
  endpoint: 'POST /navigation_views',
  section: '2.8; 4.13',
  writes: true,
}, async (ctx, client) => {
  const { free, configured } = await unconfiguredBuiltIns(ctx, client);
  deleteViewsLater(ctx, free);
  for (const [i, fragment] of free.entries()) {
    const pinned = i % 2 === 0;
    expectSuccess(await client.post('/navigation_views', { fragment, is_pinned: pinned }), { ignored: [] });
    await expectBuiltInListed(client, fragment, pinned);
    expectSuccess(await client.delete(fragmentPath(fragment)));
  }
  if (!configured.has('narrow/is/alerted')) {
    expectRefused(await client.post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true }), 'narrow/is/alerted without a name', 'Custom views must have a valid name.');
  }
});

export const rules: readonly Rule[] = [addChecks, goneAfterDelete, everyBuiltIn];
