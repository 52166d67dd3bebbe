/**
 * Scheduled messages (zerver/actions/scheduled_messages.py): schedule (FL 179), edit (FL 184)
 * and delete (FL 173). Every write is checked like a send (`checkMessage`) before it changes
 * anything, and tells the sender's clients with a `scheduled_messages` event.
 */
import { badRequest } from '../../errors.js';
import type { ScheduledMessage } from '../../entities/scheduled-message.js';
import type { User } from '../../entities/user.js';
import { checkTopic, interpretSendTopic, truncateTopic } from '../../input/topic-names.js';
import { ownScheduledMessage, scheduledRecipientIds, toApiScheduledMessage } from '../../queries/messages/scheduled-messages.js';
import type { World } from '../../state/world.js';
import { type Addressee, allowedTypes, checkMessage, jsonOrText, type SendType } from './message-send.js';
import { defaultReadBySender } from './messages.js';

const inFuture = (world: World, timestamp: number): void => {
  if (timestamp * 1000 <= world.now()) throw badRequest('Scheduled delivery time must be in the future.');
};

/** `extract_stream_id`: Python's `int()` of the whole value. */
function channelId(raw: string): number {
  const match = /^\s*([+-]?\d{1,15})\s*$/.exec(raw);
  if (!match) throw badRequest('Invalid data type for channel ID');
  return Number(match[1]);
}

/** `extract_direct_message_recipient_ids`: a JSON list of user IDs, duplicates dropped. */
function directRecipientIds(raw: string): number[] {
  const data = jsonOrText(raw);
  if (!Array.isArray(data)) throw badRequest('Invalid data type for recipients');
  if (!data.every((item): item is number => typeof item === 'number' && Number.isInteger(item))) {
    throw badRequest('Recipient list may only contain user IDs');
  }
  return [...new Set(data)];
}

const isStreamType = (type: SendType): boolean => type === 'stream' || type === 'channel';

function addresseeOf(world: World, isStream: boolean, to: string | readonly number[], topic: string | undefined): Addressee {
  if (isStream) {
    const indicator = typeof to === 'string' ? channelId(to) : to[0];
    return { kind: 'stream', indicator, topic: topic === undefined ? undefined : interpretSendTopic(world, topic) };
  }
  return { kind: 'direct', to: typeof to === 'string' ? directRecipientIds(to) : to };
}

export interface ScheduleRequest {
  readonly type: SendType;
  readonly to: string;
  readonly topic: string | undefined;
  readonly content: string;
  /** UNIX seconds. */
  readonly scheduledDeliveryTimestamp: number;
  readonly readBySender: boolean | undefined;
  readonly client: string;
}

/** `check_schedule_message`: the time first, then the recipients and content as a send checks them. */
export function scheduleMessage(world: World, sender: User, request: ScheduleRequest): number {
  if (!allowedTypes(world).includes(request.type)) throw badRequest('Invalid type');
  inFuture(world, request.scheduledDeliveryTimestamp);
  const checked = checkMessage(world, sender, addresseeOf(world, isStreamType(request.type), request.to, request.topic), request.content);
  const toSelf = checked.recipient.kind === 'direct' && checked.recipient.userIds.every((id) => id === sender.id);
  const message: ScheduledMessage = {
    id: world.ids.next('scheduledMessage'),
    senderId: sender.id,
    recipient: checked.recipient,
    content: checked.content,
    renderedContent: checked.rendered,
    scheduledDeliveryTimestamp: request.scheduledDeliveryTimestamp,
    readBySender: request.readBySender ?? (defaultReadBySender(world, request.client) && !toSelf),
    client: request.client,
    delivered: false,
    failed: false,
    failureMessage: null,
    deliveredMessageId: null,
  };
  world.scheduledMessages.set(message.id, message);
  world.events.send({ type: 'scheduled_messages', op: 'add', scheduled_messages: [toApiScheduledMessage(world, message)] }, [sender.id]);
  return message.id;
}

export interface ScheduleEdit {
  readonly type: SendType | undefined;
  readonly to: string | undefined;
  readonly topic: string | undefined;
  readonly content: string | undefined;
  readonly scheduledDeliveryTimestamp: number | undefined;
  readonly client: string;
}

/** The view's checks of `PATCH /scheduled_messages/{id}`, made before the message is looked up. */
function checkEditRequest(world: World, edit: ScheduleEdit): void {
  const { type, to, topic, content, scheduledDeliveryTimestamp } = edit;
  if (type === undefined && to === undefined && topic === undefined && content === undefined && scheduledDeliveryTimestamp === undefined) {
    throw badRequest('Nothing to change');
  }
  if (type !== undefined && !allowedTypes(world).includes(type)) throw badRequest('Invalid type');
  if (type !== undefined && to === undefined) throw badRequest('Recipient required when updating type of scheduled message.');
  if (type !== undefined && isStreamType(type) && topic === undefined) throw badRequest('Topic required when updating scheduled message type to stream.');
  if (scheduledDeliveryTimestamp !== undefined) inFuture(world, scheduledDeliveryTimestamp);
}

/** `edit_scheduled_message`: all checks before the first change; clears `failed`. */
export function editScheduledMessage(world: World, sender: User, id: number, edit: ScheduleEdit): void {
  checkEditRequest(world, edit);
  const message = ownScheduledMessage(world, sender, id);
  if (message.delivered) throw badRequest('Scheduled message was already sent');
  if (message.failed && edit.scheduledDeliveryTimestamp === undefined) throw badRequest('Scheduled delivery time must be in the future.');
  const wasStream = message.recipient.kind === 'stream';
  const recipientChanges = edit.type !== undefined || edit.to !== undefined;
  if (recipientChanges || edit.content !== undefined) {
    const isStream = edit.type === undefined ? wasStream : isStreamType(edit.type);
    const topic = edit.topic ?? (message.recipient.kind === 'stream' ? message.recipient.topic : '');
    const to = edit.to ?? scheduledRecipientIds(message);
    const checked = checkMessage(world, sender, addresseeOf(world, isStream, to, topic), edit.content ?? message.content);
    if (recipientChanges) message.recipient = checked.recipient;
    if (edit.content !== undefined) {
      message.content = checked.content;
      message.renderedContent = checked.rendered;
    }
  }
  if (!recipientChanges && edit.topic !== undefined && message.recipient.kind === 'stream') {
    // A topic alone is checked as a topic (`check_stream_topic`); ignored for direct messages.
    const topic = interpretSendTopic(world, edit.topic);
    checkTopic(world, topic);
    message.recipient = { ...message.recipient, topic: truncateTopic(topic) };
  }
  if (edit.scheduledDeliveryTimestamp !== undefined) message.scheduledDeliveryTimestamp = edit.scheduledDeliveryTimestamp;
  message.client = edit.client;
  message.failed = false;
  message.failureMessage = null;
  world.events.send({ type: 'scheduled_messages', op: 'update', scheduled_message: toApiScheduledMessage(world, message) }, [sender.id]);
}

/** `delete_scheduled_message`: the sender's own, delivered or not. */
export function deleteScheduledMessage(world: World, sender: User, id: number): void {
  ownScheduledMessage(world, sender, id);
  world.scheduledMessages.delete(id);
  world.events.send({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [sender.id]);
}
