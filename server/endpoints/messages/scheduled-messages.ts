/** Scheduled messages: list and delete (FL 173), schedule (FL 179), edit (FL 184). */
import { clientName } from '../../../lib/actions/messages/messages.js';
import { deleteScheduledMessage, editScheduledMessage, scheduleMessage } from '../../../lib/actions/messages/scheduled-messages.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { bool, int } from '../../../lib/input/schema.js';
import { scheduledMessagesState } from '../../../lib/queries/messages/scheduled-messages.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import type { ApiRequest } from '../../app/request.js';
import { json, literalStr, str } from '../../app/params.js';

const scheduledId = (path: ReadonlyMap<string, string>): number => Number(path.get('scheduled_message_id'));

const RECIPIENT_TYPES = ['direct', 'private', 'stream', 'channel'] as const;

interface ClientSource {
  readonly params: { readonly body: ReadonlyMap<string, string>; readonly query: ReadonlyMap<string, string> };
  readonly request: ApiRequest;
}

const requestClient = ({ params, request }: ClientSource): string =>
  clientName(params.body.get('client') ?? params.query.get('client'), request.headers.get('user-agent'));

const list = authed({
  since: FEATURES.SCHEDULED_MESSAGES,
  params: {},
  run({ world, user }) {
    return { scheduled_messages: scheduledMessagesState(world, user) };
  },
});

const create = authed({
  since: FEATURES.CREATE_SCHEDULED_MESSAGES,
  params: {
    type: literalStr(...RECIPIENT_TYPES).required(),
    to: str().required(),
    topic: str().alias('subject'),
    content: str().required(),
    scheduled_delivery_timestamp: json(int).required(),
    read_by_sender: json(bool).availableFrom(FEATURES.READ_BY_SENDER),
  },
  run(context, args) {
    const id = scheduleMessage(context.world, context.user, {
      type: args.type,
      to: args.to,
      topic: args.topic,
      content: args.content,
      scheduledDeliveryTimestamp: args.scheduled_delivery_timestamp,
      readBySender: args.read_by_sender,
      client: requestClient(context),
    });
    return { scheduled_message_id: id };
  },
});

const edit = authed({
  since: FEATURES.EDIT_SCHEDULED_MESSAGES,
  params: {
    type: literalStr(...RECIPIENT_TYPES),
    to: str(),
    topic: str().alias('subject'),
    content: str(),
    scheduled_delivery_timestamp: json(int),
  },
  run(context, args) {
    editScheduledMessage(context.world, context.user, scheduledId(context.path), {
      type: args.type,
      to: args.to,
      topic: args.topic,
      content: args.content,
      scheduledDeliveryTimestamp: args.scheduled_delivery_timestamp,
      client: requestClient(context),
    });
    return {};
  },
});

const remove = authed({
  since: FEATURES.SCHEDULED_MESSAGES,
  params: {},
  run({ world, user, path }) {
    deleteScheduledMessage(world, user, scheduledId(path));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/scheduled_messages', methods: { GET: list, POST: create } },
  { path: '/scheduled_messages/{scheduled_message_id:int}', methods: { PATCH: edit, DELETE: remove } },
];
