/**
 * Linkifier patterns are an administrator's input and run on every topic a message carries: a
 * pattern built for catastrophic backtracking must not stall the server for everyone else.
 */
import t from 'tap';
import { testServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
/** Nested quantifiers anchored at the end: exponential time on a backtracking engine. */
const EVIL_PATTERNS = ['(?P<id>(a+)+)$', '(?P<id>(a|aa)+)$', '(?P<id>(a*)*b)'];

for (const pattern of EVIL_PATTERNS) {
  t.test(`a message whose 60-character topic meets the linkifier ${pattern} is sent and read back within a second`, async (t) => {
    const s = testServer();
    const added = await s.as(IAGO).post('/realm/filters', { pattern, url_template: 'https://example.com/{id}' });
    t.equal(added.status, 200, 'RE2 accepts the pattern, as the real server does');
    const topic = `${'a'.repeat(59)}!`;
    const started = performance.now();
    const sent = await s.as(IAGO).post('/messages', { type: 'stream', to: 'Verona', topic, content: 'hi' });
    const read = await s.as(IAGO).get(`/messages/${sent.body.id as number}`);
    const elapsed = performance.now() - started;
    t.equal(sent.status, 200);
    t.same(read.body.message.topic_links, [], 'no match: the topic does not end in a run of a');
    // A backtracking engine needs minutes here; linear matching takes well under a millisecond.
    t.ok(elapsed < 1000, `answered in ${elapsed.toFixed(1)} ms`);
  });
}

t.test('a matching topic still gets its link', async (t) => {
  const s = testServer();
  await s.as(IAGO).post('/realm/filters', { pattern: '(?P<id>(a+)+)$', url_template: 'https://example.com/{id}' });
  const sent = await s.as(IAGO).post('/messages', { type: 'stream', to: 'Verona', topic: 'x aaa', content: 'hi' });
  const read = await s.as(IAGO).get(`/messages/${sent.body.id as number}`);
  t.same(read.body.message.topic_links, [{ text: 'aaa', url: 'https://example.com/aaa' }]);
});
