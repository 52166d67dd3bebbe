/**
 * Creating channels through subscribe (section 4.1): who may create what, the settings a new
 * channel gets, and the `stream`/`create` and `default_streams` events.
 */
import { defaultChannelSettings } from '../../settings/defaults.js';
import { badRequest, badValue, insufficientPermission, mustBeOwner } from '../../errors.js';
import type { GroupSetting } from '../../entities/group.js';
import type { RealmPermissionSetting } from '../../entities/realm.js';
import type { ChannelPermissionSetting, Stream, TopicsPolicy } from '../../entities/stream.js';
import { isAdministrator, isOwner, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { activeUsersAudience, channelCreationAudience } from '../../queries/channels/channel-access.js';
import { channelToApi } from '../../queries/channels/channels.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { render } from '../../rendering/render.js';
import { compareCodePoints } from '../../input/strings.js';
import type { World } from '../../state/world.js';

/** The request's settings for channels it creates; ignored for channels that already exist. */
export interface NewChannelSettings {
  readonly inviteOnly: boolean;
  readonly isWebPublic: boolean;
  readonly isDefaultStream: boolean;
  readonly historyPublicToSubscribers: boolean | null;
  /** Null is the realm default; -1 is unlimited. */
  readonly messageRetentionDays: number | null;
  readonly topicsPolicy: TopicsPolicy | undefined;
  /** A checked folder ID, or null (absent: no folder). */
  readonly folderId?: number | null;
  /** Validated group settings overriding the defaults of `defaultChannelSettings`. */
  readonly settings: ReadonlyMap<ChannelPermissionSetting, GroupSetting>;
}

const realmPermits = (world: World, user: User, setting: RealmPermissionSetting): boolean => {
  const value = world.realm.settings.get(setting);
  return value !== undefined && hasGroupSetting(world, user, value);
};

/**
 * `message_retention_days`: `realm_default` (null), `unlimited` (-1; `forever` before level 91)
 * or a positive integer; anything else is REQUEST_VARIABLE_INVALID.
 */
export function parseRetentionDays(world: World, value: string | number): number | null {
  const unlimited = world.has(FEATURES.RETENTION_UNLIMITED) ? 'unlimited' : 'forever';
  if (value === 'realm_default') return null;
  if (value === unlimited) return -1;
  if (typeof value === 'number' && value > 0) return value;
  throw badValue('message_retention_days', value);
}

/**
 * The real server's `check_channel_creation_permissions`, in its order. A private web-public
 * channel has no valid policy (the real server fails with a 500); we refuse the combination.
 */
export function checkChannelCreation(world: World, user: User, options: Omit<NewChannelSettings, 'settings' | 'topicsPolicy' | 'historyPublicToSubscribers'>): void {
  if (options.inviteOnly && !realmPermits(world, user, 'can_create_private_channel_group')) throw insufficientPermission();
  if (!options.inviteOnly && !realmPermits(world, user, 'can_create_public_channel_group')) throw insufficientPermission();
  if (options.isDefaultStream && !isAdministrator(user)) throw insufficientPermission();
  if (options.inviteOnly && options.isDefaultStream) throw badRequest('A default channel cannot be private.');
  if (options.isWebPublic) {
    if (!world.realm.enableSpectatorAccess) throw badRequest('Web-public channels are not enabled.');
    if (!realmPermits(world, user, 'can_create_web_public_channel_group')) throw insufficientPermission();
    if (options.inviteOnly) {
      throw badRequest('Unsupported parameter combination: invite_only, is_web_public', { parameters: ['invite_only', 'is_web_public'] });
    }
  }
  if (options.messageRetentionDays !== null && !isOwner(user)) throw mustBeOwner();
}

/** Builds (does not store) a channel; allocates its ID, so call it only once every check passed. */
export function buildChannel(world: World, creator: User, name: string, description: string, options: NewChannelSettings): Stream {
  const settings = defaultChannelSettings(world, creator.id);
  for (const [setting, value] of options.settings) settings.set(setting, value);
  return {
    id: world.ids.next('stream'),
    name,
    description,
    renderedDescription: description === '' ? '' : render(world, description),
    inviteOnly: options.inviteOnly,
    isWebPublic: options.isWebPublic,
    // Public channels always have public history (test_history_public_to_subscribers_on_stream_creation).
    historyPublicToSubscribers: options.inviteOnly ? (options.historyPublicToSubscribers ?? false) : true,
    messageRetentionDays: options.messageRetentionDays,
    creatorId: creator.id,
    dateCreated: world.now(),
    isArchived: false,
    topicsPolicy: options.topicsPolicy ?? 'inherit',
    folderId: options.folderId ?? null,
    firstMessageId: null,
    settings,
  };
}

/** Stores a new channel and tells the users who can see it exist (`stream`/`create`). */
export function storeChannel(world: World, stream: Stream): void {
  world.streams.set(stream.id, stream);
  world.subscribersOf(stream.id);
  let audience = channelCreationAudience(world, stream);
  // Before level 220 guests were not told about new web-public channels.
  if (stream.isWebPublic && !world.has(FEATURES.GUEST_PEER_AND_CREATE_EVENTS)) {
    audience = activeUsersAudience(world, { includeGuests: false });
  }
  world.events.send({ type: 'stream', op: 'create', streams: [channelToApi(world, stream, { withoutTraffic: true })] }, audience);
}

/** Marks channels as default channels and sends `default_streams` to every active non-guest user. */
export function addDefaultChannels(world: World, streams: readonly Stream[]): void {
  if (streams.length === 0) return;
  for (const stream of streams) world.defaultStreamIds.add(stream.id);
  sendDefaultStreamsEvent(world);
}

/** The whole default-channel list (IDs from level 330, channel objects before) to every active non-guest. */
export function sendDefaultStreamsEvent(world: World): void {
  const defaults = [...world.defaultStreamIds].map((id) => world.streams.get(id)).filter((s): s is Stream => s !== undefined);
  const payload = world.has(FEATURES.DEFAULT_STREAMS_EVENT_IDS)
    ? defaults.map((s) => s.id).sort((a, b) => a - b)
    : defaults.sort((a, b) => compareCodePoints(a.name, b.name)).map((s) => channelToApi(world, s));
  world.events.send({ type: 'default_streams', default_streams: payload }, activeUsersAudience(world, { includeGuests: false }));
}
