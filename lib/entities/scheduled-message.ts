/** A message to send later (`POST /scheduled_messages`); the real server's ScheduledMessage with delivery type "send later". */
import type { Recipient } from './message.js';

export interface ScheduledMessage {
  readonly id: number;
  readonly senderId: number;
  recipient: Recipient;
  content: string;
  renderedContent: string;
  /** Seconds since the epoch. */
  scheduledDeliveryTimestamp: number;
  readonly readBySender: boolean;
  /** The client that last scheduled or edited it; the delivered message carries it. */
  client: string;
  delivered: boolean;
  failed: boolean;
  /** Why delivery failed (shown in the sender's failure notice), null unless `failed`. */
  failureMessage: string | null;
  deliveredMessageId: number | null;
}
