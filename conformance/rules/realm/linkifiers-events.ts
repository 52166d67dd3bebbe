/**
 * What each linkifier change tells clients and what the real server refuses (sections 2.6, 4.16,
 * 4.19, 6): every add, update, reorder and delete sends a `realm_linkifiers` event whose list is
 * the new ordered list (clients declaring `linkifier_url_template`, level 176); a second delete
 * of the same linkifier is refused and sends nothing; patterns are RE2 expressions, so features
 * only backtracking engines have are refused, while length alone is not limited.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { createOurs, LIST_LEVEL, linkifierPair, linkifierParams, listLinkifiers, REORDER_LEVEL, URL_TEMPLATE_LEVEL } from '../../model/linkifiers.js';
import { type EventQueue, openQueue } from '../support/channel-fixtures.js';
import { EVENT_DEADLINE_MS, eventsBeforeSentinel, pollUntil } from '../support/event-waits.js';
import { expectListingUnchanged, linkifierRule } from './linkifiers-support.js';
import type { Rule, RuleContext } from '../types.js';

const eventShape = v.object(
  { id: v.int(), type: v.literal('realm_linkifiers'), realm_linkifiers: v.array(v.object({ id: v.int(), pattern: v.string(), url_template: v.string() }, { exact: true })) },
  { exact: true },
);

/** A queue of the member's that receives `realm_linkifiers` events (the capability they need). */
async function linkifierQueue(ctx: RuleContext): Promise<EventQueue> {
  const queue = await openQueue(ctx.as('member'), ['realm_linkifiers'], { linkifier_url_template: true });
  ctx.cleanup('delete the event queue', () => queue.close());
  return queue;
}

type Listed = ReadonlyArray<{ id: number; pattern: string; url_template: string }>;

/**
 * Waits for the first `realm_linkifiers` event whose list shows the change (`reflects`): events
 * sent before it (earlier changes, delivered late) are passed over, but each must have the
 * event's shape. That event's list must be the listing right after the change, in its order.
 */
async function expectListEvent(queue: EventQueue, reader: ApiClient, level: number, change: string, reflects: (list: Listed) => boolean): Promise<void> {
  const seen = (events: readonly JsonObject[]): Listed[] =>
    events.filter((event) => event.type === 'realm_linkifiers').map((event) => expectShape(event, eventShape, `a realm_linkifiers event (waiting for ${change})`).realm_linkifiers);
  const lists = seen(await pollUntil(queue, (got) => seen(got).some(reflects)));
  const list = lists.find(reflects);
  if (list === undefined) fail(`no realm_linkifiers event showing ${change} arrived within ${EVENT_DEADLINE_MS / 1000} s (${lists.length} other realm_linkifiers events)`);
  const listed = (await listLinkifiers(reader, level)).map((entry) => ({ id: entry.id, pattern: entry.pattern, url_template: entry.template }));
  expectEqual(list, listed, `realm_linkifiers of the event after ${change} (the ordered list GET /realm/linkifiers gives)`);
}

const has = (id: number) => (list: Listed): boolean => list.some((entry) => entry.id === id);

const eventAfterEachChange = linkifierRule({
  id: 'linkifiers/event-after-each-change',
  title: 'adding, updating, reordering and deleting a linkifier each send a realm_linkifiers event holding the whole new ordered list',
  endpoint: 'POST /realm/filters',
  section: '2.6; 4.16; 4.19; 6',
  levels: { min: URL_TEMPLATE_LEVEL },
  needs: ['admin', 'member'],
}, async (ctx, admin) => {
  const queue = await linkifierQueue(ctx);
  const first = linkifierPair(ctx.name('lk'));
  const firstId = await createOurs(ctx, first.pattern, first.template);
  await expectListEvent(queue, ctx.reader('admin'), ctx.featureLevel, 'an add', has(firstId));
  const second = linkifierPair(ctx.name('lk'));
  const secondId = await createOurs(ctx, second.pattern, second.template);
  await expectListEvent(queue, ctx.reader('admin'), ctx.featureLevel, 'a second add', has(secondId));
  const edited = linkifierPair(ctx.name('lk'));
  expectSuccess(await admin.patch(`/realm/filters/${firstId}`, linkifierParams(ctx.featureLevel, edited.pattern, `${edited.template}/edited`)));
  await expectListEvent(queue, ctx.reader('admin'), ctx.featureLevel, 'an update', (list) => list.some((entry) => entry.id === firstId && entry.pattern === edited.pattern));
  if (ctx.featureLevel >= REORDER_LEVEL) {
    // Our two swap places; the others keep theirs.
    const ids = (await listLinkifiers(ctx.reader('admin'), ctx.featureLevel)).map((entry) => entry.id);
    const [a, b] = [ids.indexOf(firstId), ids.indexOf(secondId)];
    [ids[a], ids[b]] = [ids[b]!, ids[a]!];
    expectSuccess(await admin.patch('/realm/linkifiers', { ordered_linkifier_ids: ids }));
    const swapped = (list: Listed): boolean => has(secondId)(list) && list.findIndex((entry) => entry.id === secondId) < list.findIndex((entry) => entry.id === firstId);
    await expectListEvent(queue, ctx.reader('admin'), ctx.featureLevel, 'a reorder', swapped);
  }
  expectSuccess(await admin.delete(`/realm/filters/${firstId}`));
  await expectListEvent(queue, ctx.reader('admin'), ctx.featureLevel, 'a delete', (list) => !has(firstId)(list));
});

