/**
 * Reminders checked exactly on every run (sections 3.5, 4.17, 8): the note limit
 * `max_reminder_note_length` (from `POST /register`) at the limit and one over, counted in code
 * points after the trailing whitespace and leading newlines are removed; and a reminder listed as
 * it was created, deleted once, then refused as unknown.
 */
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { LIST_DELETE_LEVEL, listReminders } from '../../model/reminders.js';
import { fetchState } from '../support/message-fixtures.js';
import { createListed, DAY, deleteCreatedLater, NOTE_LEVEL, ownMessageRule } from './reminders-support.js';
import type { Rule } from '../types.js';

/** Exactly `length` code points, a third of them astral, starting with `tag`. */
function noteOf(tag: string, length: number): string {
  const head = [...tag].slice(0, length);
  return [...head, ...Array.from({ length: length - head.length }, (_, i) => ['n', '😀', 'ß'][i % 3])].join('');
}

const noteLimit = ownMessageRule({
  id: 'reminders/note-length-limit',
  title: 'a note of exactly max_reminder_note_length code points is accepted and carried in the content, also with trailing whitespace and leading newlines (removed first); one code point more is refused with 400 BAD_REQUEST',
  endpoint: 'POST /reminders',
  section: '4.17; 8',
  levels: { min: NOTE_LEVEL },
}, async (ctx, message, client) => {
  const state = await fetchState(client, ['realm']);
  const published = state.max_reminder_note_length;
  const max = typeof published === 'number' ? published : ctx.skip('POST /register gives no max_reminder_note_length');
  const note = noteOf(ctx.name('note'), max);
  for (const [sent, what] of [[note, 'exactly at the limit'], [`\n\n${note} \n\t `, 'at the limit once stripped']] as const) {
    const listed = await createListed(ctx, client, message.id, message.now + 6 * DAY, { note: sent }, ` (note ${what})`);
    check(listed.content.includes(note), `the content of reminder ${listed.reminder_id} does not carry the whole note (${what})`);
  }
  const over = await client.post('/reminders', { message_id: message.id, scheduled_delivery_timestamp: message.now + 6 * DAY, note: noteOf(ctx.name('note'), max + 1) });
  if (over.status === 200) deleteCreatedLater(ctx, over);
  expectError(over, { status: 400, code: 'BAD_REQUEST' });
});

const listedThenDeleted = ownMessageRule({
  id: 'reminders/listed-as-created-then-deleted-once',
  title: "a reminder is listed with the scheduled_delivery_timestamp sent (to the second), the message it refers to and the creator as recipient; deleting it succeeds once, then answers 404 BAD_REQUEST, and it is no longer listed",
  endpoint: 'DELETE /reminders/{reminder_id}',
  section: '3.5; 4.17',
  levels: { min: LIST_DELETE_LEVEL },
}, async (ctx, message, client) => {
  // 17 seconds past a minute, whatever the message's own second, so any rounding to the minute or hour shows.
  const base = message.now + 2 * DAY;
  const at = base - (base % 60) + 60 + 17;
  const listed = await createListed(ctx, client, message.id, at);
  const id = listed.reminder_id;
  expectEqual(
    [listed.scheduled_delivery_timestamp, listed.reminder_target_message_id, listed.to, listed.failed],
    [at, message.id, [ctx.identity('member').userId], false],
    'scheduled_delivery_timestamp, reminder_target_message_id, to and failed',
  );
  expectSuccess(await client.delete(`/reminders/${id}`));
  expectError(await client.delete(`/reminders/${id}`), { status: 404, code: 'BAD_REQUEST' });
  check(!(await listReminders(client)).some((item) => item.reminder_id === id), `reminder ${id} is still listed after its deletion`);
});

export const rules: readonly Rule[] = [noteLimit, listedThenDeleted];
