/**
 * Drafts checked exactly on every run (sections 2.2, 4.8, 6 item 1, 8): every draft `type`
 * through create, edit and delete with the `drafts` event each sends; a second delete; topics of
 * exactly `max_topic_length` characters kept and one longer cut to the limit; null bytes in content
 * and topic refused on create and on edit.
 */
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type DraftInput, draftDifference, type ExpectedDraft } from '../../model/draft-cases.js';
import { listDrafts, listedDraftShape } from '../../model/drafts-model.js';
import { openQueue, realmLimits } from '../support/channel-fixtures.js';
import { eventsBeforeSentinel } from '../support/event-waits.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { BASE_DRAFT, EVERY_ENDPOINT, expectDraft, expectEditRefused, memberDraftsRule } from './drafts-support.js';
import type { Rule } from '../types.js';

/** One draft of each `type` (channel only where the member has a channel), paired with how it reads back. */
function draftOfEachType(channelId: number | undefined, otherId: number, content: string): Array<[DraftInput, ExpectedDraft]> {
  const time = 1_700_000_000;
  return [
    [{ type: '', to: [], topic: '', content: `${content} unaddressed`, timestamp: time }, { type: '', to: [], topic: '', content: `${content} unaddressed`, timestamp: time }],
    [{ type: 'private', to: [otherId], topic: 'dropped', content: `${content} direct`, timestamp: time }, { type: 'private', to: [otherId], topic: '', content: `${content} direct`, timestamp: time }],
    ...(channelId === undefined
      ? []
      : ([[{ type: 'stream', to: [channelId], topic: 'kept', content: `${content} channel`, timestamp: time }, { type: 'stream', to: [channelId], topic: 'kept', content: `${content} channel`, timestamp: time }]] as Array<[DraftInput, ExpectedDraft]>)),
  ];
}

const eventDraft = (value: unknown, what: string) => expectShape(value, listedDraftShape, what);

/** What a step of the rule should make the owner's queue receive: the event's op, the draft's ID, and its content. */
interface ExpectedEvent {
  readonly op: 'add' | 'update' | 'remove';
  readonly id: number;
  readonly draft?: ExpectedDraft;
}

/** The draft an `add` (its one draft) or `update` event carries. */
function draftOfEvent(event: JsonObject): unknown {
  if (event.op !== 'add') return event.draft;
  const drafts = expectShape(event.drafts, v.array(v.object({})), 'drafts of the add event');
  expectEqual(drafts.length, 1, 'drafts in an add event for one created draft');
  return drafts[0];
}

/** The draft ID an event is about (undefined for an op the description does not name). */
function draftIdOf(event: JsonObject): unknown {
  if (event.op === 'remove') return event.draft_id;
  if (event.op === 'add') return (event.drafts as Array<{ id?: unknown }> | undefined)?.[0]?.id;
  return (event.draft as { id?: unknown } | undefined)?.id;
}

/**
 * Fails unless the drafts events about the rule's drafts are exactly the expected ones, in order.
 * Events about other drafts (earlier rules' cleanups, still on their way) are left out.
 */
function expectDraftEvents(received: readonly JsonObject[], expected: readonly ExpectedEvent[]): void {
  const ours = new Set(expected.map((step) => step.id));
  const events = received.filter((event) => event.type === 'drafts' && (!['add', 'update', 'remove'].includes(String(event.op)) || ours.has(draftIdOf(event) as number)));
  expectEqual(events.map((event) => `${String(event.op)} ${String(draftIdOf(event))}`), expected.map((step) => `${step.op} ${step.id}`), 'drafts events (op and draft ID), in order');
  for (const [index, step] of expected.entries()) {
    if (!step.draft) continue;
    const difference = draftDifference(eventDraft(draftOfEvent(events[index]!), `the draft of the ${step.op} event for draft ${step.id}`), step.draft);
    check(difference === '', `the ${step.op} event for draft ${step.id}: ${difference}`);
  }
}

