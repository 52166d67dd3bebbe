/**
 * What the message family remembers of the messages it sent: where each is (channel and topic,
 * or the direct conversation), who can see it, and what the actions did to them. It only picks
 * targets for actions (the target answers for itself), so it may miss messages others sent,
 * such as Notification Bot's notices.
 */
import type { IdentityName } from '../../credentials/types.js';
import type { RunChannel } from '../../rules/support/message-fixtures.js';

/** The topics channel messages use: distinct in lower case, so topic groups are unambiguous. */
export const TOPICS = ['alpha', 'beta', 'gamma'] as const;
export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface TrackedMessage {
  readonly id: number;
  readonly sender: IdentityName;
  /** Index of the fixture channel, for channel messages. */
  channel?: number;
  topic?: string;
  /** Who has the message, for direct messages (the sender included). */
  readonly participants?: readonly IdentityName[];
  deleted: boolean;
}

export interface MessagesFixture {
  readonly channels: readonly RunChannel[];
  readonly observers: readonly IdentityName[];
  readonly messages: TrackedMessage[];
  /** Messages each identity starred (unstarred when the rule ends). */
  readonly starred: Map<IdentityName, Set<number>>;
  /** Messages each identity marked read, for the unread actions to pick from. */
  readonly read: Map<IdentityName, Set<number>>;
  /** Reactions present, as `message:emoji:identity`, so that a reaction action toggles. */
  readonly reactions: Set<string>;
}

/** Live messages, newest first: action indices count from the newest, so they shrink towards it. */
export function live(fixture: MessagesFixture): TrackedMessage[] {
  return fixture.messages.filter((m) => !m.deleted).sort((a, b) => b.id - a.id);
}

/** The live message an index names (modulo) among those `accept` takes, or undefined when there is none. */
export function pick(fixture: MessagesFixture, index: number, accept: (message: TrackedMessage) => boolean = () => true): TrackedMessage | undefined {
  const messages = live(fixture).filter(accept);
  return messages.length === 0 ? undefined : messages[index % messages.length];
}

/** Who has the message: every observer for channel messages (all are subscribed), else the participants. */
export function holders(fixture: MessagesFixture, message: TrackedMessage): readonly IdentityName[] {
  return message.participants ?? fixture.observers;
}

/** The messages a topic or channel move takes along (as far as the family knows them). */
export function movedWith(fixture: MessagesFixture, message: TrackedMessage, mode: PropagateMode): TrackedMessage[] {
  if (mode === 'change_one' || message.channel === undefined) return [message];
  return live(fixture).filter(
    (m) => m.channel === message.channel && m.topic?.toLowerCase() === message.topic?.toLowerCase() && (mode === 'change_all' || m.id >= message.id),
  );
}
