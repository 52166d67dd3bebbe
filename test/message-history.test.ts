import t from 'tap';
import { htmlDiff } from '../lib/rendering/html-diff.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';

async function send(s: TestServer, params: Record<string, unknown> = {}): Promise<number> {
  const reply = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'party', content: 'Hello!', ...params });
  if (reply.status !== 200) throw new Error(`send failed: ${reply.text}`);
  return reply.body.id as number;
}

const history = async (s: TestServer, id: number, params: Record<string, unknown> = {}, as = HAMLET) =>
  s.as(as).get(`/messages/${id}/history`, params);

const secondsNow = (s: TestServer): number => Math.floor(s.clock.now() / 1000);

t.test('an unedited message has exactly one snapshot: the original', async (t) => {
  const s = testServer();
  const id = await send(s);
  const reply = await history(s, id);
  t.same(reply.body, {
    result: 'success',
    msg: '',
    message_history: [{ content: 'Hello!', rendered_content: '<p>Hello!</p>', topic: 'party', timestamp: secondsNow(s), user_id: 10 }],
  });
});

t.test('a content and topic edit gives a snapshot with prev_* and an HTML diff', async (t) => {
  const s = testServer();
  const id = await send(s);
  const sent = secondsNow(s);
  s.clock.advance(12_000);
  await s.as(HAMLET).patch(`/messages/${id}`, { content: 'Howdy!', topic: 'party at my house', send_notification_to_new_thread: false });
  const reply = await history(s, id);
  t.same(reply.body.message_history, [
    { content: 'Hello!', rendered_content: '<p>Hello!</p>', topic: 'party', timestamp: sent, user_id: 10 },
    {
      content: 'Howdy!',
      rendered_content: '<p>Howdy!</p>',
      topic: 'party at my house',
      prev_topic: 'party',
      prev_content: 'Hello!',
      prev_rendered_content: '<p>Hello!</p>',
      content_html_diff:
        '<div><p><span class="highlight_text_inserted">Howdy!</span> <span class="highlight_text_deleted">Hello!</span></p></div>',
      timestamp: sent + 12,
      user_id: 10,
    },
  ]);
});

t.test('snapshots hold only what each edit changed, oldest first', async (t) => {
  const s = testServer();
  const id = await send(s, { content: 'content 1' });
  await s.as(HAMLET).patch(`/messages/${id}`, { content: 'content 2' });
  await s.as(HAMLET).patch(`/messages/${id}`, { topic: 'topic 2', send_notification_to_new_thread: false });
  await s.as(IAGO).patch(`/messages/${id}`, { stream_id: s.streamId('Denmark'), send_notification_to_new_thread: false });
  const snapshots = (await history(s, id)).body.message_history as Array<Record<string, unknown>>;
  t.same(snapshots.map((x) => Object.keys(x).sort()), [
    ['content', 'rendered_content', 'timestamp', 'topic', 'user_id'],
    ['content', 'content_html_diff', 'prev_content', 'prev_rendered_content', 'rendered_content', 'timestamp', 'topic', 'user_id'],
    ['content', 'prev_topic', 'rendered_content', 'timestamp', 'topic', 'user_id'],
    ['content', 'prev_stream', 'rendered_content', 'stream', 'timestamp', 'topic', 'user_id'],
  ]);
  t.same(snapshots.map((x) => [x.content, x.topic, x.user_id]), [
    ['content 1', 'party', 10],
    ['content 2', 'party', 10],
    ['content 2', 'topic 2', 10],
    ['content 2', 'topic 2', 11],
  ]);
  t.equal(snapshots[3]?.prev_stream, s.streamId('Verona'));
  t.equal(snapshots[3]?.stream, s.streamId('Denmark'));
});

t.test('channel moves carry stream only from level 118', async (t) => {
  const s = testServer({ featureLevel: 117 });
  const id = await send(s);
  await s.as(IAGO).patch(`/messages/${id}`, { stream_id: s.streamId('Denmark'), send_notification_to_new_thread: false });
  const last = (await history(s, id)).body.message_history[1];
  t.equal(last.prev_stream, s.streamId('Verona'));
  t.notOk('stream' in last);
});

