/**
 * The operations `history-scale` times, each made by Hamlet (a member, ID 10) and answered 200.
 * Windows are the newest 50 unless said otherwise; `i` alternates writes so that every pair of
 * samples leaves the history as it found it (sends excepted: each adds one message).
 */
import type { HistoryPlan } from './history-scale-fixture.js';

export interface HistoryRequest {
  readonly method: string;
  readonly path: string;
  readonly params?: Record<string, string>;
}

/** What a request needs besides the plan: IDs the worker looked up in its world. */
export interface HistorySide extends HistoryPlan {
  /** A message Hamlet received half-way through the history. */
  readonly middleId: number;
}

export interface HistoryOperation {
  readonly name: string;
  request(i: number, side: HistorySide): HistoryRequest;
  /** An untimed request after the timed one (a queue to delete), given its answer. */
  cleanup?(answer: Record<string, unknown>): HistoryRequest | undefined;
}

const IAGO = 11;
const OTHELLO = 12;

const fetch = (narrow: unknown[], anchor = 'newest', before = 50, after = 0): HistoryRequest => ({
  method: 'GET',
  path: '/messages',
  params: { anchor, num_before: String(before), num_after: String(after), narrow: JSON.stringify(narrow), apply_markdown: 'true' },
});

const term = (operator: string, operand: unknown) => ({ operator, operand });

export const HISTORY_OPERATIONS: readonly HistoryOperation[] = [
  { name: 'GET /messages newest 50', request: () => fetch([]) },
  { name: 'GET /messages oldest 50', request: () => fetch([], 'oldest', 0, 50) },
  { name: 'GET /messages first_unread 25+25', request: () => fetch([], 'first_unread', 25, 25) },
  { name: 'channel narrow', request: (_i, s) => fetch([term('channel', s.channel)]) },
  { name: 'topic narrow', request: (_i, s) => fetch([term('channel', s.channel), term('topic', s.topic)]) },
  { name: 'sender narrow', request: () => fetch([term('sender', OTHELLO)]) },
  { name: 'direct-message narrow', request: () => fetch([term('dm', [IAGO])]) },
  { name: 'is:starred narrow', request: () => fetch([term('is', 'starred')]) },
  { name: 'search, rare word', request: (_i, s) => fetch([term('search', s.rareWord)]) },
  { name: 'search, common word', request: (_i, s) => fetch([term('search', s.commonWord)]) },
  {
    name: 'POST /messages/flags/narrow (star 50)',
    request: (i, s) => ({
      method: 'POST',
      path: '/messages/flags/narrow',
      params: {
        narrow: JSON.stringify([term('channel', s.channel)]),
        anchor: 'newest',
        num_before: '50',
        num_after: '0',
        include_anchor: 'true',
        op: i % 2 === 0 ? 'add' : 'remove',
        flag: 'starred',
      },
    }),
  },
  {
    name: 'POST /register (unread state)',
    request: () => ({ method: 'POST', path: '/register', params: { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) } }),
    cleanup: (answer) => (typeof answer.queue_id === 'string' ? { method: 'DELETE', path: '/events', params: { queue_id: answer.queue_id } } : undefined),
  },
  {
    name: 'POST /messages (send)',
    request: (i, s) => ({ method: 'POST', path: '/messages', params: { type: 'stream', to: s.channel, topic: 'bench', content: `Benchmark message ${i}.` } }),
  },
  { name: 'GET /messages/{id}', request: (_i, s) => ({ method: 'GET', path: `/messages/${s.middleId}` }) },
];
