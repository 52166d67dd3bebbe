/**
 * Drafts the server must refuse on edit (section 2.2): wrong `type`, a channel draft without
 * exactly one channel, unknown channels or users, blank content, a negative timestamp, unknown
 * or missing keys, wrong JSON types, a `draft` that is not a JSON object. Each answers 400
 * BAD_REQUEST and leaves the stored draft as it was.
 */
import fc from 'fast-check';
import { printableText } from '../support/arbitraries.js';
import { BASE_DRAFT, expectEditRefused, memberDraftsRule } from './drafts-support.js';
import type { Rule } from '../types.js';

/** An ID no realm reaches. */
const ABSENT_ID = 2_147_483_000;

const invalidDraft = memberDraftsRule({
  id: 'drafts/edit-invalid-draft-refused',
  title: 'an edit with an invalid draft (type, recipients, content, timestamp, keys, JSON types) answers 400 BAD_REQUEST and leaves the draft unchanged',
  section: '2.2; 4.8; 7',
}, async (ctx, setup) => {
  const id = await setup.create(BASE_DRAFT);
  const noChannel = ABSENT_ID;
  const channel = setup.world.channelId;
  const good = { type: 'stream', to: [channel ?? noChannel], topic: 't', content: 'c' };
  const variants: Array<fc.Arbitrary<unknown>> = [
    fc.oneof(fc.constantFrom('channel', 'direct', 'Stream', 'PRIVATE', 'private ', 'unaddressed'), printableText(8)).filter((type) => !['', 'stream', 'private'].includes(type)).map((type) => ({ ...BASE_DRAFT, type })),
    fc.constantFrom([], [1, 2], [3, 4, 5]).map((to) => ({ ...good, to: to.length === 0 ? [] : to.map(() => channel ?? noChannel) })),
    fc.constant({ ...good, to: [noChannel] }),
    fc.constant({ ...BASE_DRAFT, type: 'private', to: [ABSENT_ID] }),
    fc.constantFrom('', ' ', '\n\n', '\t \u00a0').map((content) => ({ ...BASE_DRAFT, content })),
    fc.integer({ min: -1_000_000, max: -1 }).map((timestamp) => ({ ...BASE_DRAFT, timestamp })),
    fc.constantFrom('id', 'client_id', 'sender', '__proto__').map((key) => Object.fromEntries([...Object.entries(BASE_DRAFT), [key, 1]])),
    fc.constantFrom('type', 'to', 'topic', 'content').map((key) => Object.fromEntries(Object.entries(BASE_DRAFT).filter(([name]) => name !== key))),
    fc.constantFrom<[string, unknown]>(['to', 'x'], ['to', [['a']]], ['content', 5], ['topic', null], ['type', 0], ['timestamp', 'noon']).map(([key, value]) => ({ ...BASE_DRAFT, [key]: value })),
  ];
  // Drafts sent as JSON, plus `draft` values that are not JSON objects at all.
  const wire = fc.oneof(fc.oneof(...variants).map((draft) => JSON.stringify(draft)), fc.constantFrom('', 'draft', '[]', '"x"', '42', 'null', '{', '{"type": ""'));
  await ctx.property('invalid drafts', [wire], async (text) => {
    await expectEditRefused(setup, id, text, 'after a refused edit');
  });
});

export const rules: readonly Rule[] = [invalidDraft];
