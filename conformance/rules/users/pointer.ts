/**
 * The pointer (`GET`, `PUT` and `POST /users/me/pointer`, removed at level 23; the real server's
 * update_pointer_backend): the value is read as a non-negative integer, a move only goes forward
 * and onto a message the user received, it sends a `pointer` event to the user, and the pointer
 * is reported by `POST /register` (and by `GET /users/me` below level 16). Moving a pointer
 * forward cannot be undone, so only a throwaway user the run created moves one.
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import { expectEqual, expectError, expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { openStream } from '../support/event-stream.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { fetchState } from '../support/channel-fixtures.js';
import type { Rule } from '../types.js';

/** Level 23 removed the endpoints, the register state and the event. */
const POINTER_REMOVED_LEVEL = 23;
/** Level 16 took the pointer out of `GET /users/me`. */
const OWN_USER_WITHOUT_POINTER_LEVEL = 16;
const SECTION = 'api/changelog#feature-level-23; api/changelog#feature-level-16';
const PATH = '/users/me/pointer';
const ENDPOINTS = 'GET, PUT, POST /users/me/pointer';
/** Above any message a development or test realm has, and still a 32-bit ID. */
const NO_SUCH_MESSAGE = 2 ** 31 - 1;

async function pointerOf(client: ApiClient): Promise<number> {
  const reply = await client.get(PATH);
  return expectShape(reply.body, v.object({ result: v.literal('success'), msg: v.string(), pointer: v.int({ min: -1 }) }, { exact: true }), 'GET /users/me/pointer', reply).pointer;
}

function expectBadValue(reply: Reply, raw: string): void {
  const body = expectError(reply, { status: 400, code: 'REQUEST_VARIABLE_INVALID' });
  expectEqual(body.msg, `Bad value for 'pointer': ${raw}`, 'msg', reply);
  expectEqual(body.var_name, 'pointer', 'var_name', reply);
}

/** What both rules share: the endpoints, the section and the levels that served them. */
const POINTER_RULE = { endpoint: ENDPOINTS, section: SECTION, levels: { max: POINTER_REMOVED_LEVEL - 1 } } as const;

const refusals: Rule = {
  ...POINTER_RULE,
  id: 'pointer/refusals',
  title: "a missing pointer is REQUEST_VARIABLE_MISSING, a non-integer or negative one REQUEST_VARIABLE_INVALID \"Bad value for 'pointer': <raw>\", one naming no message of the user 400 \"Invalid message ID\" (with PUT and POST); the pointer is unchanged",
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const before = await pointerOf(client);
    const missing = await client.post(PATH, {});
    expectEqual(expectError(missing, { status: 400, code: 'REQUEST_VARIABLE_MISSING' }).msg, "Missing 'pointer' argument", 'msg', missing);
    for (const raw of ['foo', '-2', '1.5']) expectBadValue(await client.post(PATH, { pointer: raw }), raw);
    for (const method of ['POST', 'PUT']) {
      const reply = await client.call(method, PATH, { pointer: String(NO_SUCH_MESSAGE) });
      expectEqual(expectError(reply, { status: 400, code: 'BAD_REQUEST' }).msg, 'Invalid message ID', `${method} msg`, reply);
    }
    expectEqual(await pointerOf(client), before, 'GET /users/me/pointer after the refusals');
  },
};

const moves: Rule = {
  ...POINTER_RULE,
  id: 'pointer/moves-forward-event-and-register',
  title: 'a new user starts at -1; moving onto a received message is an empty success with a pointer event to the user, read back by GET, POST /register (and GET /users/me below level 16); a move back succeeds and changes nothing',
  writes: true,
  needs: ['throwaway-user'],
  async run(ctx) {
    const { client, identity } = await ctx.throwawayUser();
    const stream = await openStream(ctx, client, ['pointer'], {}, "the throwaway user's queue");
    expectEqual(stream.state.pointer, -1, 'POST /register pointer of a new user');
    expectEqual(await pointerOf(client), -1, 'GET /users/me/pointer of a new user');
    const ids: number[] = [];
    for (const label of ['first', 'second']) {
      const sent = await client.post('/messages', { type: 'private', to: [identity.userId], content: ctx.name(`pointer ${label}`) });
      ids.push(expectShape(sent.body, v.object({ id: v.int({ min: 1 }) }), 'POST /messages', sent).id);
    }
    const [first, second] = ids as [number, number];
    for (const [method, id] of [['PUT', first], ['POST', second]] as const) {
      expectPlainSuccess(await client.call(method, PATH, { pointer: String(id) }));
      const { event } = await stream.next((e) => e.type === 'pointer', `pointer event after ${method}`);
      expectEqual(event.pointer, id, `pointer event after ${method}`);
    }
    expectPlainSuccess(await client.post(PATH, { pointer: String(first) }));
    expectEqual(await pointerOf(client), second, 'GET /users/me/pointer after a move back');
    expectEqual((await fetchState(client, ['pointer'])).pointer, second, 'POST /register pointer');
    const own = await client.get('/users/me');
    if (ctx.featureLevel < OWN_USER_WITHOUT_POINTER_LEVEL) expectEqual(own.body?.pointer, second, 'GET /users/me pointer', own);
    else expectEqual(own.body !== undefined && 'pointer' in own.body, false, `pointer in GET /users/me from level ${OWN_USER_WITHOUT_POINTER_LEVEL}`, own);
  },
};

export const rules: readonly Rule[] = [refusals, moves];
