/**
 * What the development page's live log shows: the last requests (method, path, status, user,
 * milliseconds, the fault that touched it) and the events the world sent (type, op, recipients),
 * in one numbered sequence so a reader asks only for what is newer than the last entry it saw.
 * Bounded: the oldest entries are dropped past `capacity`.
 */
import type { Recipients } from '../../lib/state/audience.js';
import type { ChatEvent } from '../../lib/state/event-hub.js';
import type { World } from '../../lib/state/world.js';
import type { ApiRequest, ApiResponse } from '../app/request.js';

export interface RequestEntry {
  readonly seq: number;
  readonly kind: 'request';
  /** Milliseconds since the epoch (real time). */
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly user: string;
  readonly ms: number;
  readonly fault: string | null;
}

export interface EventEntry {
  readonly seq: number;
  readonly kind: 'event';
  readonly at: number;
  readonly type: string;
  readonly op: string | null;
  /** The recipients' IDs (the first 20), or null when the event went to an audience (everyone, a channel's subscribers). */
  readonly user_ids: readonly number[] | null;
  readonly user_count: number | null;
}

export type ActivityEntry = RequestEntry | EventEntry;

const SHOWN_RECIPIENTS = 20;

/** The email of Basic credentials (who the log says made the request), or '-'. */
export function claimedUser(authorization: string | undefined): string {
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,4096})$/i.exec(authorization ?? '');
  if (!match?.[1]) return '-';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : '-';
}

/** A request as recorded: the credentials are decoded only when the log is read. */
interface StoredRequest extends Omit<RequestEntry, 'user'> {
  readonly authorization: string | undefined;
}

type Stored = StoredRequest | EventEntry;

export class ActivityLog {
  /** A ring: entry `seq` sits at `seq % capacity`, so recording costs the same however full it is. */
  private readonly ring: Array<Stored | undefined>;
  private seq = 0;
  private unsubscribe: (() => void) | undefined;
  private watched: World | undefined;

  constructor(readonly capacity = 500) {
    this.ring = new Array<Stored | undefined>(capacity);
  }

  /** Listens to `world`'s events (and stops listening to the previous world's). */
  watch(world: World): void {
    if (world === this.watched) return;
    this.unsubscribe?.();
    this.watched = world;
    this.unsubscribe = world.events.subscribe((event, recipients) => this.recordEvent(event, recipients));
  }

  recordRequest(request: ApiRequest, response: ApiResponse, ms: number, fault: string | undefined): void {
    const seq = ++this.seq;
    const { method, path } = request;
    this.ring[seq % this.capacity] = { seq, kind: 'request', at: Date.now(), method, path, status: response.status, authorization: request.headers.get('authorization'), ms, fault: fault ?? null };
  }

  private recordEvent(event: ChatEvent, recipients: Recipients): void {
    const seq = ++this.seq;
    const op = typeof event.op === 'string' ? event.op : null;
    const ids = Array.isArray(recipients) ? (recipients as readonly number[]) : undefined;
    this.ring[seq % this.capacity] = { seq, kind: 'event', at: Date.now(), type: event.type, op, user_ids: ids ? ids.slice(0, SHOWN_RECIPIENTS) : null, user_count: ids ? ids.length : null };
  }

  /** Entries numbered above `after`, oldest first, at most `limit` (the newest ones). */
  since(after: number, limit: number): { entries: readonly ActivityEntry[]; lastSeq: number } {
    const first = Math.max(after + 1, this.seq - this.capacity + 1, this.seq - limit + 1, 1);
    const entries: ActivityEntry[] = [];
    for (let seq = first; seq <= this.seq; seq += 1) {
      const stored = this.ring[seq % this.capacity];
      if (stored?.seq === seq) entries.push(stored.kind === 'event' ? stored : shown(stored));
    }
    return { entries, lastSeq: this.seq };
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.watched = undefined;
  }
}

/** A recorded request as the log shows it. */
function shown(stored: StoredRequest): RequestEntry {
  const { authorization, ...rest } = stored;
  return { ...rest, path: rest.path.slice(0, 500), user: claimedUser(authorization), ms: Math.round(rest.ms * 10) / 10 };
}
