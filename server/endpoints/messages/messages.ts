/**
 * Messages: send, fetch, edit (reference §2), edit history (spec 4.10), report (spec 4.14) and
 * the deprecated mark-topic-as-read (spec 4.11).
 */
import { editMessage } from '../../../lib/actions/messages/edit/message-edit.js';
import { markTopicAsRead } from '../../../lib/actions/messages/message-flags.js';
import { sendMessage } from '../../../lib/actions/messages/message-send.js';
import { clientName } from '../../../lib/actions/messages/messages.js';
import { REPORT_TYPES, reportMessage } from '../../../lib/actions/messages/reports.js';
import { editHistoryPolicy, historySnapshots } from '../../../lib/queries/messages/edit-history.js';
import { badRequest } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { accessMessage, allowEmptyTopic } from '../../../lib/queries/messages/messages.js';
import { bool, int } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { choiceStr, json, literalStr, str } from '../../app/params.js';
import { getMessage } from './message-get.js';
import { getMessages } from './message-fetch.js';

const messageId = (path: ReadonlyMap<string, string>): number => Number(path.get('message_id'));

const send = authed({
  params: {
    type: literalStr('direct', 'private', 'stream', 'channel').required(),
    to: str(),
    topic: str().alias('subject'),
    content: str().required(),
    local_id: str(),
    queue_id: str(),
    read_by_sender: json(bool).availableFrom(FEATURES.READ_BY_SENDER),
  },
  run({ world, user, params, request }, args) {
    const sent = sendMessage(world, user, {
      type: args.type,
      to: args.to,
      topic: args.topic,
      content: args.content,
      readBySender: args.read_by_sender,
      ...(args.queue_id !== undefined && args.local_id !== undefined ? { localEcho: { queueId: args.queue_id, localId: args.local_id } } : {}),
      client: clientName(params.body.get('client') ?? params.query.get('client'), request.headers.get('user-agent')),
    });
    const automatic = sent.automaticNewVisibilityPolicy;
    return automatic !== undefined && world.has(FEATURES.AUTOMATIC_VISIBILITY_POLICY_RESPONSE) ? { id: sent.id, automatic_new_visibility_policy: automatic } : { id: sent.id };
  },
});

const edit = authed({
  params: {
    stream_id: json(int),
    topic: str().alias('subject'),
    propagate_mode: literalStr('change_one', 'change_later', 'change_all').default('change_one'),
    send_notification_to_old_thread: json(bool),
    send_notification_to_new_thread: json(bool).default(true),
    content: str(),
    prev_content_sha256: str().availableFrom(FEATURES.PREV_CONTENT_SHA256),
  },
  run({ app, world, user, path, request }, args) {
    const detached = editMessage(world, user, messageId(path), {
      streamId: args.stream_id,
      topic: args.topic,
      propagateMode: args.propagate_mode,
      notifyOldThread: args.send_notification_to_old_thread ?? !world.has(FEATURES.OLD_THREAD_NOTICE_OFF_BY_DEFAULT),
      notifyNewThread: args.send_notification_to_new_thread,
      content: args.content,
      prevContentSha256: args.prev_content_sha256,
      realmUrl: app.realmUrl(request),
    });
    return world.has(FEATURES.DETACHED_UPLOADS) ? { detached_uploads: detached } : {};
  },
});

const history = authed({
  params: { allow_empty_topic_name: json(bool).default(false).availableFrom(FEATURES.EMPTY_TOPIC) },
  run({ world, user, path }, args) {
    // Checked before the message lookup: unknown IDs get this error too (reference §1.2).
    if (editHistoryPolicy(world) === 'none') throw badRequest('Message edit history is disabled in this organization');
    const message = accessMessage(world, user, messageId(path), { modifying: false });
    return { message_history: historySnapshots(world, message, allowEmptyTopic(world, args.allow_empty_topic_name)) };
  },
});

const report = authed({
  since: FEATURES.REPORT_MESSAGE,
  params: {
    description: str({ maxLength: 1000 }).default(''),
    report_type: choiceStr(...REPORT_TYPES).required(),
  },
  run({ app, world, user, path, request }, args) {
    reportMessage(world, user, messageId(path), args.report_type, args.description, app.realmUrl(request));
    return {};
  },
});

const markTopic = authed({
  params: {
    topic_name: str().required(),
    stream_id: json(int).required(),
  },
  run({ world, user }, args) {
    markTopicAsRead(world, user, args.stream_id, args.topic_name);
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/messages', methods: { GET: getMessages, POST: send } },
  { path: '/messages/{message_id:int}', methods: { GET: getMessage, PATCH: edit } },
  { path: '/messages/{message_id:int}/history', methods: { GET: history } },
  { path: '/messages/{message_id:int}/report', methods: { POST: report } },
  { path: '/mark_topic_as_read', methods: { POST: markTopic } },
];
