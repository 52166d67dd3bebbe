/**
 * Property: whatever happens to the history (sends, edits, topic and channel moves, deletions,
 * flag changes through every endpoint or on a row directly, subscription changes, muted topics),
 * the history index answers exactly what a scan of every message answers: each user's lists,
 * each channel's, topic's, conversation's and sender's messages, the messages of each search
 * word, `GET /messages` windows for narrows of every indexed kind (and `first_unread`), a
 * channel's topics; and a world restored from a snapshot rebuilds the same index.
 */
import fc from 'fast-check';
import t from 'tap';
import { loadFixture } from '../fixtures/index.js';
import type { User } from '../lib/entities/user.js';
import { lexeme } from '../lib/narrow/search.js';
import type { NarrowTerm } from '../lib/narrow/terms.js';
import { channelTopics } from '../lib/queries/messages/topics.js';
import { firstUnreadAnchor, LARGER_THAN_MAX_MESSAGE_ID, limitToRange, matchingMessages } from '../lib/queries/messages/message-fetch.js';
import { ascending } from '../lib/state/history/id-sources.js';
import { restoreWorld, snapshotWorld } from '../lib/state/world-snapshot.js';
import type { World } from '../lib/state/world.js';
import { applyHistoryCommand, CHANNELS, historyCommand, PEOPLE, TOPICS, WORDS } from './support/history-commands.js';
import { indexedConversations, scannedConversations, scannedSearch, scannedTopics, scannedUserList, scannedWindow, USER_LISTS } from './support/history-oracle.js';
import { testServer } from './support/harness.js';

/** The development realm with a few plain messages more: stored with their rendering left for later. */
function fixture() {
  const base = loadFixture();
  const plain = ['Kiwi apple mango', 'Plums and kiwis, please.', 'Alpha gamma rays now?'].map((content, i) => ({
    sender: 'othello@zulip.com',
    type: 'stream' as const,
    to: [i === 1 ? 'Denmark' : 'Verona'],
    topic: TOPICS[i] as string,
    content,
    sentAt: '2025-05-01T10:00:00Z',
    unreadBy: ['hamlet@zulip.com'],
  }));
  return { ...base, messages: [...(base.messages ?? []), ...plain] };
}

const readers = (world: World): User[] => PEOPLE.map((email) => world.usersByEmail.get(email) as User);

/** Narrows of every indexed kind (and a negation and a filter-only term), for one reader. */
function narrowsFor(reader: User): NarrowTerm[][] {
  const term = (operator: string, operand: NarrowTerm['operand'], negated = false): NarrowTerm => ({ operator, operand, negated });
  const other = reader.id === 11 ? 10 : 11;
  return [
    [],
    [term('channel', 'Verona')],
    [term('channel', 'Denmark'), term('topic', 'alpha')],
    [term('topic', 'ALPHA')],
    [term('sender', 12)],
    [term('dm', [other])],
    [term('dm-including', other)],
    [term('is', 'dm')],
    [term('is', 'starred')],
    [term('is', 'unread'), term('channel', 'Verona')],
    [term('is', 'mentioned')],
    [term('search', 'kiwi')],
    [term('search', 'apples plum')],
    [term('channel', 'Verona'), term('search', 'mango'), term('sender', 11, true)],
    [term('channels', 'public'), term('search', 'gamma')],
    [term('streams', 'public'), term('has', 'reaction', true)],
    [term('channels', 'web-public'), term('topic', 'alpha')],
  ];
}

/** Throws, naming the answer, when the index and the scan disagree. */
function same(actual: unknown, expected: unknown, what: string): void {
  const [a, e] = [JSON.stringify(actual, (_k, v: unknown) => (v instanceof Map ? [...v] : v)), JSON.stringify(expected, (_k, v: unknown) => (v instanceof Map ? [...v] : v))];
  if (a !== e) throw new Error(`${what}: indexed ${a}, scanned ${e}`);
}

