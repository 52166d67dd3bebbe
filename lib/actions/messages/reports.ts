/**
 * `POST /messages/{message_id}/report` (spec 4.14, FL 382; reference §3): checks, then a
 * Notification Bot message in the moderation request channel (zerver/lib/message_report.py).
 */
import { badRequest } from '../../errors.js';
import type { Message } from '../../entities/message.js';
import type { User } from '../../entities/user.js';
import { directMessageUrl, globalTime, messageLinkSyntax, silentMention, unusedFence } from '../../rendering/message-links.js';
import { accessMessage } from '../../queries/messages/messages.js';
import { effectiveTopicsPolicy, truncateText } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';
import { MAX_MESSAGE_LENGTH, TRUNCATION_SUFFIX } from './messages.js';
import { sendNotificationBotMessage } from './notification-bot.js';

export const REPORT_TYPES = ['spam', 'harassment', 'inappropriate', 'norms', 'other'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** `Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH`. */
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
/** Room left for the reported content: 10000 - 1000 - 500 (reference §3.3). */
export const MAX_REPORTED_SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_DESCRIPTION_LENGTH - 500;

const REASON_LABELS: ReadonlyMap<ReportType, string> = new Map([
  ['spam', 'Spam'],
  ['harassment', 'Harassment'],
  ['inappropriate', 'Inappropriate content'],
  ['norms', 'Violates community norms'],
  ['other', 'Other reason'],
]);

const mention = (world: World, id: number): string => {
  const user = world.users.get(id);
  return user ? silentMention(user) : `@_**Unknown user|${id}**`;
};

/** The first line: who reported whose message, sent when (and to whom, for DMs). */
function header(world: World, reporter: User, message: Message): string {
  const R = silentMention(reporter);
  const S = mention(world, message.senderId);
  const T = globalTime(message.sentAt);
  if (message.recipient.kind === 'stream') return `${R} reported a message sent by ${S} at ${T}.`;
  const participants = message.recipient.userIds;
  if (participants.length <= 2) {
    if (message.senderId !== reporter.id) return `${R} reported a direct message sent by ${S} at ${T}.`;
    const other = participants.find((id) => id !== reporter.id);
    return `${R} reported a direct message sent by ${S} to ${other === undefined ? R : mention(world, other)} at ${T}.`;
  }
  const others = participants.filter((id) => id !== message.senderId).map((id) => mention(world, id)).sort();
  const last = others.pop() as string;
  const list = others.join(', ') + (others.length > 1 ? ',' : '');
  return `${R} reported a direct message sent by ${S} to ${list} and ${last} at ${T}.`;
}

function originalMessageString(world: World, message: Message, realmUrl: string): string {
  if (message.recipient.kind === 'direct') return `[Original message](${directMessageUrl(realmUrl, message.recipient.userIds, message.id)})`;
  const stream = world.streams.get(message.recipient.streamId);
  return `Original message at ${messageLinkSyntax(message.recipient.streamId, stream?.name ?? '', message.recipient.topic, message.id)}`;
}

/** The notification's Markdown (reference §3.3), before send-time normalisation. */
export function reportContent(world: World, reporter: User, message: Message, type: ReportType, description: string, realmUrl: string): string {
  const snippet = truncateText(message.content, MAX_REPORTED_SNIPPET_LENGTH, TRUNCATION_SUFFIX);
  const fence = unusedFence(snippet);
  return (
    `${header(world, reporter, message)}\n` +
    '```quote\n' +
    `**${REASON_LABELS.get(type)}**. ${description}\n` +
    '```\n\n' +
    `${fence} spoiler ${originalMessageString(world, message, realmUrl)}\n${snippet}\n${fence}\n`
  );
}

/**
 * Reports a message. Checks in the real server's order: an explanation for `other`, a
 * configured moderation channel, read access. Returns the notification's ID (or null if the
 * channel refused it, as the real server's internal send does).
 */
export function reportMessage(
  world: World,
  reporter: User,
  messageId: number,
  type: ReportType,
  description: string,
  realmUrl: string,
): number | null {
  if (type === 'other' && description === '') throw badRequest('An explanation is required.');
  const channelId = world.realm.moderationRequestChannelId;
  const channel = channelId === null ? undefined : world.streams.get(channelId);
  // The OpenAPI example says "Moderation request channel must be specified to enable message
  // reporting."; the real server says this (reference §3.2).
  if (!channel) throw badRequest('Message reporting is not enabled in this organization.');
  const message = accessMessage(world, reporter, messageId, { modifying: false });
  const sender = world.users.get(message.senderId);
  const topic = effectiveTopicsPolicy(world, channel) === 'empty_topic_only' ? '' : `${sender?.fullName ?? 'Unknown user'} moderation`;
  const content = reportContent(world, reporter, message, type, description, realmUrl);
  return sendNotificationBotMessage(world, { kind: 'stream', streamId: channel.id, topic }, content)?.id ?? null;
}
