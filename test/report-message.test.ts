import t from 'tap';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const MENTION = {
  hamlet: '@_**King Hamlet|10**',
  othello: '@_**Othello, the Moor of Venice|12**',
  cordelia: "@_**Cordelia, Lear's daughter|8**",
};
const SENT_AT = '<time:2025-06-01T12:00:00+00:00>';

/** A test server whose moderation request channel is the private "core team". */
function moderated(options: { featureLevel?: number } = {}): TestServer {
  const s = testServer(options);
  s.world.realm.moderationRequestChannelId = s.streamId('core team');
  return s;
}

async function post(s: TestServer, as: string, params: Record<string, unknown>): Promise<number> {
  const reply = await s.as(as).post('/messages', params);
  if (reply.status !== 200) throw new Error(`send failed: ${reply.text}`);
  return reply.body.id as number;
}

const report = (s: TestServer, as: string, id: number, params: Record<string, unknown>) => s.as(as).post(`/messages/${id}/report`, params);

/** The newest message: the notification, if one was posted. */
const newest = (s: TestServer) => [...s.world.messages.values()].at(-1);

t.test('a channel message report posts the exact notification to the moderation channel', async (t) => {
  const s = moderated();
  const id = await post(s, HAMLET, { type: 'stream', to: 'Verona', topic: 'test', content: 'I squeeze toothpaste from the middle' });
  const reply = await report(s, OTHELLO, id, { report_type: 'harassment', description: 'this is crime against food' });
  t.same(reply.body, { result: 'success', msg: '' });
  const notice = newest(s);
  t.equal(notice?.senderId, 4, 'sent by Notification Bot');
  t.same(notice?.recipient, { kind: 'stream', streamId: s.streamId('core team'), topic: 'King Hamlet moderation' });
  t.equal(
    notice?.content,
    `${MENTION.othello} reported a message sent by ${MENTION.hamlet} at ${SENT_AT}.\n` +
      '```quote\n**Harassment**. this is crime against food\n```\n\n' +
      `\`\`\` spoiler Original message at #**Verona>test@${id}**\nI squeeze toothpaste from the middle\n\`\`\``,
  );
  t.match(notice?.renderedContent, /<div class="spoiler-block"><div class="spoiler-header">\n<p>Original message at <a class="message-link"/);
  t.ok(notice?.flags.has(9) && notice.flags.has(11), 'moderation channel subscribers get it');
});

t.test('a direct message report names the sender and links the conversation', async (t) => {
  const s = moderated();
  const id = await post(s, HAMLET, { type: 'direct', to: [12], content: 'I dip fries in ice cream' });
  t.equal((await report(s, OTHELLO, id, { report_type: 'spam' })).status, 200);
  t.equal(
    newest(s)?.content,
    `${MENTION.othello} reported a direct message sent by ${MENTION.hamlet} at ${SENT_AT}.\n` +
      '```quote\n**Spam**. \n```\n\n' +
      `\`\`\` spoiler [Original message](http://localhost:9991/#narrow/dm/10,12/near/${id})\nI dip fries in ice cream\n\`\`\``,
  );
});

t.test('reporting your own direct message names the recipient; group DMs list the others', async (t) => {
  const s = moderated();
  const own = await post(s, HAMLET, { type: 'direct', to: [12], content: 'mine' });
  await report(s, HAMLET, own, { report_type: 'norms' });
  t.match(newest(s)?.content, `${MENTION.hamlet} reported a direct message sent by ${MENTION.hamlet} to ${MENTION.othello} at ${SENT_AT}.\n`);
  t.match(newest(s)?.content, '**Violates community norms**. ');
  const self = await post(s, HAMLET, { type: 'direct', to: [10], content: 'note to self' });
  await report(s, HAMLET, self, { report_type: 'spam' });
  t.match(newest(s)?.content, `sent by ${MENTION.hamlet} to ${MENTION.hamlet} at`);
  const group = await post(s, HAMLET, { type: 'direct', to: [12, 8], content: 'group' });
  await report(s, OTHELLO, group, { report_type: 'inappropriate' });
  t.match(newest(s)?.content, `sent by ${MENTION.hamlet} to ${MENTION.cordelia} and ${MENTION.othello} at ${SENT_AT}.\n`);
  t.match(newest(s)?.content, `[Original message](http://localhost:9991/#narrow/dm/8,10,12-group/near/${group})`);
});

