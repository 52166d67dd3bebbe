/**
 * `GET /__dev/queues` lists the open event queues; `POST /__dev/queues/expire` removes all of
 * them, one user's, or one queue, as the real server's idle-queue expiry would: a poll waiting on
 * the queue is answered with what it holds (as `DELETE /events` does), and the client's next
 * request with that queue ID gets `BAD_EVENT_QUEUE_ID`, so it registers again.
 *
 * `POST /__dev/queues/restart` simulates a server restart, for testing how a client handles one:
 * every event queue that takes `restart` events gets one, as the real server sends them when its
 * event system starts again (`send_restart_events`), and `server_generation` moves on. The event
 * has the fields of the emulated level: `zulip_version` and `zulip_feature_level` from 59,
 * `zulip_merge_base` from 88, and below 240 `immediate: true` when asked for. From 240,
 * `web_reload: true` also sends `web_reload_client` (with `immediate`), which the real server
 * sends to reload web clients after an upgrade. Queues survive, as they do a real restart.
 */
import type { EventQueue } from '../../lib/events/event-queue.js';
import { FEATURES } from '../../lib/features/feature-levels.js';
import { eventQueues } from '../../lib/events/queues.js';
import type { World } from '../../lib/state/world.js';
import type { ChatApp } from '../app/app.js';
import { longPoller } from '../app/long-poll.js';
import type { DevRoute } from './control.js';
import { DevRequestError, devSuccess, JsonFields } from './dev-json.js';

function queueJson(world: World, queue: EventQueue): Record<string, unknown> {
  const now = world.now();
  const user = world.users.get(queue.userId);
  return {
    queue_id: queue.id,
    user_id: queue.userId,
    email: user?.deliveryEmail ?? null,
    full_name: user?.fullName ?? null,
    event_types: queue.options.eventTypes,
    pending_events: queue.heldEvents().length,
    polling: queue.isWaiting,
    idle_seconds: queue.isWaiting ? 0 : Math.max(0, Math.floor((now - queue.lastConnection) / 1000)),
    // A queue with a waiting poll does not expire; an idle one when its lifetime has passed.
    expires_in_seconds: queue.isWaiting ? null : Math.max(0, Math.ceil((queue.timeoutMs - (now - queue.lastConnection)) / 1000)),
  };
}

/** The queues a request names: one queue ID, one user (ID or email), or every queue. */
function chosenQueues(world: World, fields: JsonFields): EventQueue[] {
  const queueId = fields.string('queue_id', 100);
  const userId = fields.number('user_id', 1, Number.MAX_SAFE_INTEGER, true);
  const email = fields.string('email', 254);
  fields.finish();
  const given = [queueId, userId, email].filter((value) => value !== undefined).length;
  if (given > 1) throw new DevRequestError(400, 'give at most one of queue_id, user_id and email');
  const registry = eventQueues(world);
  if (queueId !== undefined) {
    const queue = [...registry.all()].find((candidate) => candidate.id === queueId);
    if (!queue) throw new DevRequestError(404, `no event queue ${queueId}`);
    return [queue];
  }
  if (userId === undefined && email === undefined) return [...registry.all()];
  const user = userId !== undefined ? world.users.get(userId) : world.usersByEmail.get((email as string).toLowerCase());
  if (!user) throw new DevRequestError(404, `no user ${userId ?? email}`);
  return [...registry.forUser(user.id)];
}

interface RestartRequest {
  readonly immediate: boolean;
  readonly webReload: boolean;
}

function restartEvent(app: ChatApp, immediate: boolean): Record<string, unknown> & { type: string } {
  const { world } = app;
  return {
    type: 'restart',
    ...(world.has(FEATURES.RESTART_VERSION_FIELDS) ? { zulip_version: app.zulipVersion, zulip_feature_level: world.featureLevel } : {}),
    ...(world.has(FEATURES.MERGE_BASE) ? { zulip_merge_base: app.zulipVersion } : {}),
    server_generation: app.serverGeneration,
    ...(immediate && !world.has(FEATURES.WEB_RELOAD_CLIENT) ? { immediate: true } : {}),
  };
}

/** Sends the restart (and web reload) events to every user with a queue; returns how many queues there were. */
export function simulateRestart(app: ChatApp, request: RestartRequest): number {
  const { world } = app;
  if (request.webReload && !world.has(FEATURES.WEB_RELOAD_CLIENT)) throw new DevRequestError(400, 'web_reload_client events exist from feature level 240');
  app.serverGeneration = Math.max(app.serverGeneration + 1, Math.floor(world.now() / 1000));
  const queues = [...eventQueues(world).all()];
  const users = new Set(queues.map((queue) => queue.userId));
  world.events.send(restartEvent(app, request.immediate), users);
  if (request.webReload) world.events.send({ type: 'web_reload_client', immediate: request.immediate }, users);
  return queues.length;
}

const restartRoute: DevRoute = {
  path: '/__dev/queues/restart',
  methods: {
    POST: (request, control) => {
      const app = control.app();
      const fields = JsonFields.of(request);
      const immediate = fields.boolean('immediate') ?? false;
      const webReload = fields.boolean('web_reload') ?? false;
      fields.finish();
      const queues = simulateRestart(app, { immediate, webReload });
      return devSuccess({ queues, server_generation: app.serverGeneration });
    },
  },
};

export const queueRoutes: readonly DevRoute[] = [
  {
    path: '/__dev/queues',
    methods: {
      GET: (_request, control) => {
        const { world } = control.app();
        return devSuccess({ queues: [...eventQueues(world).all()].map((queue) => queueJson(world, queue)) });
      },
    },
  },
  {
    path: '/__dev/queues/expire',
    methods: {
      POST: (request, control) => {
        const app = control.app();
        const queues = chosenQueues(app.world, JsonFields.of(request));
        const registry = eventQueues(app.world);
        for (const queue of queues) {
          longPoller(app).finish(queue);
          registry.delete(queue);
        }
        return devSuccess({ expired: queues.map((queue) => queue.id) });
      },
    },
  },
  restartRoute,
];
