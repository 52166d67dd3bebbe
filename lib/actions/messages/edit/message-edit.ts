/**
 * `PATCH /messages/{message_id}` (reference §2.2): the real server's checks in order, then the
 * edit itself (`message-move.ts` applies channel-message edits and moves).
 */
import { createHash } from 'node:crypto';
import { ApiError, badRequest } from '../../../errors.js';
import type { Message } from '../../../entities/message.js';
import type { Stream } from '../../../entities/stream.js';
import type { User } from '../../../entities/user.js';
import { FEATURES } from '../../../features/feature-levels.js';
import { hasContentAccess } from '../../../queries/users/access.js';
import { type ApiAttachment, attachmentsOfMessage, detachedUploads } from '../../../queries/personal/attachments.js';
import { accessMessage } from '../../../queries/messages/messages.js';
import {
  canEditTopic,
  canMoveOutOfChannel,
  canResolveTopics,
  channelMoveLimit,
  checkCanEditContent,
  moveLimitPassed,
  topicMoveLimit,
} from '../../../queries/messages/message-permissions.js';
import {
  checkTopic,
  effectiveTopicsPolicy,
  EMPTY_TOPIC_DISPLAY_NAME,
  emptyTopicNotAllowed,
  onlyEmptyTopicAllowed,
  pythonRstrip,
  pythonStrip,
  renameGeneralChat,
  RESOLVED_TOPIC_PREFIX,
  truncateTopic,
} from '../../../input/topic-names.js';
import type { World } from '../../../state/world.js';
import { render } from '../../../rendering/render.js';
import { checkMentionPermissions } from '../policies/mention-permissions.js';
import { checkStreamSendAccess } from '../message-send.js';
import type { StreamEditPlan } from './edit-plan.js';
import { applyDirectEdit, applyStreamEdit, checkChangeAllTimeLimit } from './message-move.js';
import { normalizeContent } from '../messages.js';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface EditRequest {
  readonly streamId: number | undefined;
  readonly topic: string | undefined;
  readonly propagateMode: PropagateMode;
  readonly notifyOldThread: boolean;
  readonly notifyNewThread: boolean;
  readonly content: string | undefined;
  readonly prevContentSha256: string | undefined;
  /** Base URL for links in Notification Bot breadcrumbs. */
  readonly realmUrl: string;
}

const topicOf = (message: Message): string => (message.recipient.kind === 'stream' ? message.recipient.topic : '');
const isWidget = (message: Message): boolean => /^\/(poll|todo)(\s|$)/.test(message.content);