t.test('the empty topic shows as "general chat" unless allow_empty_topic_name is true', async (t) => {
  const s = testServer();
  const id = await send(s, { topic: 'general chat' });
  await s.as(HAMLET).patch(`/messages/${id}`, { topic: 'new topic name', send_notification_to_new_thread: false });
  const shown = (await history(s, id)).body.message_history;
  t.equal(shown[0].topic, 'general chat');
  t.equal(shown[1].prev_topic, 'general chat');
  const raw = (await history(s, id, { allow_empty_topic_name: true })).body.message_history;
  t.equal(raw[0].topic, '');
  t.equal(raw[1].prev_topic, '');
});

t.test('allow_empty_topic_name does not exist before level 334', async (t) => {
  const s = testServer({ featureLevel: 333 });
  const id = await send(s);
  t.same((await history(s, id, { allow_empty_topic_name: true })).body.ignored_parameters_unsupported, ['allow_empty_topic_name']);
});

t.test('under the moves policy content-only edits vanish but kept snapshots still show content', async (t) => {
  const s = testServer();
  const id = await send(s, { content: 'content 1' });
  await s.as(HAMLET).patch(`/messages/${id}`, { content: 'content 2' });
  await s.as(HAMLET).patch(`/messages/${id}`, { content: 'content 3', topic: 'moved', send_notification_to_new_thread: false });
  s.world.realm.editHistoryVisibilityPolicy = 'moves';
  const snapshots = (await history(s, id)).body.message_history as Array<Record<string, unknown>>;
  t.same(snapshots.map((x) => [x.content, x.topic, x.prev_topic, 'prev_content' in x, 'content_html_diff' in x]), [
    ['content 1', 'party', undefined, false, false],
    ['content 3', 'moved', 'party', false, false],
  ]);
  const fetched = (await s.as(HAMLET).get(`/messages/${id}`)).body.message;
  t.same(fetched.edit_history, [{ user_id: 10, timestamp: secondsNow(s), prev_topic: 'party', topic: 'moved' }]);
});

t.test('under the none policy history is refused before the message is even looked up', async (t) => {
  const s = testServer();
  const id = await send(s);
  await s.as(HAMLET).patch(`/messages/${id}`, { content: 'edited' });
  s.world.realm.editHistoryVisibilityPolicy = 'none';
  const disabled = { status: 400, code: 'BAD_REQUEST', msg: 'Message edit history is disabled in this organization' };
  t.same(errorOf(await history(s, id)), disabled);
  t.same(errorOf(await history(s, 999_999)), disabled);
  const fetched = (await s.as(HAMLET).get(`/messages/${id}`)).body.message;
  t.notOk('edit_history' in fetched);
  t.ok('last_edit_timestamp' in fetched);
});

t.test('moves does not exist before level 358 and reads as all', async (t) => {
  const s = testServer({ featureLevel: 357 });
  const id = await send(s);
  await s.as(HAMLET).patch(`/messages/${id}`, { content: 'edited' });
  s.world.realm.editHistoryVisibilityPolicy = 'moves';
  t.equal((await history(s, id)).body.message_history.length, 2);
});

t.test('history needs read access: unknown and unreadable messages are invalid', async (t) => {
  const s = testServer();
  const invalid = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' };
  t.same(errorOf(await history(s, 999)), invalid);
  const dm = (await s.as(HAMLET).post('/messages', { type: 'direct', to: [12], content: 'x' })).body.id as number;
  t.same(errorOf(await history(s, dm, {}, IAGO)), invalid);
  t.equal((await history(s, dm, {}, 'othello@zulip.com')).status, 200);
  const id = await send(s);
  t.equal((await history(s, id, {}, 'othello@zulip.com')).status, 200, 'public channel, any member');
});

t.test('the HTML diff wraps insertions and deletions and keeps unchanged words', async (t) => {
  t.equal(htmlDiff('', ''), '<div></div>');
  t.equal(htmlDiff('<p>a b c</p>', '<p>a b c</p>'), '<div><p>a b c</p></div>');
  t.equal(htmlDiff('<p>a c</p>', '<p>a b c</p>'), '<div><p>a <span class="highlight_text_inserted">b</span> c</p></div>');
  t.equal(htmlDiff('<p>a b c</p>', '<p>a c</p>'), '<div><p>a <span class="highlight_text_deleted">b</span> c</p></div>');
  t.equal(htmlDiff('', '<p>new</p>'), '<div><p><span class="highlight_text_inserted">new</span></p></div>');
});
