/**
 * One HTTP exchange as the suite saw it, and the transcript that records them, so a failure can
 * be shown as the exact requests (as curl commands) and the answers the target gave.
 */

export interface Exchange {
  /** Position in the run, 1-based; lets a report interleave exchanges of several clients. */
  readonly seq: number;
  readonly method: string;
  /** The full URL, query string included. */
  readonly url: string;
  /** Request headers as sent (names lower-cased). */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** Request body as text (UTF-8); empty when there was none. */
  readonly requestBody: string;
  /** HTTP status; 0 when no answer arrived (see `error`). */
  readonly status: number;
  /** Response headers (names lower-cased, repeated headers joined with ", "). */
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly responseBody: string;
  readonly durationMs: number;
  /** When the request was sent (ms since the epoch), for HAR files. */
  readonly startedAt?: number;
  /** A transport error (connection refused, aborted, timeout) instead of an answer. */
  readonly error?: string;
}

/**
 * Records exchanges in order. It keeps only the most recent `capacity` ones, since a property can
 * send thousands of requests; `mark()`/`since(mark)` select the exchanges of one attempt.
 */
export class Transcript {
  private readonly kept: Exchange[] = [];
  private nextSeq = 1;

  constructor(private readonly capacity = 500) {}

  /** Stores an exchange and gives it the next sequence number. */
  record(exchange: Omit<Exchange, 'seq'>): Exchange {
    const stored: Exchange = { seq: this.nextSeq++, ...exchange };
    this.kept.push(stored);
    if (this.kept.length > this.capacity) this.kept.splice(0, this.kept.length - this.capacity);
    return stored;
  }

  /** A position to pass to `since`. */
  mark(): number {
    return this.nextSeq;
  }

  /** Exchanges recorded at or after `mark` that are still kept. */
  since(mark: number): Exchange[] {
    return this.kept.filter((exchange) => exchange.seq >= mark);
  }

  /** Every exchange still kept, oldest first. */
  all(): Exchange[] {
    return [...this.kept];
  }

  /** The last `count` exchanges. */
  last(count: number): Exchange[] {
    return this.kept.slice(-count);
  }

  get size(): number {
    return this.nextSeq - 1;
  }
}