/** `validate_message_edit_payload`: the request's shape, before any permission. */
function validatePayload(world: World, message: Message, topic: string | undefined, request: EditRequest): void {
  const { streamId, content } = request;
  if (topic === undefined && content === undefined && streamId === undefined) throw badRequest('Nothing to change');
  if (message.recipient.kind === 'direct') {
    if (streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw badRequest('Direct messages cannot have topics.');
  }
  if (request.propagateMode !== 'change_one' && topic === undefined && streamId === undefined) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
  if (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === `${RESOLVED_TOPIC_PREFIX}${EMPTY_TOPIC_DISPLAY_NAME}`) {
    throw badRequest('General chat cannot be marked as resolved');
  }
  if (topic !== undefined) checkTopic(world, topic);
  if (streamId !== undefined && content !== undefined) throw badRequest('Cannot change message content while changing channel');
  if (content !== undefined && isWidget(message)) throw badRequest('Widgets cannot be edited.');
  const sha = request.prevContentSha256;
  if (sha !== undefined && world.has(FEATURES.PREV_CONTENT_SHA256) && sha !== createHash('sha256').update(message.content).digest('hex')) {
    // Message text and code unconfirmed.
    throw new ApiError('EXPECTATION_MISMATCH', 400, "'prev_content_sha256' value does not match the expected value.");
  }
}

/** New content: blank becomes `(deleted)`, then the send-time normalisation. */
const contentForEdit = (content: string): string => normalizeContent(pythonRstrip(content) === '' ? '(deleted)' : content);

/** The mention rules of `check_update_message`: wildcards as the sender, groups as the editor. */
function checkEditedMentions(world: World, editor: User, message: Message, content: string): void {
  const sender = world.users.get(message.senderId) ?? editor;
  const here = message.recipient;
  const place = here.kind === 'stream' ? { stream: world.streams.get(here.streamId) as Stream, topic: here.topic } : null;
  checkMentionPermissions(world, render(world, content), place, sender, editor);
}

/** `access_stream_by_id_for_message`: content access to an active channel. */
function targetStream(world: World, user: User, streamId: number): Stream {
  const stream = world.streams.get(streamId);
  if (!stream || stream.isArchived || !hasContentAccess(world, user, stream)) throw badRequest('Invalid channel ID');
  return stream;
}

function buildPlan(world: World, user: User, message: Message, topic: string | undefined, request: EditRequest): StreamEditPlan {
  if (message.recipient.kind !== 'stream') throw new Error('not a channel message');
  const origStream = world.streams.get(message.recipient.streamId) as Stream;
  const origTopic = message.recipient.topic;
  const target = topic === undefined ? origTopic : truncateTopic(topic);
  const resolved =
    topic !== undefined && target.startsWith(RESOLVED_TOPIC_PREFIX) && !origTopic.startsWith(RESOLVED_TOPIC_PREFIX) &&
    topic.slice(RESOLVED_TOPIC_PREFIX.length) === origTopic;
  const unresolved =
    topic !== undefined && origTopic.startsWith(RESOLVED_TOPIC_PREFIX) && !target.startsWith(RESOLVED_TOPIC_PREFIX) &&
    origTopic.replace(/^[✔ ]+/u, '') === target;
  const destination = request.streamId === undefined ? origStream : targetStream(world, user, request.streamId);
  const policy = effectiveTopicsPolicy(world, destination);
  const targetEmpty = target === '' || target === '(no topic)';
  if (targetEmpty && (topic !== undefined || request.streamId !== undefined) && policy === 'disable_empty_topic') throw emptyTopicNotAllowed();
  if (policy === 'empty_topic_only' && !targetEmpty) throw onlyEmptyTopicAllowed();
  return {
    message,
    origStream,
    targetStream: destination,
    origTopic,
    targetTopic: target,
    topicEdited: topic !== undefined,
    streamEdited: request.streamId !== undefined,
    resolved,
    unresolved,
    newContent: request.content === undefined ? undefined : contentForEdit(request.content),
    propagateMode: request.propagateMode,
    notifyOldThread: request.notifyOldThread,
    notifyNewThread: request.notifyNewThread,
    realmUrl: request.realmUrl,
  };
}

/** Topic and channel permissions, in the order of `check_update_message`. */
function checkMovePermissions(world: World, user: User, plan: StreamEditPlan): void {
  if (plan.topicEdited) {
    if (plan.resolved || plan.unresolved) {
      if (!canResolveTopics(world, user, plan.origStream)) throw badRequest("You don't have permission to resolve topics in this channel.");
    } else {
      if (!canEditTopic(world, user, plan.origStream)) throw badRequest("You don't have permission to edit this message");
      if (moveLimitPassed(world, user, plan.message, topicMoveLimit(world))) {
        throw badRequest("The time limit for editing this message's topic has passed.");
      }
    }
  }
  if (plan.streamEdited) {
    if (!canMoveOutOfChannel(world, user, plan.origStream)) throw badRequest("You don't have permission to move this message");
    checkStreamSendAccess(world, user, plan.targetStream);
    if (moveLimitPassed(world, user, plan.message, channelMoveLimit(world))) {
      throw badRequest("The time limit for editing this message's channel has passed");
    }
  }
  if (plan.propagateMode === 'change_all' && (plan.topicEdited || plan.streamEdited) && !plan.resolved && !plan.unresolved) {
    checkChangeAllTimeLimit(world, user, plan);
  }
}

/**
 * Edits a message; every check runs before anything changes. Returns `detached_uploads`: the
 * acting user's uploads that the new content stopped referencing and that no message references
 * any more.
 */
export function editMessage(world: World, user: User, messageId: number, request: EditRequest): ApiAttachment[] {
  const message = accessMessage(world, user, messageId, { modifying: true });
  if (request.content !== undefined) checkCanEditContent(world, user, message);
  let topic = request.topic === undefined ? undefined : renameGeneralChat(world, pythonStrip(request.topic));
  if (topic !== undefined && topic === topicOf(message)) topic = undefined;
  validatePayload(world, message, topic, request);
  if (request.content !== undefined) checkEditedMentions(world, user, message, contentForEdit(request.content));
  const attachedBefore = attachmentsOfMessage(world, message.id);
  if (message.recipient.kind === 'direct') {
    applyDirectEdit(world, user, message, contentForEdit(request.content as string));
  } else {
    const plan = buildPlan(world, user, message, topic, request);
    checkMovePermissions(world, user, plan);
    applyStreamEdit(world, user, plan);
  }
  return detachedUploads(world, user, attachedBefore);
}
