/**
 * `GET /events` and `DELETE /events` (real-server notes on http-register-events 4.2 and 4.3): long polling on an
 * event queue registered with `POST /register`.
 */
import { badRequest } from '../../../lib/errors.js';
import { checkNarrowForEvents, narrowSchema } from '../../../lib/events/narrow.js';
import { capabilitiesFrom } from '../../../lib/entities/client-capabilities.js';
import { checkAllPublicStreams, type QueueOptions } from '../../../lib/events/queue-options.js';
import { eventQueues } from '../../../lib/events/queues.js';
import { bool, int, list, nullable, refine, str as strSchema } from '../../../lib/input/schema.js';
import { authed, RawReply, type RouteDef } from '../../app/endpoint.js';
import { longPoller } from '../../app/long-poll.js';
import { json, str } from '../../app/params.js';
import { success } from '../../app/respond.js';

const nonNegative = refine(int, (value, path) => {
  // pydantic's NonNegativeInt; the real server has no template for this error (a 500).
  if (value < 0) throw badRequest(`${path} is too small`);
});

const flag = (fallback: boolean) => json(bool).default(fallback);

/** The capability booleans `GET /events` takes as separate parameters when it creates a queue. */
const CAPABILITY_PARAMS = {
  bulk_message_deletion: flag(false),
  stream_typing_notifications: flag(false),
  pronouns_field_type_supported: flag(true),
  linkifier_url_template: flag(false),
  user_list_incomplete: flag(false),
  include_deactivated_groups: flag(false),
  archived_channels: flag(false),
  empty_topic_name: flag(false),
  simplified_presence_events: flag(false),
};

const getEvents = authed({
  // Declaration order is the real view's; everything after queue_id only matters when the
  // call creates a queue, but is validated (and consumed) on every call.
  params: {
    last_event_id: json(int),
    queue_id: str(),
    apply_markdown: flag(false),
    client_gravatar: flag(false),
    slim_presence: flag(false),
    all_public_streams: flag(false),
    event_types: json(nullable(list(strSchema))),
    dont_block: flag(false),
    narrow: json(nullable(narrowSchema)),
    lifespan_secs: json(nonNegative).default(0),
    ...CAPABILITY_PARAMS,
  },
  async run({ app, world, user, request }, args) {
    checkAllPublicStreams(user, args.all_public_streams);
    const registry = eventQueues(world);
    const poller = longPoller(app);
    if (args.queue_id === undefined) {
      if (!args.dont_block) throw badRequest("Missing 'queue_id' argument");
      const narrow = args.narrow ?? [];
      checkNarrowForEvents(narrow);
      const capabilities = new Map(Object.keys(CAPABILITY_PARAMS).map((name) => [name, args[name as keyof typeof CAPABILITY_PARAMS]]));
      const options: QueueOptions = {
        eventTypes: args.event_types ?? null,
        narrow,
        applyMarkdown: args.apply_markdown,
        clientGravatar: args.client_gravatar,
        slimPresence: args.slim_presence,
        allPublicStreams: args.all_public_streams,
        capabilities: capabilitiesFrom(capabilities),
        lifespanSecs: args.lifespan_secs,
      };
      const queue = registry.create(user.id, options, app.eventOptions.queueTimeoutSecs, app.eventOptions.maxQueuesPerUser);
      return { events: [...queue.contents()], queue_id: queue.id };
    }
    if (args.last_event_id === undefined) throw badRequest("Missing 'last_event_id' argument");
    const queue = registry.get(user.id, args.queue_id);
    queue.acknowledge(args.last_event_id);
    // Supersession: an earlier poll on this queue answers now with what the queue holds.
    poller.finish(queue);
    if (!queue.isEmpty || args.dont_block) return { events: [...queue.contents()] };
    const events = await poller.wait(queue, request.signal);
    // A poll answered after waiting carries queue_id and skips ignored_parameters_unsupported.
    return new RawReply(success({ events, queue_id: queue.id }));
  },
});

const deleteEvents = authed({
  params: { queue_id: str().required() },
  run({ app, world, user }, args) {
    const registry = eventQueues(world);
    const queue = registry.get(user.id, args.queue_id);
    // A poll waiting on the queue is answered first, with the queue's current events.
    longPoller(app).finish(queue);
    registry.delete(queue);
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/events', methods: { GET: getEvents, DELETE: deleteEvents } }];