const deleteTwice = linkifierRule({
  id: 'linkifiers/delete-twice-second-refused',
  title: "deleting a linkifier twice: the second answers 400 BAD_REQUEST 'Linkifier not found.', sends no event and changes no listing",
  endpoint: 'DELETE /realm/filters/{filter_id}',
  section: '4.16; 6; 7',
  levels: { min: LIST_LEVEL },
  needs: ['admin', 'member'],
}, async (ctx, admin) => {
  const { pattern, template } = linkifierPair(ctx.name('lk'));
  // Opened first: the add's event tells earlier events (delivered late) from the delete's.
  const queue = ctx.featureLevel >= URL_TEMPLATE_LEVEL ? await linkifierQueue(ctx) : undefined;
  const id = await createOurs(ctx, pattern, template);
  if (queue) await expectListEvent(queue, ctx.reader('admin'), ctx.featureLevel, 'the add', has(id));
  expectSuccess(await admin.delete(`/realm/filters/${id}`));
  if (queue) await expectListEvent(queue, ctx.reader('admin'), ctx.featureLevel, 'the first delete', (list) => !has(id)(list));
  const before = await listLinkifiers(ctx.reader('admin'), ctx.featureLevel);
  const again = await admin.delete(`/realm/filters/${id}`);
  expectError(again, { status: 400, code: 'BAD_REQUEST' });
  check(again.body?.msg === 'Linkifier not found.', `the second delete: msg should be "Linkifier not found.", got ${JSON.stringify(again.body?.msg)}`, again);
  await expectListingUnchanged(ctx.reader('admin'), ctx.featureLevel, before, 'the second delete');
  if (!queue) return;
  // A new linkifier of ours is the sentinel: nothing may come before its event.
  const sentinel = linkifierPair(ctx.name('lk'));
  const early = await eventsBeforeSentinel(
    queue,
    async () => void (await createOurs(ctx, sentinel.pattern, sentinel.template)),
    (event: JsonObject) => event.type === 'realm_linkifiers' && JSON.stringify(event.realm_linkifiers).includes(JSON.stringify(sentinel.pattern)),
    'adding another linkifier',
  );
  expectEqual(early, [], 'events after the refused second delete');
});

/** Patterns Python's `re` compiles but RE2 does not (lookaround, backreferences, possessive quantifiers). */
const BACKTRACKING_ONLY: ReadonlyArray<readonly [string, (tag: string) => string]> = [
  ['lookahead', (tag) => `${tag}-(?P<id>[0-9]+)(?=x)`],
  ['negative lookahead', (tag) => `${tag}-(?P<id>[0-9]+)(?!x)`],
  ['lookbehind', (tag) => `(?<=x)${tag}-(?P<id>[0-9]+)`],
  ['backreference', (tag) => `${tag}-(?P<id>[0-9]+)-\\1`],
  ['possessive quantifier', (tag) => `${tag}-(?P<id>[0-9]++)`],
];

const re2Syntax = linkifierRule({
  id: 'linkifiers/pattern-is-re2',
  title: "a pattern RE2 cannot compile (lookaround, backreference, possessive quantifier) is refused with 'Bad regular expression: ...'; a 1,000-character pattern and template are accepted (no length limit)",
  endpoint: 'POST /realm/filters',
  section: '2.6; 4.16; 8',
  levels: { min: URL_TEMPLATE_LEVEL },
}, async (ctx, admin) => {
  for (const [what, make] of BACKTRACKING_ONLY) {
    const tag = ctx.name('lk');
    const reply = await admin.post('/realm/filters', { pattern: make(tag), url_template: `https://example.com/${tag}/{id}` });
    expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    check(String(reply.body?.msg ?? '').startsWith('Bad regular expression: '), `${what}: msg should start "Bad regular expression: ", got ${JSON.stringify(reply.body?.msg)}`, reply);
  }
  const tag = ctx.name('lk');
  const fill = (head: string, tail: string, letter: string): string => `${head}${letter.repeat(1000 - head.length - tail.length)}${tail}`;
  const pattern = fill(`${tag}-`, '-(?P<id>[0-9]+)', 'a');
  const template = fill(`https://example.com/${tag}/`, '/{id}', 'b');
  check(pattern.length === 1000 && template.length === 1000, 'generator: wrong lengths');
  const id = await createOurs(ctx, pattern, template);
  const listed = (await listLinkifiers(ctx.reader('admin'), ctx.featureLevel)).find((entry) => entry.id === id);
  expectEqual(listed, { id, pattern, template }, 'the long linkifier as listed');
});

export const rules: readonly Rule[] = [eventAfterEachChange, deleteTwice, re2Syntax];
