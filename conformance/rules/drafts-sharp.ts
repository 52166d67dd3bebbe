/**
 * Drafts checked exactly on every run (sections 2.2, 4.8, 6 item 1, 8): every draft `type`
 * through create, edit and delete with the `drafts` event each sends; a second delete; topics of
 * exactly `max_topic_length` characters kept and one longer cut to the limit; null bytes in content
 * and topic refused on create and on edit.
 */
import type { JsonObject } from '../client/api-client.js';
import { check, expectEqual, expectError, expectShape, fail } from '../expect/assert.js';
import { v } from '../expect/shape.js';
import { type DraftInput, draftDifference, type ExpectedDraft } from '../model/draft-cases.js';
import { listDrafts, listedDraftShape } from '../model/drafts-model.js';
import { openQueue, realmLimits } from './channel-fixtures.js';
import { pollUntil } from './event-waits.js';
import { expectPlainSuccess } from './plain-success.js';
import { draftsSetup } from './drafts-support.js';
import { BASE_DRAFT, BASE_EXPECTED, ENDPOINT, expectDraft, LEVELS } from './drafts.js';
import type { Rule } from './types.js';

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

const typesAndEvents: Rule = {
  id: 'drafts/each-type-with-events',
  title: "a draft of each type ('', 'private', 'stream') is created, edited into the next type and deleted, each step sending the owner a drafts event (add with the drafts, update with the draft, remove with its ID) that agrees with GET /drafts; deleting or editing it again answers 404 BAD_REQUEST",
  endpoint: ENDPOINT,
  section: '2.2; 4.8; 6 item 1',
  levels: LEVELS,
  writes: true,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const setup = await draftsSetup(ctx);
    const queue = await openQueue(setup.client, ['drafts']);
    ctx.cleanup('delete drafts queue', async () => queue.close());
    const nextEvent = async (op: string, what: string): Promise<JsonObject> => {
      const ofOp = (events: readonly JsonObject[]) => events.filter((event) => event.type === 'drafts' && event.op === op);
      const found = ofOp(await pollUntil(queue, (received) => ofOp(received).length > 0));
      if (found.length === 0) fail(`no drafts event with op ${op} after ${what}`);
      return found[0]!;
    };
    const cases = draftOfEachType(setup.world.channelId, ctx.identity('second-member').userId, ctx.name('draft'));
    const ids: number[] = [];
    for (const [input, expected] of cases) {
      const id = await setup.create(input);
      ids.push(id);
      const added = await nextEvent('add', `creating a ${JSON.stringify(input.type)} draft`);
      const drafts = expectShape(added.drafts, v.array(v.object({ id: v.int() })), 'drafts of the add event');
      expectEqual(drafts.length, 1, 'drafts in the add event');
      const difference = draftDifference(eventDraft(drafts[0], 'the added draft'), expected);
      check(drafts[0]!.id === id && difference === '', `the add event's draft: id ${drafts[0]!.id} (expected ${id}) ${difference}`);
      await expectDraft(setup, id, expected, `the created ${JSON.stringify(input.type)} draft`);
    }
    for (const [index, id] of ids.entries()) {
      const [input, expected] = cases[(index + 1) % cases.length]!;
      expectPlainSuccess(await setup.client.patch(`/drafts/${id}`, { draft: input }));
      const updated = eventDraft((await nextEvent('update', `editing draft ${id}`)).draft, 'the draft of the update event');
      const difference = draftDifference(updated, expected);
      check(updated.id === id && difference === '', `the update event's draft: id ${updated.id} (expected ${id}) ${difference}`);
      await expectDraft(setup, id, expected, `draft ${id} edited into type ${JSON.stringify(input.type)}`);
    }
    for (const id of ids) {
      expectPlainSuccess(await setup.client.delete(`/drafts/${id}`));
      expectEqual((await nextEvent('remove', `deleting draft ${id}`)).draft_id, id, 'draft_id of the remove event');
      expectError(await setup.client.delete(`/drafts/${id}`), { status: 404, code: 'BAD_REQUEST' });
      expectError(await setup.client.patch(`/drafts/${id}`, { draft: BASE_DRAFT }), { status: 404, code: 'BAD_REQUEST' });
    }
    const listed = new Set((await listDrafts(setup.client)).map((draft) => draft.id));
    check(!ids.some((id) => listed.has(id)), 'deleted drafts are still listed');
  },
};

/** A topic of exactly `length` code points, alternating astral and accented characters. */
const topicOf = (length: number): string => Array.from({ length }, (_, i) => (i % 2 === 0 ? '😀' : 'ö')).join('');

const topicLength: Rule = {
  id: 'drafts/topic-at-max-topic-length',
  title: 'a channel draft topic of exactly max_topic_length characters is kept on create and edit; one character more is cut to the limit, ending with "..."',
  endpoint: ENDPOINT,
  section: '2.2; 4.8; 8',
  levels: LEVELS,
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const setup = await draftsSetup(ctx);
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
  },
};

const nullBytes: Rule = {
  id: 'drafts/null-bytes-refused-on-create-and-edit',
  title: 'a null byte in the content, or in a channel draft topic, is refused with 400 BAD_REQUEST on create (nothing created) and on edit (the draft unchanged)',
  endpoint: ENDPOINT,
  section: '2.2; 8',
  levels: LEVELS,
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const setup = await draftsSetup(ctx);
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
      expectError(await setup.client.patch(`/drafts/${id}`, { draft }), { status: 400, code: 'BAD_REQUEST' });
      await expectDraft(setup, id, BASE_EXPECTED, `after an edit with a null byte in the ${where}`);
    }
  },
};

export const rules: readonly Rule[] = [typesAndEvents, topicLength, nullBytes];
