/**
 * A checked edit of a channel message, as the editor planned it: what changes (content, topic,
 * channel), which messages move with it and which threads are told. Built by message-edit.ts,
 * applied by message-move.ts, announced by move-notifications.ts.
 */
import type { Message } from '../../../entities/message.js';
import type { Stream } from '../../../entities/stream.js';

export interface StreamEditPlan {
  readonly message: Message;
  readonly origStream: Stream;
  readonly targetStream: Stream;
  readonly origTopic: string;
  readonly targetTopic: string;
  readonly topicEdited: boolean;
  readonly streamEdited: boolean;
  readonly resolved: boolean;
  readonly unresolved: boolean;
  readonly newContent: string | undefined;
  readonly propagateMode: 'change_one' | 'change_later' | 'change_all';
  readonly notifyOldThread: boolean;
  readonly notifyNewThread: boolean;
  readonly realmUrl: string;
}
