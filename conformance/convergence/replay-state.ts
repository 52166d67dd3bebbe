/**
 * One client's state while events are applied to it: the register answer (copied), plus what a
 * client keeps beside it to apply later events (the unread entries one by one, the messages it
 * was told about, conversations it can no longer know the newest message of), and what events
 * said that contradicts the state. `finish()` gives the state in register's own form.
 */
import { type CountsAsUnread, UnreadModel } from './reducers/unread-model.js';
import { type ClientView, type Inconsistency, listIn, type State } from './types.js';

/** Where the client knows a message is (from a message event or its unread entry). */
export interface KnownMessage {
  streamId?: number;
  topic?: string;
}

/** A recent direct conversation (`recent_private_conversations`), keyed by its sorted user IDs. */
export interface Conversation {
  readonly userIds: readonly number[];
  maxMessageId: number;
}

/** Visibility policies (`user_topic`) that make a topic count as unread in a muted channel, or not in an unmuted one. */
const UNMUTED = 2;
const FOLLOWED = 3;
const MUTED = 1;

export class Replay {
  readonly state: State;
  readonly unread: UnreadModel | undefined;
  readonly messages = new Map<number, KnownMessage>();
  readonly deleted = new Set<number>();
  /** `recent_private_conversations`, when fetched; conversations a deletion made unknowable are dropped from it. */
  readonly conversations: Map<string, Conversation> | undefined;
  /** Conversations whose newest message was deleted: only a fresh register knows the one before. */
  readonly unknowable = new Set<string>();
  /** Problems the current event showed (the replay attaches its index). */
  readonly problems: Inconsistency[] = [];

  constructor(
    initial: State,
    readonly view: ClientView,
  ) {
    this.state = structuredClone(initial);
    const unread = this.state.unread_msgs;
    this.unread = unread !== null && typeof unread === 'object' ? UnreadModel.unfold(unread as State, this.countsAsUnread) : undefined;
    const recent = listIn(this.state, 'recent_private_conversations');
    this.conversations = recent
      ? new Map(recent.map((c) => [conversationKey(c.user_ids as number[]), { userIds: c.user_ids as number[], maxMessageId: c.max_message_id as number }]))
      : undefined;
  }

  /**
   * Whether a channel message in this topic counts as unread for the client, from its own state
   * (`subscriptions` is_muted, `user_topics`), as `is_row_muted` decides on the server. A client
   * that fetched neither counts it.
   */
  readonly countsAsUnread: CountsAsUnread = (streamId, topic) => {
    const channelMuted = listIn(this.state, 'subscriptions')?.find((s) => s.stream_id === streamId)?.is_muted === true;
    const policy = listIn(this.state, 'user_topics')?.find((t) => t.stream_id === streamId && String(t.topic_name).toLowerCase() === topic.toLowerCase())?.visibility_policy;
    if (channelMuted) return policy === UNMUTED || policy === FOLLOWED;
    return policy !== MUTED;
  };

  /** Records what the current event contradicts. */
  inconsistent(problem: Inconsistency): void {
    this.problems.push(problem);
  }

  /** The state in register's form: unread entries aggregated, conversations listed newest first. */
  finish(): State {
    const out = structuredClone(this.state);
    if (this.unread) out.unread_msgs = this.unread.fold();
    if (this.conversations) {
      out.recent_private_conversations = [...this.conversations.values()]
        .sort((a, b) => b.maxMessageId - a.maxMessageId)
        .map((c) => ({ max_message_id: c.maxMessageId, user_ids: [...c.userIds] }));
    }
    return out;
  }
}

/** The key of a direct conversation: its other users' IDs, sorted (empty for the client's own conversation). */
export const conversationKey = (userIds: readonly number[]): string => [...userIds].sort((a, b) => a - b).join(',');
