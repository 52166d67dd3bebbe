/**
 * Property: for random messages (several channels, topics, DMs, flags, reactions) and random
 * narrows (negations included) and windows, GET /messages answers exactly what a
 * straightforward filter over the model gives, in order, with the same found_* flags, and
 * BAD_NARROW exactly when the narrow asks for channel and direct messages at once.
 */
import fc from 'fast-check';
import t from 'tap';
import { testServer, withoutSeededMessages, type TestServer } from './support/harness.js';
import { sendDirect, sendToChannel } from './support/messages.js';

const HAMLET = 10;
const SENDERS = ['hamlet@zulip.com', 'othello@zulip.com', 'iago@zulip.com', 'cordelia@zulip.com'];
const CHANNELS = ['Verona', 'Denmark', 'Scotland'];
const TOPICS = ['alpha', 'beta', 'Alpha'];
const WORDS = ['apple', 'kiwi', 'mango', 'plum'];
const PEOPLE = [12, 11, 8];
const NEWEST = 10_000_000_000_000_000;

interface MessageSpec {
  readonly sender: string;
  readonly to: { readonly channel: string; readonly topic: string } | { readonly dm: number[] };
  readonly words: string[];
  readonly read: boolean;
  readonly starred: boolean;
  readonly reacted: boolean;
}

const messageArb: fc.Arbitrary<MessageSpec> = fc.record({
  sender: fc.constantFrom(...SENDERS),
  to: fc.oneof(
    fc.record({ channel: fc.constantFrom(...CHANNELS), topic: fc.constantFrom(...TOPICS) }),
    fc.record({ dm: fc.uniqueArray(fc.constantFrom(HAMLET, ...PEOPLE), { minLength: 1, maxLength: 3 }) }),
  ),
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  read: fc.boolean(),
  starred: fc.boolean(),
  reacted: fc.boolean(),
});

interface Term {
  readonly operator: string;
  readonly operand: string | number;
  readonly negated: boolean;
}
const termArb: fc.Arbitrary<Term> = fc.record({
  operator: fc.constantFrom('stream', 'topic', 'sender', 'is', 'has', 'dm-including', 'search'),
  pick: fc.nat(),
  negated: fc.boolean(),
}).map(({ operator, pick, negated }) => {
  const choose = <T>(list: readonly T[]): T => list[pick % list.length] as T;
  const operand: Record<string, string | number> = {
    stream: choose(CHANNELS),
    topic: choose(TOPICS),
    sender: choose([HAMLET, ...PEOPLE]),
    is: choose(['dm', 'starred', 'unread']),
    has: 'reaction',
    'dm-including': choose(PEOPLE),
    search: choose(WORDS).toUpperCase(),
  };
  return { operator, operand: operand[operator] as string | number, negated };
});

const queryArb = fc.record({
  narrow: fc.array(termArb, { maxLength: 3 }),
  anchor: fc.oneof(fc.constantFrom('oldest', 'newest', 'first_unread'), fc.integer({ min: 0, max: 14 }).map(String)),
  numBefore: fc.integer({ min: 0, max: 4 }),
  numAfter: fc.integer({ min: 0, max: 4 }),
  includeAnchor: fc.boolean(),
});

interface Model {
  readonly id: number;
  readonly senderId: number;
  readonly channel?: string;
  readonly topic?: string;
  readonly dm?: readonly number[];
  readonly words: readonly string[];
  readonly row: boolean;
  readonly read: boolean;
  readonly starred: boolean;
  readonly reacted: boolean;
}

async function build(s: TestServer, specs: readonly MessageSpec[]): Promise<Model[]> {
  const models: Model[] = [];
  for (const spec of specs) {
    const content = spec.words.join(' ');
    const id =
      'channel' in spec.to
        ? await sendToChannel(s, spec.sender, spec.to.channel, spec.to.topic, content)
        : await sendDirect(s, spec.sender, spec.to.dm, content);
    const message = s.world.messages.get(id);
    if (!message) throw new Error('missing message');
    const row = message.flags.get(HAMLET);
    if (row) {
      if (spec.read) row.add('read');
      else row.delete('read');
      if (spec.starred) row.add('starred');
    }
    if (spec.reacted) message.reactions.push({ userId: 12, emojiName: 'tada', emojiCode: '1f389', reactionType: 'unicode_emoji' });
    models.push({
      id,
      senderId: message.senderId,
      ...(message.recipient.kind === 'stream' && 'channel' in spec.to
        ? { channel: spec.to.channel, topic: message.recipient.topic }
        : { dm: message.recipient.kind === 'direct' ? message.recipient.userIds : [] }),
      words: spec.words,
      row: row !== undefined,
      read: row === undefined || row.has('read'),
      starred: row?.has('starred') === true,
      reacted: spec.reacted,
    });
  }
  return models;
}