t.test('report_type must be one of the five reasons; description is limited to 1000 characters', async (t) => {
  const s = moderated();
  const id = await post(s, HAMLET, { type: 'stream', to: 'Verona', topic: 'x', content: 'x' });
  t.same(errorOf(await report(s, OTHELLO, id, { report_type: 'rude' })), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'Invalid report_type: Value error, Not in the list of possible values',
  });
  t.same(errorOf(await report(s, OTHELLO, id, { report_type: 'spam', description: 'x'.repeat(1001) })), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'description is too long (limit: 1000 characters)',
  });
  t.same(errorOf(await report(s, OTHELLO, id, { description: 'x'.repeat(1001) })).msg, 'description is too long (limit: 1000 characters)', 'description is read first');
  t.same(errorOf(await report(s, OTHELLO, id, {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'report_type' argument" });
  t.equal((await report(s, OTHELLO, id, { report_type: 'spam', description: 'x'.repeat(1000) })).status, 200);
});

t.test('"other" needs a non-empty explanation, which is not stripped', async (t) => {
  const s = moderated();
  const id = await post(s, HAMLET, { type: 'stream', to: 'Verona', topic: 'x', content: 'x' });
  const before = s.world.messages.size;
  t.same(errorOf(await report(s, OTHELLO, id, { report_type: 'other' })), { status: 400, code: 'BAD_REQUEST', msg: 'An explanation is required.' });
  t.equal(s.world.messages.size, before);
  t.equal((await report(s, OTHELLO, id, { report_type: 'other', description: '   ' })).status, 200);
  t.match(newest(s)?.content, '**Other reason**.    \n');
});

t.test('without a moderation channel reporting is refused, after the explanation check', async (t) => {
  const s = testServer();
  const id = await post(s, HAMLET, { type: 'stream', to: 'Verona', topic: 'x', content: 'x' });
  const before = s.world.messages.size;
  t.same(errorOf(await report(s, OTHELLO, id, { report_type: 'spam' })), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'Message reporting is not enabled in this organization.',
  });
  t.same(errorOf(await report(s, OTHELLO, id, { report_type: 'other' })).msg, 'An explanation is required.');
  t.same(errorOf(await report(s, OTHELLO, 999, { report_type: 'spam' })).msg, 'Message reporting is not enabled in this organization.');
  t.equal(s.world.messages.size, before);
});

t.test('the reporter needs read access to the message', async (t) => {
  const s = moderated();
  const invalid = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' };
  t.same(errorOf(await report(s, OTHELLO, 999, { report_type: 'spam' })), invalid);
  const dm = await post(s, HAMLET, { type: 'direct', to: [8], content: 'x' });
  t.same(errorOf(await report(s, OTHELLO, dm, { report_type: 'spam' })), invalid);
  const core = await post(s, HAMLET, { type: 'stream', to: 'core team', topic: 'x', content: 'x' });
  t.same(errorOf(await report(s, OTHELLO, core, { report_type: 'spam' })), invalid);
  const before = s.world.messages.size;
  const scotland = await post(s, 'ZOE@zulip.com', { type: 'stream', to: 'Scotland', topic: 'x', content: 'x' });
  t.equal((await report(s, 'cordelia@zulip.com', scotland, { report_type: 'spam' })).status, 200, 'public channel, not subscribed');
  t.equal(s.world.messages.size, before + 2);
});

t.test('a moderation channel that allows only the empty topic gets the report there', async (t) => {
  const s = moderated();
  const channel = s.world.streams.get(s.streamId('core team'));
  if (channel) channel.topicsPolicy = 'empty_topic_only';
  const id = await post(s, HAMLET, { type: 'stream', to: 'Verona', topic: 'x', content: 'x' });
  await report(s, OTHELLO, id, { report_type: 'spam' });
  t.same(newest(s)?.recipient, { kind: 'stream', streamId: s.streamId('core team'), topic: '' });
});

t.test('long reported content is cut at 8500 characters; fences in it get a longer fence', async (t) => {
  const s = moderated();
  const long = await post(s, HAMLET, { type: 'stream', to: 'Verona', topic: 'x', content: 'y'.repeat(10000) });
  await report(s, OTHELLO, long, { report_type: 'spam' });
  const snippet = `${'y'.repeat(8500 - 20)}\n[message truncated]`;
  t.ok(newest(s)?.content.endsWith(`#**Verona>x@${long}**\n${snippet}\n\`\`\``));
  const fenced = await post(s, HAMLET, { type: 'stream', to: 'Verona', topic: 'x', content: '```\ncode\n```' });
  await report(s, OTHELLO, fenced, { report_type: 'spam' });
  t.ok(newest(s)?.content.endsWith(`\`\`\`\` spoiler Original message at #**Verona>x@${fenced}**\n\`\`\`\ncode\n\`\`\`\n\`\`\`\``));
});

t.test('names that break #**...** syntax get a plain narrow link', async (t) => {
  const s = moderated();
  const id = await post(s, HAMLET, { type: 'stream', to: 'Verona', topic: 'a*b', content: 'x' });
  await report(s, OTHELLO, id, { report_type: 'spam' });
  t.match(newest(s)?.content, `Original message at [#Verona > a&#42;b @ 💬](#narrow/channel/${s.streamId('Verona')}-Verona/topic/a*b/near/${id})`);
});

t.test('the endpoint exists from level 382', async (t) => {
  const s = moderated({ featureLevel: 381 });
  const id = await post(s, HAMLET, { type: 'stream', to: 'Verona', topic: 'x', content: 'x' });
  t.equal((await report(s, OTHELLO, id, { report_type: 'spam' })).status, 404);
});
