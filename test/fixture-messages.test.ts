import t from 'tap';
import { loadFixture } from '../fixtures/index.js';
import type { Fixture } from '../lib/fixture/schema.js';
import { buildWorld, FixtureError } from '../lib/fixture/build.js';
import { ManualClock } from '../lib/state/clock.js';
import { testServer } from './support/harness.js';

const DEV = loadFixture();
const build = (fixture: Fixture) => buildWorld(fixture, { clock: new ManualClock(Date.UTC(2025, 0, 1)) });
type FixtureMessage = NonNullable<Fixture['messages']>[number];
const withMessages = (messages: FixtureMessage[]): Fixture => ({ ...DEV, messages });
const flagsOf = (s: ReturnType<typeof testServer>, id: number, email: string) => [...(s.world.messages.get(id)?.flags.get(s.id(email)) ?? [])].sort();

t.test('a fixture without messages still loads, with an empty message table', async (t) => {
  const { messages: _messages, ...withoutMessages } = DEV;
  t.equal(build(withoutMessages).messages.size, 0);
});

t.test('the development realm is seeded with channel messages, DMs and group DMs, with deterministic IDs and dates', async (t) => {
  const first = build(DEV);
  const second = build(DEV);
  t.ok(first.messages.size >= 30, 'a living organization');
  t.same([...first.messages.keys()], Array.from({ length: first.messages.size }, (_, i) => i + 1), 'IDs 1..n in fixture order');
  t.same(
    [...first.messages.values()].map((m) => [m.id, m.sentAt, m.renderedContent]),
    [...second.messages.values()].map((m) => [m.id, m.sentAt, m.renderedContent]),
  );
  const kinds = [...first.messages.values()].map((m) => (m.recipient.kind === 'stream' ? 'channel' : m.recipient.userIds.length > 2 ? 'group' : 'dm'));
  t.ok(kinds.includes('channel') && kinds.includes('dm') && kinds.includes('group'));
  const channels = new Set([...first.messages.values()].flatMap((m) => (m.recipient.kind === 'stream' ? [m.recipient.streamId] : [])));
  t.ok(channels.size >= 5, 'several channels');
  t.ok([...first.messages.values()].some((m) => m.reactions.length > 0), 'some reactions');
  t.equal(first.streamByName('Verona')?.firstMessageId, 1);
});

t.test('seeded messages are rendered and flagged as sent messages are', async (t) => {
  const s = testServer();
  const verona = s.streamId('Verona');
  const messages = [...s.world.messages.values()];
  const mentionOfHamlet = messages.find((m) => m.content.startsWith('@**King Hamlet** did it say'));
  t.match(mentionOfHamlet?.renderedContent, `<span class="user-mention" data-user-id="${s.id('hamlet@zulip.com')}">@King Hamlet</span>`);
  t.same(flagsOf(s, mentionOfHamlet!.id, 'hamlet@zulip.com'), ['mentioned'], 'mentioned and unread');
  const lunch = messages.find((m) => m.recipient.kind === 'stream' && m.recipient.streamId === verona && m.recipient.topic === 'lunch');
  t.same(lunch?.reactions.map((r) => [r.emojiName, r.emojiCode, r.reactionType]), [
    ['thumbs_up', '1f44d', 'unicode_emoji'],
    ['thumbs_up', '1f44d', 'unicode_emoji'],
    ['thumbs_up', '1f44d', 'unicode_emoji'],
  ]);
  const notes = messages.find((m) => m.content.startsWith('The 4.0 release notes'));
  t.same(flagsOf(s, notes!.id, 'iago@zulip.com'), ['read', 'starred']);
  t.same(notes?.reactions.map((r) => r.reactionType), ['realm_emoji', 'realm_emoji']);
  const groupDm = messages.find((m) => m.content === "I'll write the script.");
  t.same(groupDm?.recipient, { kind: 'direct', userIds: [s.id('cordelia@zulip.com'), s.id('hamlet@zulip.com'), s.id('iago@zulip.com')].sort((a, b) => a - b) });
  t.same(flagsOf(s, groupDm!.id, 'hamlet@zulip.com'), []);
  t.same(flagsOf(s, groupDm!.id, 'iago@zulip.com'), ['read'], 'the sender has read it');
  const fetched = await s.as('hamlet@zulip.com').get(`/messages/${groupDm!.id}`);
  t.equal(fetched.status, 200);
  t.equal(fetched.body.message.content, "<p>I'll write the script.</p>");
});

t.test('bad message entries are refused with the entry named', async (t) => {
  const base: FixtureMessage = { sender: 'hamlet@zulip.com', type: 'stream', to: ['Verona'], topic: 't', content: 'hi', sentAt: '2024-12-01T10:00:00Z' };
  const cases: ReadonlyArray<readonly [string, Partial<FixtureMessage>, string]> = [
    ['an unknown sender', { sender: 'nobody@zulip.com' }, 'fixture.messages[0]: no user with email nobody@zulip.com'],
    ['an unknown channel', { to: ['Atlantis'] }, 'fixture.messages[0]: no channel named Atlantis'],
    ['a channel message without topic', { topic: undefined }, 'fixture.messages[0]: a channel message needs a topic'],
    ['an unreadable date', { sentAt: 'yesterday' }, 'fixture.messages[0]: not a date: yesterday'],
    ['empty content', { content: '  ' }, 'fixture.messages[0]: empty content'],
    ['an unknown emoji', { reactions: [{ emoji: 'no_such_emoji', users: ['hamlet@zulip.com'] }] }, "fixture.messages[0]: Emoji 'no_such_emoji' does not exist"],
    ['a flag for a user who did not receive it', { type: 'direct', to: ['iago@zulip.com'], starredBy: ['othello@zulip.com'] }, 'fixture.messages[0]: othello@zulip.com did not receive this message'],
  ];
  for (const [what, change, message] of cases) {
    const entry = { ...base, ...change } as FixtureMessage;
    if ('topic' in change && change.topic === undefined) delete (entry as { topic?: string }).topic;
    t.throws(() => build(withMessages([entry])), new FixtureError(message), what);
  }
});
