import t from 'tap';
import { recordEvents } from './support/events.js';
import { errorOf, testServer } from './support/harness.js';

t.test('POST /messages/render answers the HTML the realm would store, and stores nothing', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const before = s.world.messages.size;
  const reply = await s.as('othello@zulip.com').post('/messages/render', { content: '**hi** @**King Hamlet** #**Verona** zulip-mobile#123' });
  t.equal(reply.status, 200);
  t.same(reply.body, {
    result: 'success',
    msg: '',
    rendered:
      `<p><strong>hi</strong> <span class="user-mention" data-user-id="${s.id('hamlet@zulip.com')}">@King Hamlet</span> ` +
      `<a class="stream" data-stream-id="${s.streamId('Verona')}" href="/#narrow/channel/${s.streamId('Verona')}-Verona">#Verona</a> ` +
      '<a href="https://github.com/zulip/zulip-mobile/pull/123">zulip-mobile#123</a></p>',
  });
  t.equal(s.world.messages.size, before);
  t.equal(events.length, 0);
});

t.test('POST /messages/render renders empty content as empty HTML', async (t) => {
  const reply = await testServer().as('polonius@zulip.com').post('/messages/render', { content: '' });
  t.same(reply.body.rendered, '');
});

t.test('POST /messages/render renders content over the message length limit, as the real server does through level 415 (render_message_backend: content has no max_length)', async (t) => {
  const reply = await testServer().as('hamlet@zulip.com').post('/messages/render', { content: 'y'.repeat(10001) });
  t.equal(reply.status, 200);
  t.equal(reply.body.rendered, `<p>${'y'.repeat(10001)}</p>`, 'not truncated as a sent message would be');
});

t.test('POST /messages/render refuses a missing or over-long content and reports unknown parameters', async (t) => {
  const s = testServer();
  const missing = await s.as('hamlet@zulip.com').post('/messages/render', { foo: 'x' });
  t.same(errorOf(missing), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'content' argument" });
  t.equal(missing.body.var_name, 'content');
  const long = await s.as('hamlet@zulip.com').post('/messages/render', { content: 'x'.repeat(100_001) });
  t.same(errorOf(long), { status: 400, code: 'BAD_REQUEST', msg: 'content is too long (limit: 100000 characters)' }, 'our bound');
  const extra = await s.as('hamlet@zulip.com').post('/messages/render', { content: 'x'.repeat(10000), foo: 'x' });
  t.same(extra.body.ignored_parameters_unsupported, ['foo']);
});

t.test('POST /messages/render needs authentication', async (t) => {
  t.equal((await testServer().anonymous.post('/messages/render', { content: 'x' })).status, 401);
});
