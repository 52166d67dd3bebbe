/**
 * Validation as the real server does it. Parameters are read in declaration order before the
 * view body runs (zerver/lib/typed_endpoint.py: a missing one is `REQUEST_VARIABLE_MISSING`, a
 * malformed one the first pydantic error), so a request with several problems reports the first
 * parameter's, and every semantic check comes after; full names follow `check_full_name`
 * (zerver/lib/users.py, tested in zerver/tests/test_users.py `test_change_full_name`...).
 */
import t from 'tap';
import { bad, errorOf, testServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const missing = (name: string) => ({ status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: `Missing '${name}' argument` });

t.test('several problems in one request: the first declared parameter wins, and parameters come before the object', async (t) => {
  const s = testServer();
  const rows: Array<[string, () => Promise<unknown>, unknown]> = [
    // add_reaction(emoji_name, emoji_code, reaction_type): the missing name before the unknown message.
    ['a missing emoji name on an unknown message', async () => errorOf(await s.as(HAMLET).post('/messages/999999/reactions', {})), missing('emoji_name')],
    // get_messages_backend: `anchor` before `num_before`; both malformed.
    ['a bad anchor and a bad num_before', async () => errorOf(await s.as(HAMLET).get('/messages', { anchor: 'x', num_before: 'y' })), bad('num_before is not valid JSON')],
    // update_message_flags(messages, operation, flag): a malformed list before a missing operation.
    ['malformed messages and no op', async () => errorOf(await s.as(HAMLET).post('/messages/flags', { messages: 'nope', flag: 'read' })), bad('messages is not valid JSON')],
    ['a missing op and an unknown flag', async () => errorOf(await s.as(HAMLET).post('/messages/flags', { messages: [1], flag: 'nonsense' })), missing('op')],
  ];
  for (const [what, run, expected] of rows) t.same(await run(), expected, what);
});

t.test('full names: stripped for length and characters, the mention suffix checked on the raw name as Python reads it', async (t) => {
  const s = testServer();
  const rows: Array<[string, unknown]> = [
    ['Hamlet|12', bad('Invalid format!')],
    // Python's `$` also matches before a final newline.
    ['Hamlet|12\n', bad('Invalid format!')],
    // `\d` is any Unicode decimal digit in a Python str pattern.
    ['Hamlet|١٢', bad('Invalid format!')],
    // A trailing space hides the suffix from the raw check; the stored name is stripped.
    ['Hamlet|12 ', null],
    ['Ham*let', bad('Invalid characters in name!')],
    ['a'.repeat(101), bad('Name too long!')],
  ];
  for (const [name, expected] of rows) {
    const reply = await s.as(HAMLET).patch('/settings', { full_name: name });
    if (expected === null) t.equal(reply.status, 200, JSON.stringify(name));
    else t.same(errorOf(reply), expected, JSON.stringify(name));
  }
  t.equal(s.world.users.get(s.id(HAMLET))?.fullName, 'Hamlet|12');
});