const typesAndEvents = memberDraftsRule({
  id: 'drafts/each-type-with-events',
  title: "a draft of each type ('', 'private', 'stream') is created, edited into the next type and deleted, each step sending the owner one drafts event (add with the draft, update with the draft, remove with its ID) that agrees with GET /drafts; deleting or editing it again answers 404 BAD_REQUEST and sends nothing",
  endpoint: EVERY_ENDPOINT,
  section: '2.2; 4.8; 6 item 1',
  needs: ['second-member'],
}, async (ctx, setup) => {
  const queue = await openQueue(setup.client, ['drafts']);
  ctx.cleanup('delete drafts queue', async () => queue.close());
  const cases = draftOfEachType(setup.world.channelId, ctx.identity('second-member').userId, ctx.name('draft'));
  const ids: number[] = [];
  const expected: ExpectedEvent[] = [];
  for (const [input, readBack] of cases) {
    const id = await setup.create(input);
    ids.push(id);
    expected.push({ op: 'add', id, draft: readBack });
    await expectDraft(setup, id, readBack, `the created ${JSON.stringify(input.type)} draft`);
  }
  for (const [index, id] of ids.entries()) {
    const [input, readBack] = cases[(index + 1) % cases.length]!;
    expectPlainSuccess(await setup.client.patch(`/drafts/${id}`, { draft: input }));
    expected.push({ op: 'update', id, draft: readBack });
    await expectDraft(setup, id, readBack, `draft ${id} edited into type ${JSON.stringify(input.type)}`);
  }
  for (const id of ids) {
    expectPlainSuccess(await setup.client.delete(`/drafts/${id}`));
    expected.push({ op: 'remove', id });
    expectError(await setup.client.delete(`/drafts/${id}`), { status: 404, code: 'BAD_REQUEST' });
    expectError(await setup.client.patch(`/drafts/${id}`, { draft: BASE_DRAFT }), { status: 404, code: 'BAD_REQUEST' });
  }
  const listed = new Set((await listDrafts(setup.client)).map((draft) => draft.id));
  check(!ids.some((id) => listed.has(id)), 'deleted drafts are still listed');
  // Drafts events are sent as each request commits, in order: one more draft's add event closes the list.
  let sentinel = -1;
  const received = await eventsBeforeSentinel(
    queue,
    async () => void (sentinel = await setup.create(BASE_DRAFT)),
    (event) => event.type === 'drafts' && event.op === 'add' && (event.drafts as Array<{ id?: unknown }> | undefined)?.[0]?.id === sentinel,
    'the add event of one more draft',
  );
  expectDraftEvents(received, expected);
});

/** A topic of exactly `length` code points, alternating astral and accented characters. */
const topicOf = (length: number): string => Array.from({ length }, (_, i) => (i % 2 === 0 ? '😀' : 'ö')).join('');

const topicLength = memberDraftsRule({
  id: 'drafts/topic-at-max-topic-length',
  title: 'a channel draft topic of exactly max_topic_length characters is kept on create and edit; one character more is cut to the limit, ending with "..."',
  section: '2.2; 4.8; 8',
}, async (ctx, setup) => {
  const channel = setup.world.channelId ?? ctx.skip('the member is subscribed to no channel: no channel draft can be made');
  const max = (await realmLimits(setup.client)).maxTopicLength;
  const exact = topicOf(max);
  const longer = `${topicOf(max)}x`;
  const cut = `${[...longer].slice(0, max - 3).join('')}...`;
  const draft = (topic: string) => ({ type: 'stream' as const, to: [channel], topic, content: 'c', timestamp: 1_700_000_000 });
  const expected = (topic: string): ExpectedDraft => ({ type: 'stream', to: [channel], topic, content: 'c', timestamp: 1_700_000_000 });
  const id = await setup.create(draft(exact));
  await expectDraft(setup, id, expected(exact), `a new draft with a topic of ${max} characters`);
  const cutOnCreate = await setup.create(draft(longer));
  await expectDraft(setup, cutOnCreate, expected(cut), `a new draft with a topic of ${max + 1} characters`);
  expectPlainSuccess(await setup.client.patch(`/drafts/${id}`, { draft: draft(longer) }));
  await expectDraft(setup, id, expected(cut), `a draft edited to a topic of ${max + 1} characters`);
  expectPlainSuccess(await setup.client.patch(`/drafts/${id}`, { draft: draft(exact) }));
  await expectDraft(setup, id, expected(exact), `a draft edited to a topic of ${max} characters`);
});

const nullBytes = memberDraftsRule({
  id: 'drafts/null-bytes-refused-on-create-and-edit',
  title: 'a null byte in the content, or in a channel draft topic, is refused with 400 BAD_REQUEST on create (nothing created) and on edit (the draft unchanged)',
  endpoint: 'POST /drafts, PATCH /drafts/{draft_id}',
  section: '2.2; 8',
}, async (ctx, setup) => {
  const channel = setup.world.channelId;
  const id = await setup.create(BASE_DRAFT);
  const refused: Array<[string, DraftInput]> = [
    ['content', { ...BASE_DRAFT, content: 'before\u0000after' }],
    ['content', { ...BASE_DRAFT, content: '\u0000' }],
    ...(channel === undefined ? [] : ([['topic', { type: 'stream', to: [channel], topic: 'a\u0000b', content: 'x' }]] as Array<[string, DraftInput]>)),
  ];
  const count = (await listDrafts(setup.client)).length;
  for (const [where, draft] of refused) {
    expectError(await setup.client.post('/drafts', { drafts: [draft] }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual((await listDrafts(setup.client)).length, count, `drafts after creating one with a null byte in its ${where}`);
    await expectEditRefused(setup, id, draft, `after an edit with a null byte in the ${where}`);
  }
});

export const rules: readonly Rule[] = [typesAndEvents, topicLength, nullBytes];
