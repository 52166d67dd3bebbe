/**
 * Each event reaches each queue at most once, and a message reaches exactly the queues that
 * should see it: its recipients' queues, plus `all_public_streams` (and narrowed) queues for
 * public channels, filtered by `event_types` and `narrow`. Random registrations and sends.
 */
import fc from 'fast-check';
import t from 'tap';
import { CORDELIA, HAMLET, IAGO, OTHELLO, POLONIUS } from './support/channels.js';
import { type Params, testServer } from './support/harness.js';

const MEMBERS = [IAGO, HAMLET, OTHELLO, CORDELIA] as const;
const CHANNELS = ['Verona', 'Denmark', 'Scotland', 'core team'] as const;

const registrationArb = fc.record({
  who: fc.constantFrom(...MEMBERS, POLONIUS),
  allPublicStreams: fc.boolean(),
  narrow: fc.constantFrom<ReadonlyArray<readonly [string, string]>>([], [['channel', 'Verona']], [['is', 'mentioned']], [['channel', 'Denmark']]),
  eventTypes: fc.constantFrom<readonly string[] | null>(null, ['message'], ['message', 'update_message_flags'], ['subscription']),
});

const sendArb = fc.record({
  from: fc.constantFrom(...MEMBERS),
  to: fc.constantFrom(...CHANNELS),
  mention: fc.constantFrom('', '@**Othello, the Moor of Venice** ', '@**all** '),
});

interface Registered {
  readonly who: string;
  readonly queueId: string;
  readonly allPublicStreams: boolean;
  readonly narrow: ReadonlyArray<readonly [string, string]>;
  readonly eventTypes: readonly string[] | null;
}

t.test('every message event reaches each queue once, and exactly the queues that should see it', async (t) => {
  // One realm for every run (building one per run dominates the time); each run registers fresh queues.
  const s = testServer();
  await fc.assert(
    fc.asyncProperty(fc.array(registrationArb, { minLength: 1, maxLength: 6 }), fc.array(sendArb, { minLength: 1, maxLength: 4 }), async (registrations, sends) => {
      const queues: Registered[] = [];
      for (const r of registrations) {
        // Guests may not ask for every public channel.
        const allPublicStreams = r.allPublicStreams && r.who !== POLONIUS;
        const params: Params = {
          fetch_event_types: [],
          all_public_streams: allPublicStreams,
          narrow: r.narrow,
          ...(r.eventTypes === null ? {} : { event_types: r.eventTypes }),
        };
        const reply = await s.as(r.who).post('/register', params);
        if (reply.status !== 200) throw new Error(reply.text);
        queues.push({ ...r, allPublicStreams, queueId: reply.body.queue_id as string });
      }
      const sent: number[] = [];
      for (const m of sends) {
        const reply = await s.as(m.from).post('/messages', { type: 'stream', to: m.to, topic: 'lunch', content: `${m.mention}hi` });
        // A sender not subscribed to a private channel is refused; that send delivers nothing.
        if (reply.status === 200) sent.push(reply.body.id as number);
      }
      for (const q of queues) {
        const poll = await s.as(q.who).get('/events', { queue_id: q.queueId, last_event_id: -1, dont_block: true });
        const events = poll.body.events as Array<{ type: string; id: number; message?: { id: number }; flags?: string[] }>;
        const ids = events.map((e) => e.id);
        if (new Set(ids).size !== ids.length) throw new Error(`event ids repeat in ${q.who}'s queue`);
        const received = events.filter((e) => e.type === 'message').map((e) => e.message?.id as number);
        if (new Set(received).size !== received.length) throw new Error(`a message arrived twice in ${q.who}'s queue: ${received.join(',')}`);
        const expected = sent.filter((id) => shouldReceive(s.world, q, s.id(q.who), id));
        if (received.join(',') !== expected.join(',')) {
          throw new Error(`${q.who} (${JSON.stringify(q)}) received [${received.join(',')}], expected [${expected.join(',')}]`);
        }
      }
    }),
    { numRuns: 30 },
  );
  t.pass('property held');
});

function shouldReceive(world: ReturnType<typeof testServer>['world'], q: Registered, userId: number, messageId: number): boolean {
  if (q.eventTypes !== null && !q.eventTypes.includes('message')) return false;
  const message = world.messages.get(messageId);
  if (!message || message.recipient.kind !== 'stream') return false;
  const stream = world.streams.get(message.recipient.streamId);
  if (!stream) return false;
  const recipient = message.flags.has(userId);
  // As on the real server, a narrowed queue also hears public channels it is not subscribed to.
  const hearsPublic = q.allPublicStreams || q.narrow.length > 0;
  if (!recipient && !(hearsPublic && !stream.inviteOnly)) return false;
  const flags = recipient ? [...(message.flags.get(userId) ?? [])] : [];
  return q.narrow.every(([operator, operand]) =>
    operator === 'channel' ? operand.toLowerCase() === stream.name.toLowerCase() : operand !== 'mentioned' || flags.includes('mentioned'),
  );
}
