/**
 * `POST /messages/flags` (the real server's update-message-flags page): the flags a client may
 * change (`read`, `starred`, `collapsed`) added and removed, the answer echoing the requested
 * IDs, read back through each message's flags (level 120), the `is:starred` and `is:unread`
 * narrows and `starred_messages`; the flags only the server sets, unknown flags and operations,
 * and malformed parameters refused without changing anything.
 */
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { registerState } from '../support/state-fetch.js';
import type { Rule } from '../types.js';
import { conversationRule, expectRefused, LEVEL, narrowMessages, postFlags, topicNarrow, viewMessage } from './message-flags-support.js';

const ENDPOINT = 'POST /messages/flags';

/** The narrow operand that lists the messages carrying a flag, where one exists. */
const NARROW_OF: ReadonlyMap<string, { operand: string; whenSet: boolean }> = new Map([
  ['starred', { operand: 'starred', whenSet: true }],
  ['read', { operand: 'unread', whenSet: false }],
]);

const roundTrip = conversationRule({
  id: 'message-flags/editable-flags-added-removed-read-back',
  title: "read, starred and collapsed are added and removed on the caller's messages only; the answer echoes the requested IDs; each message's flags, the is:starred / is:unread narrows and starred_messages follow",
  section: 'api/update-message-flags; api/get-message; api/construct-narrow; api/register-queue',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.MESSAGE_OBJECT },
}, async (ctx, { sender, reader, channel, thread }) => {
  const { topic, ids } = await thread('flags', 2);
  for (const flag of ['starred', 'collapsed', 'read']) {
    for (const op of ['add', 'remove'] as const) {
      const reply = await postFlags(reader, op, flag, ids);
      const body = expectShape(expectSuccess(reply), v.object({ messages: v.array(v.int()) }), 'body', reply);
      expectEqual(body.messages, ids, `messages of the answer to ${op} ${flag}`, reply);
      const set = op === 'add';
      const seen = await narrowMessages(reader, topicNarrow(channel, topic));
      expectEqual(seen.map((m) => [m.id, m.flags.includes(flag)]), ids.map((id) => [id, set]), `[id, has ${flag}] of the topic after ${op} ${flag}`);
      // The sender's own flags are not the reader's (its read flag depends on its client: left alone).
      if (set && flag !== 'read') check(!(await viewMessage(sender, ids[0]!)).flags.includes(flag), `the reader's ${flag} was set on the sender's flags too`);
      const narrow = NARROW_OF.get(flag);
      if (narrow) {
        const listed = (await narrowMessages(reader, topicNarrow(channel, topic, ['is', narrow.operand]))).map((m) => m.id);
        expectEqual(listed, set === narrow.whenSet ? ids : [], `is:${narrow.operand} in the topic after ${op} ${flag}`);
      }
      if (flag === 'starred') {
        const starred = (await registerState(reader, ['starred_messages'])).body.starred_messages;
        check(Array.isArray(starred), 'register gave no starred_messages');
        expectEqual(ids.filter((id) => starred.includes(id)), set ? ids : [], `our messages in starred_messages after ${op} starred`);
        check(jsonSorted(starred), 'starred_messages is not in ascending order');
      }
    }
  }
});

const jsonSorted = (list: readonly unknown[]): boolean => list.every((value, i) => i === 0 || (value as number) > (list[i - 1] as number));

/** Flags the API names but only the server sets, names it does not know, and operations it does not know. */
const REFUSED: ReadonlyArray<readonly [op: string, flag: string]> = [
  ['add', 'mentioned'],
  ['remove', 'wildcard_mentioned'],
  ['add', 'stream_wildcard_mentioned'],
  ['remove', 'topic_wildcard_mentioned'],
  ['add', 'group_mentioned'],
  ['add', 'has_alert_word'],
  ['remove', 'historical'],
  ['add', 'force_expand'],
  ['add', 'force_collapse'],
  ['add', 'is_private'],
  ['add', 'active_mobile_push_notification'],
  ['add', 'Starred'],
  ['add', 'no_such_flag'],
  ['remove', ''],
  ['toggle', 'starred'],
  ['', 'read'],
  ['ADD', 'starred'],
];

const refused = conversationRule({
  id: 'message-flags/server-flags-and-unknown-refused',
  title: 'mention, wildcard, alert-word, historical and unused flags (set by the server alone), unknown flag names (case matters) and operations other than add/remove are refused with 400 BAD_REQUEST and change no flag',
  section: 'api/update-message-flags#available-flags',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.MESSAGE_OBJECT },
  actor: 'admin',
}, async (_ctx, { reader, thread }) => {
  const { ids: [id] } = await thread('refused-flags', 1);
  const before = ascendingFlags((await viewMessage(reader, id!)).flags);
  for (const [op, flag] of REFUSED) expectRefused(await postFlags(reader, op, flag, [id!]), { status: 400, code: 'BAD_REQUEST' }, `op ${JSON.stringify(op)} flag ${JSON.stringify(flag)}`);
  expectEqual(ascendingFlags((await viewMessage(reader, id!)).flags), before, 'flags after the refused requests');
});

const ascendingFlags = (flags: readonly string[]): string[] => [...flags].sort();

const malformed = conversationRule({
  id: 'message-flags/missing-or-malformed-parameters-refused',
  title: 'a missing messages, op or flag is REQUEST_VARIABLE_MISSING; messages that is not a JSON list of integers is 400 BAD_REQUEST',
  section: 'api/update-message-flags; api/rest-error-handling',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.MESSAGE_OBJECT },
  actor: 'member',
}, async (_ctx, { reader, thread }) => {
  const { ids: [id] } = await thread('malformed-flags', 1);
  const full: Record<string, unknown> = { messages: [id], op: 'add', flag: 'starred' };
  for (const name of ['messages', 'op', 'flag']) {
    const params = Object.fromEntries(Object.entries(full).filter(([key]) => key !== name));
    expectRefused(await reader.post('/messages/flags', params), { status: 400, code: 'REQUEST_VARIABLE_MISSING' }, `without ${name}`);
  }
  for (const messages of [String(id), `"${id}"`, `[${id}.5]`, 'abc', `{"id": ${id}}`, `[["${id}"]]`]) {
    expectRefused(await reader.post('/messages/flags', { ...full, messages }), { status: 400, code: 'BAD_REQUEST' }, `messages=${messages}`);
  }
  check(!(await viewMessage(reader, id!)).flags.includes('starred'), 'a refused request starred the message');
});

const noCredentials = credentialsRequired({
  id: 'message-flags/no-credentials-unauthorized',
  endpoint: ENDPOINT,
  section: 'api/update-message-flags; api/mark-all-as-read; api/mark-stream-as-read',
  requests: [
    ['POST', '/messages/flags', { messages: [1], op: 'add', flag: 'read' }],
    ['POST', '/mark_all_as_read'],
    ['POST', '/mark_stream_as_read', { stream_id: 1 }],
  ],
});

export const rules: readonly Rule[] = [roundTrip, refused, malformed, noCredentials];
