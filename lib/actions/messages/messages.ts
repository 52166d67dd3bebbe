/**
 * Message storage shared by every way of posting (user sends, Notification Bot, reminders):
 * content normalisation, per-user rows (`Message.flags`) and `message` events.
 * Validation of user requests lives in `message-send.ts`; editing in `edit/message-edit.ts`.
 */
import { badRequest } from '../../errors.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { Message, Recipient } from '../../entities/message.js';
import type { User } from '../../entities/user.js';
import { activeSubscriberIds } from '../../queries/users/access.js';
import { flagsFor, toApiMessage } from '../../queries/messages/messages.js';
import { render } from '../../rendering/render.js';
import { pythonRstrip, truncateText } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';
import { linkAttachmentsInContent } from '../personal/attachments.js';
import { setAlertWordFlags } from './policies/alert-word-flags.js';
import { mentionedUserIds, setMentionFlags } from './mention-flags.js';
import { followTopicOnSend } from './policies/topic-participation.js';

/** `max_message_length`. */
export const MAX_MESSAGE_LENGTH = 10000;
export const TRUNCATION_SUFFIX = '\n[message truncated]';

/**
 * `normalize_body`: trailing whitespace and leading newlines removed, then
 * `Message must not be empty` / `Message must not contain null bytes`, then truncation to
 * 10000 code points ending in `\n[message truncated]`.
 */
export function normalizeContent(raw: string): string {
  const body = pythonRstrip(raw).replace(/^\n+/, '');
  if (body === '') throw badRequest('Message must not be empty');
  if (body.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  return truncateText(body, MAX_MESSAGE_LENGTH, TRUNCATION_SUFFIX);
}

export interface DeliverOptions {
  readonly sender: User;
  readonly recipient: Recipient;
  /** Already normalised content. */
  readonly content: string;
  /** The content rendered, when the caller already rendered it to check its mentions. */
  readonly rendered?: string;
  readonly client: string;
  /** Users whose row starts as read (the sender, unless `read_by_sender` is false). */
  readonly readBy: ReadonlySet<number>;
  /** Told the sender's automatically set topic policy, when sending changed it. */
  readonly onAutomaticPolicy?: (policy: number) => void;
  readonly localEcho?: LocalEcho;
}

function usersWhoMuted(world: World, senderId: number): Set<number> {
  const muters = new Set<number>();
  for (const [muterId, muted] of world.mutedUsers) if (muted.some((entry) => entry.id === senderId)) muters.add(muterId);
  return muters;
}

/** A client's local echo: the queue that sent the message and the ID it gave it. */
export interface LocalEcho {
  readonly queueId: string;
  readonly localId: string;
}

/** Who gets a per-user row: every participant of a DM; active subscribers and the sender otherwise. */
function rowHolders(world: World, sender: User, recipient: Recipient): number[] {
  const ids =
    recipient.kind === 'direct' ? [...recipient.userIds] : [...activeSubscriberIds(world, recipient.streamId), sender.id];
  return [...new Set(ids)].filter((id) => {
    const user = world.users.get(id);
    return user !== undefined && !user.isSystemBot;
  });
}

/**
 * Stores a validated message, gives each recipient a row (read for `readBy`, `mentioned` when
 * mentioned), links the sender's uploads the content names, and sends each recipient a
 * `message` event with their own flags: one event per distinct set of flags, as the event
 * queues deliver it per user.
 */
export function deliverMessage(world: World, options: DeliverOptions): Message {
  const rendered = options.rendered ?? render(world, options.content);
  const message: Message = {
    id: world.ids.next('message'),
    senderId: options.sender.id,
    recipient: options.recipient,
    content: options.content,
    renderedContent: rendered,
    sentAt: world.now(),
    editHistory: [],
    lastEditAt: null,
    lastMovedAt: null,
    flags: new Map(),
    client: options.client,
    reactions: [],
  };
  const muters = usersWhoMuted(world, options.sender.id);
  for (const id of rowHolders(world, options.sender, options.recipient)) {
    const flags = new Set<string>();
    // Messages from a user one muted arrive read (`do_send_messages`' muted_sender_user_ids).
    if (options.readBy.has(id) || muters.has(id)) flags.add('read');
    message.flags.set(id, flags);
  }
  setMentionFlags(world, message);
  setAlertWordFlags(world, message);
  world.messages.set(message.id, message);
  if (options.recipient.kind === 'stream') {
    const stream = world.streams.get(options.recipient.streamId);
    if (stream && stream.firstMessageId === null) stream.firstMessageId = message.id;
  }
  // `do_claim_attachments` runs before the message event is sent.
  linkAttachmentsInContent(world, message.id, message.content);
  // Topic policies change (with their events) before the message event, as `do_send_messages` does.
  const automatic = followTopicOnSend(world, message, mentionedUserIds(rendered));
  if (automatic !== undefined) options.onAutomaticPolicy?.(automatic);
  sendMessageEvents(world, message, options.localEcho);
  return message;
}

/**
 * One `message` event per distinct flag set. The payload carries the Markdown in `content` and
 * the HTML in `rendered_content`, raw topic names and the full avatar URL: the event-queue layer
 * (lib/events/message-payload.ts) shapes it per queue (`apply_markdown`, `client_gravatar`,
 * `empty_topic_name`, narrow). A local echo rides along as `sender_queue_id` and `local_id`, which
 * the queues turn into `local_message_id` for the sender's queue alone.
 */
function sendMessageEvents(world: World, message: Message, echo: LocalEcho | undefined): void {
  const body = {
    ...toApiMessage(world, message, { applyMarkdown: false, allowEmptyTopicName: true, clientGravatar: false, includeEditHistory: false }),
    rendered_content: message.renderedContent,
  };
  for (const [flags, userIds] of groupByFlags(message, [...message.flags.keys()])) {
    const event = { type: 'message', message: body, flags: JSON.parse(flags) as string[] };
    world.events.send(echo ? { ...event, sender_queue_id: echo.queueId, local_id: echo.localId } : event, userIds);
  }
}

/** Users grouped by their flags on `message` (JSON of the flag list as the key). */
export function groupByFlags(message: Message, userIds: Iterable<number>): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const id of userIds) {
    const key = JSON.stringify(message.flags.has(id) ? flagsFor(message, id) : ['read']);
    const list = groups.get(key);
    if (list) list.push(id);
    else groups.set(key, [id]);
  }
  return groups;
}

/** The real server's own clients: a message sent from one of them is read by its sender. */
const HUMAN_CLIENTS = new Set(['zulipandroid', 'zulipios', 'zulipdesktop', 'zulipmobile', 'zulipelectron', 'zulipterminal', 'snipe', 'website', 'ios', 'android']);

/**
 * `Client.default_read_by_sender` (zerver/models/clients.py): whether a message sent without
 * `read_by_sender` starts read for its sender. Only the real server's own (human) clients
 * qualify, so that messages an integration sends with a user's key stay unread for that user.
 * Names containing "desktop app" (the pre-2017 desktop app) qualified until level 280.
 */
export function defaultReadBySender(world: World, client: string): boolean {
  const name = client.toLowerCase();
  return HUMAN_CLIENTS.has(name) || (!world.has(FEATURES.NO_DESKTOP_APP_READ_BY_SENDER) && name.includes('desktop app'));
}

/** The client name of a request: the `client` parameter, else the User-Agent's product token. */
export function clientName(clientParam: string | undefined, userAgent: string | null | undefined): string {
  if (clientParam !== undefined && clientParam !== '') return clientParam;
  const token = userAgent?.trim().split(/[\s/]/)[0];
  return token ? token : 'Unspecified';
}
