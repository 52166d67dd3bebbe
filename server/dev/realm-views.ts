/**
 * Read-only views of the realm for the development page and for tools in any language:
 * `GET /__dev/realm`, `/__dev/users` (with API keys), `/__dev/channels`, `/__dev/messages` (newest first, the
 * Markdown source and the stored sanitised HTML). Plain JSON in the API's envelope; not the API's
 * own formats, which depend on who asks.
 */
import type { Message } from '../../lib/entities/message.js';
import type { World } from '../../lib/state/world.js';
import { subscriberIds } from '../../lib/queries/channels/channels.js';
import type { DevRoute } from './control.js';
import { devSuccess, queryInteger } from './dev-json.js';

const ROLE_NAMES = new Map<number, string>([
  [100, 'owner'],
  [200, 'administrator'],
  [300, 'moderator'],
  [400, 'member'],
  [600, 'guest'],
]);

const BOT_TYPE_NAMES = new Map<number, string>([
  [1, 'generic'],
  [2, 'incoming webhook'],
  [3, 'outgoing webhook'],
  [4, 'embedded'],
]);

/** The first `limit` values, without copying the rest. */
function firstOf<T>(values: Iterable<T>, limit: number): T[] {
  const out: T[] = [];
  for (const value of values) {
    if (out.length >= limit) break;
    out.push(value);
  }
  return out;
}

function users(world: World, limit: number): Record<string, unknown>[] {
  const realmUsers = [...world.users.values()].filter((user) => !user.isSystemBot);
  return firstOf(realmUsers, limit).map((user) => ({
    user_id: user.id,
    email: user.deliveryEmail,
    full_name: user.fullName,
    role: user.role,
    role_name: ROLE_NAMES.get(user.role) ?? String(user.role),
    is_active: user.isActive,
    is_bot: user.isBot,
    bot_type: user.botType === null ? null : (BOT_TYPE_NAMES.get(user.botType) ?? String(user.botType)),
    api_key: user.apiKey,
  }));
}

function channels(world: World, limit: number): Record<string, unknown>[] {
  return firstOf(world.streams.values(), limit).map((stream) => ({
    stream_id: stream.id,
    name: stream.name,
    description: stream.description,
    invite_only: stream.inviteOnly,
    is_web_public: stream.isWebPublic,
    is_archived: stream.isArchived,
    subscriber_count: subscriberIds(world, stream.id).length,
  }));
}

function recipientOf(world: World, message: Message): Record<string, unknown> {
  const { recipient } = message;
  if (recipient.kind === 'stream') return { type: 'stream', stream_id: recipient.streamId, channel: world.streams.get(recipient.streamId)?.name ?? null, topic: recipient.topic };
  return { type: 'private', user_ids: recipient.userIds, names: recipient.userIds.map((id) => world.users.get(id)?.fullName ?? `#${id}`) };
}

function messages(world: World, limit: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const all = world.messages.index.all;
  for (let id = all.last; id !== undefined && out.length < limit; id = all.atMost(id - 1)) {
    const message = world.messages.get(id);
    if (!message) continue;
    out.push({
      id: message.id,
      sender_id: message.senderId,
      sender_full_name: world.users.get(message.senderId)?.fullName ?? null,
      ...recipientOf(world, message),
      content: message.content,
      rendered_content: message.renderedContent,
      timestamp: Math.floor(message.sentAt / 1000),
    });
  }
  return out;
}

const listed = (name: string, view: (world: World, limit: number) => Record<string, unknown>[], count: (world: World) => number, fallback: number): DevRoute => ({
  path: `/__dev/${name}`,
  methods: {
    GET: (request, control) => {
      const { world } = control.app();
      return devSuccess({ [name]: view(world, queryInteger(request, 'limit', fallback, 1, 10_000)), total: count(world) });
    },
  },
});

export const realmViewRoutes: readonly DevRoute[] = [
  {
    path: '/__dev/realm',
    methods: {
      GET: (_request, control) => {
        const app = control.app();
        const { world } = app;
        return devSuccess({ realm_name: world.realm.name, realm_url: world.realm.url, feature_level: world.featureLevel, zulip_version: app.zulipVersion, push_configured: world.pushConfigured });
      },
    },
  },
  listed('users', users, (world) => [...world.users.values()].filter((user) => !user.isSystemBot).length, 1000),
  listed('channels', channels, (world) => world.streams.size, 1000),
  listed('messages', messages, (world) => world.messages.size, 20),
];