function checkIndex(world: World, label: string): void {
  const index = world.messages.index;
  for (const user of readers(world)) {
    for (const name of USER_LISTS) same([...ascending(index.user(user.id, name))], scannedUserList(world, user.id, name), `${label}: ${user.deliveryEmail} ${name}`);
  }
  const scanned = scannedConversations(world);
  same(indexedConversations(world, scanned.keys()), scanned, `${label}: conversation lists`);
  same([...ascending(index.all)], [...world.messages.keys()].sort((a, b) => a - b), `${label}: every message`);
  // Exact here: every spelling of a topic in these runs has the same words (the index may hold more otherwise).
  for (const word of WORDS) same([...ascending(index.word(lexeme(word)) ?? index.all)], scannedSearch(world, word), `${label}: messages with ${word}`);
}

/** What a spectator (no account) reads: web-public channels. */
const SPECTATOR_NARROWS: NarrowTerm[][] = [
  [{ operator: 'channels', operand: 'web-public', negated: false }],
  [{ operator: 'channels', operand: 'web-public', negated: false }, { operator: 'search', operand: 'kiwi', negated: false }],
];

function checkWindows(world: World, reader: User | null, narrow: readonly NarrowTerm[], label: string): void {
  const matches = matchingMessages(world, reader, narrow);
  for (const anchor of [LARGER_THAN_MAX_MESSAGE_ID, 0, null, 5]) {
    const request = { anchor, includeAnchor: true, numBefore: anchor === 0 ? 0 : 3, numAfter: anchor === LARGER_THAN_MAX_MESSAGE_ID ? 0 : 3 };
    const anchorId = anchor ?? firstUnreadAnchor(world, reader, narrow, matches.test);
    const window = limitToRange(matches.source, anchorId, request);
    const got = { ids: window.messages.map((m) => m.id), anchor: anchorId, foundAnchor: window.foundAnchor, foundOldest: window.foundOldest, foundNewest: window.foundNewest };
    same(got, scannedWindow(world, reader, narrow, request), `${label}: ${reader?.deliveryEmail ?? 'a spectator'} ${JSON.stringify(narrow)} at ${anchor}`);
  }
}

function checkReads(world: World, label: string): void {
  for (const narrow of SPECTATOR_NARROWS) checkWindows(world, null, narrow, label);
  for (const reader of readers(world)) {
    for (const narrow of narrowsFor(reader)) checkWindows(world, reader, narrow, label);
    for (const name of CHANNELS) {
      const stream = world.streamByName(name);
      if (stream) same(channelTopics(world, reader, stream, true), scannedTopics(world, reader, stream.id), `${label}: ${reader.deliveryEmail} topics of ${name}`);
    }
  }
}

t.test('the history index answers what a scan of every message answers, after any sequence of changes', async (t) => {
  const seeded = fixture();
  await fc.assert(
    fc.asyncProperty(fc.array(historyCommand, { minLength: 10, maxLength: 30 }), async (commands) => {
      const s = testServer({ fixture: seeded });
      for (const [step, command] of commands.entries()) {
        await applyHistoryCommand(s, command);
        checkIndex(s.world, `after step ${step} (${command.kind})`);
      }
      checkReads(s.world, 'at the end');
      const restored = restoreWorld(snapshotWorld(s.world));
      checkIndex(restored, 'restored');
      checkReads(restored, 'restored');
    }),
    { numRuns: 30 },
  );
  t.pass('every run agreed');
});

t.test('a search for a word of a message stored unrendered finds it, and its HTML is what rendering it then gave', async (t) => {
  const s = testServer({ fixture: fixture() });
  const found = scannedSearch(s.world, 'kiwi').map((id) => s.world.messages.get(id)?.content);
  t.ok(found.includes('Kiwi apple mango') && found.includes('Plums and kiwis, please.'), 'both plain messages holding the word');
  const plain = [...s.world.messages.values()].find((m) => m.content === 'Kiwi apple mango');
  t.equal(plain?.renderedContent, '<p>Kiwi apple mango</p>');
});
