/**
 * `POST /register` (real-server notes on http-register-events 3): creates an event queue and returns it with the
 * initial state of the wanted event types (lib/queries/register/register-state.ts).
 */
import { badRequest } from '../../../lib/errors.js';
import { checkNarrowForEvents, narrowSchema } from '../../../lib/events/narrow.js';
import { CAPABILITY_NAMES, capabilitiesFrom } from '../../../lib/entities/client-capabilities.js';
import { checkAllPublicStreams, type QueueOptions } from '../../../lib/events/queue-options.js';
import { eventQueues } from '../../../lib/events/queues.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { type JsonValue, tryParseJson } from '../../../lib/input/json.js';
import { initialState, type RegisterOptions } from '../../../lib/queries/register/register-state.js';
import { bool, int, keyPath, list, nullable, schema, str as strSchema } from '../../../lib/input/schema.js';
import type { World } from '../../../lib/state/world.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { longPoller } from '../../app/long-poll.js';
import { json, str } from '../../app/params.js';

const KNOWN_CAPABILITIES = new Set(CAPABILITY_NAMES.map(([wire]) => wire));

/**
 * `client_capabilities`: known keys must be booleans, unknown keys are ignored. The real
 * server's schema requires `notification_settings_null` (omitting it is unconfirmed, possibly a
 * 500); here it defaults to false like every other capability.
 */
const capabilitiesSchema = schema<Map<string, boolean>>((value, path) => {
  if (!(value instanceof Map)) throw badRequest(`${path} is not a dict`);
  const out = new Map<string, boolean>();
  for (const [key, item] of value) if (KNOWN_CAPABILITIES.has(key)) out.set(key, bool.parse(item, keyPath(path, key)));
  return out;
});

type IncludeSubscribers = RegisterOptions['includeSubscribers'];

/**
 * `include_subscribers` is a plain string (`true`, `false`, `partial`) since FL 412; before, it
 * was a JSON boolean with the usual JSON errors.
 */
function includeSubscribers(world: World, raw: string | undefined): IncludeSubscribers {
  if (raw === undefined) return 'false';
  const name = 'include_subscribers';
  if (world.has(FEATURES.PARTIAL_SUBSCRIBERS)) {
    if (raw !== 'true' && raw !== 'false' && raw !== 'partial') throw badRequest(`Invalid ${name}`);
    return raw;
  }
  const parsed: { value: JsonValue } | undefined = tryParseJson(raw);
  if (!parsed) throw badRequest(`${name} is not valid JSON`);
  if (typeof parsed.value !== 'boolean') throw badRequest(`${name} is not a boolean`);
  return parsed.value ? 'true' : 'false';
}

const register = authed({
  params: {
    apply_markdown: json(bool).default(false),
    client_gravatar: json(bool),
    slim_presence: json(bool).default(false),
    presence_history_limit_days: json(int).availableFrom(FEATURES.PRESENCE_HISTORY_LIMIT_DAYS),
    all_public_streams: json(bool),
    include_subscribers: str(),
    include_streams: json(bool).default(true),
    client_capabilities: json(capabilitiesSchema),
    event_types: json(nullable(list(strSchema))),
    fetch_event_types: json(nullable(list(strSchema))),
    narrow: json(narrowSchema).default([]),
    queue_lifespan_secs: json(int).default(0),
  },
  run({ app, world, user, request }, args) {
    const subscribers = includeSubscribers(world, args.include_subscribers);
    const allPublicStreams = args.all_public_streams ?? false;
    checkAllPublicStreams(user, allPublicStreams);
    checkNarrowForEvents(args.narrow);
    const capabilities = capabilitiesFrom(args.client_capabilities ?? new Map());
    const eventTypes = args.event_types ?? null;
    const clientGravatar = args.client_gravatar ?? world.has(FEATURES.CLIENT_GRAVATAR_DEFAULT_TRUE);
    const queueOptions: QueueOptions = {
      eventTypes,
      narrow: args.narrow,
      applyMarkdown: args.apply_markdown,
      clientGravatar,
      slimPresence: args.slim_presence,
      allPublicStreams,
      capabilities,
      lifespanSecs: args.queue_lifespan_secs,
    };
    // The queue exists before the state is read, so no event can fall between the two.
    longPoller(app);
    const queue = eventQueues(world).create(user.id, queueOptions, app.eventOptions.queueTimeoutSecs, app.eventOptions.maxQueuesPerUser);
    const options: RegisterOptions = {
      capabilities,
      applyMarkdown: args.apply_markdown,
      clientGravatar,
      slimPresence: args.slim_presence,
      presenceHistoryLimitDays: args.presence_history_limit_days ?? null,
      includeSubscribers: subscribers,
      includeStreams: args.include_streams,
      fetchEventTypes: args.fetch_event_types ?? eventTypes,
      realmUrl: app.realmUrl(request),
      server: {
        zulipVersion: app.zulipVersion,
        longpollTimeoutSecs: app.eventOptions.longpollTimeoutSecs,
        devEndpoints: app.devEndpoints,
        serverGeneration: app.serverGeneration,
      },
    };
    const state = initialState(world, user, options);
    return {
      queue_id: queue.id,
      zulip_version: app.zulipVersion,
      zulip_feature_level: world.featureLevel,
      ...(world.has(FEATURES.MERGE_BASE) ? { zulip_merge_base: app.zulipVersion } : {}),
      ...state,
      // Events that reached the queue while the state was read would be folded in here; the
      // world is single-threaded, so there are none.
      last_event_id: -1,
    };
  },
});

export const routes: RouteDef[] = [{ path: '/register', methods: { POST: register } }];