function holds(term: Term, m: Model): boolean {
  const { operand } = term;
  switch (term.operator) {
    case 'stream':
      return m.channel === operand;
    case 'topic':
      return m.topic !== undefined && m.topic.toLowerCase() === String(operand).toLowerCase();
    case 'sender':
      return m.senderId === operand;
    case 'is':
      return operand === 'dm' ? m.dm !== undefined : operand === 'starred' ? m.starred : !m.read;
    case 'has':
      return m.reacted;
    case 'dm-including':
      return m.dm !== undefined && m.dm.includes(operand as number) && m.dm.includes(HAMLET);
    default:
      return true;
  }
}

/** The straightforward reading of a narrow: what the reader may search, filtered term by term. */
function expected(models: readonly Model[], narrow: readonly Term[]): Model[] | 'conflict' {
  const channelTerm = narrow.some((t) => (!t.negated && ['stream', 'topic'].includes(t.operator)) || (t.negated && t.operator === 'is' && t.operand === 'dm'));
  const dmTerm = narrow.some((t) => !t.negated && (t.operator === 'dm-including' || (t.operator === 'is' && t.operand === 'dm')));
  if (channelTerm && dmTerm) return 'conflict';
  // Public channels' history is searched when the last non-negated channel term names one and no is: term is present.
  const history = narrow.some((t) => t.operator === 'stream' && !t.negated) && !narrow.some((t) => t.operator === 'is');
  const words = narrow.filter((t) => t.operator === 'search').map((t) => String(t.operand).toLowerCase());
  return models.filter(
    (m) =>
      (m.row || history) &&
      narrow.every((t) => t.operator === 'search' || holds(t, m) !== t.negated) &&
      words.every((w) => m.words.includes(w) || m.topic?.toLowerCase() === w),
  );
}

t.test('GET /messages agrees with a straightforward filter over the model', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(messageArb, { minLength: 1, maxLength: 12 }), fc.array(queryArb, { minLength: 1, maxLength: 4 }), async (specs, queries) => {
      const s = testServer({ fixture: withoutSeededMessages() });
      const models = await build(s, specs);
      for (const q of queries) {
        const reply = await s.as('hamlet@zulip.com').get('/messages', {
          anchor: q.anchor,
          num_before: q.numBefore,
          num_after: q.numAfter,
          include_anchor: q.includeAnchor,
          narrow: q.narrow,
        });
        const matches = expected(models, q.narrow);
        if (q.numBefore > 0 && q.numAfter > 0 && !q.includeAnchor) {
          if (reply.status !== 400) throw new Error(`expected the mid-range error, got ${reply.text}`);
          continue;
        }
        if (matches === 'conflict') {
          if (reply.body.code !== 'BAD_NARROW') throw new Error(`expected BAD_NARROW, got ${reply.text}`);
          continue;
        }
        const firstUnread = matches.find((m) => m.row && !m.read)?.id ?? NEWEST;
        const anchor = q.anchor === 'oldest' ? 0 : q.anchor === 'newest' ? NEWEST : q.anchor === 'first_unread' ? firstUnread : Number(q.anchor);
        const numAfter = anchor >= NEWEST ? 0 : q.numAfter;
        const before = matches.filter((m) => m.id < anchor);
        const after = matches.filter((m) => m.id > anchor);
        const atAnchor = matches.filter((m) => m.id === anchor && (q.includeAnchor || (q.numBefore === 0 && numAfter === 0)));
        const want = {
          ids: [...(q.numBefore ? before.slice(-q.numBefore) : []), ...atAnchor, ...(numAfter ? after.slice(0, numAfter) : [])].map((m) => m.id),
          found_anchor: atAnchor.length === 1,
          found_oldest: anchor === 0 || before.length < q.numBefore,
          found_newest: anchor >= NEWEST || after.length < numAfter,
          anchor,
        };
        const got = {
          ids: (reply.body.messages as { id: number }[] | undefined)?.map((m) => m.id),
          found_anchor: reply.body.found_anchor,
          found_oldest: reply.body.found_oldest,
          found_newest: reply.body.found_newest,
          anchor: reply.body.anchor,
        };
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          throw new Error(`query ${JSON.stringify(q)}\nwant ${JSON.stringify(want)}\ngot  ${JSON.stringify(got)} ${reply.status === 200 ? '' : reply.text}`);
        }
      }
    }),
    { numRuns: Number(process.env.MESSAGE_FETCH_RUNS ?? 60) },
  );
  t.pass();
});
