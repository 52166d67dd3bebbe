/**
 * How each part of a register answer is compared. Every normalisation says why: two registers
 * legitimately differ there, or a client keeps the part by identity rather than in the server's
 * order. Each part splits into what the run owns (its channels, groups, identities, messages),
 * always compared, and the rest, compared only when nothing else changed it during the run (on a
 * shared realm other people's traffic changes it, and events for it may still be in flight).
 */
import { conversationKey } from './replay-state.js';
import { Keyed } from './norm.js';
import { idsIn, type State } from './types.js';

/** What the run owns on the target. */
export interface Scope {
  readonly channelIds: ReadonlySet<number>;
  readonly groupIds: ReadonlySet<number>;
  readonly userIds: ReadonlySet<number>;
  readonly messageIds: ReadonlySet<number>;
  /** `recent_private_conversations` keys no client can know after a deletion. */
  readonly unknowableConversations: ReadonlySet<string>;
  /**
   * The observer is a guest on a server below level 220, which sent guests no peer events for
   * public channels (the real changelog calls it a bug): their subscriber lists are left out
   * (of private channels too: one made private keeps the list it had while public).
   */
  readonly guestWithoutPeerEvents: boolean;
  /**
   * The observer is a guest on a server below level 192, which sent a guest subscribed to a public
   * channel no `stream`/`create` (fixed at 192): the register's `streams` list is not compared.
   */
  readonly guestWithoutCreateEvents: boolean;
}

/** Level 220: guests get peer events for web-public and subscribed public channels. */
export const GUEST_PEER_EVENTS_LEVEL = 220;
/** Level 192: a guest subscribed to a public channel gets `stream`/`create` for it. */
export const GUEST_CREATE_EVENTS_LEVEL = 192;

export interface Split {
  readonly own: unknown;
  /** undefined: nothing outside the run's objects. */
  readonly foreign?: unknown;
  /** Totals over own and foreign objects alike: compared when the foreign part did not change. */
  readonly derived?: unknown;
}

export interface KeyRule {
  readonly keys: readonly string[];
  /** Why this part is normalised as it is (shown in the documentation and the report's notes). */
  readonly reason: string;
  split(value: unknown, scope: Scope): Split;
}

/** Keys two registers legitimately differ in, never compared. */
export const VOLATILE_KEYS: ReadonlyMap<string, string> = new Map([
  ['result', 'the envelope'],
  ['msg', 'the envelope'],
  ['ignored_parameters_unsupported', 'the envelope'],
  ['queue_id', 'each register creates its own queue'],
  ['last_event_id', 'each register creates its own queue'],
  ['server_timestamp', 'the time of the register call'],
  ['presence_last_update_id', 'no event carries it (the real test suite fixes it too)'],
]);

/** Fields of a channel no event keeps up to date. */
const CHANNEL_STATISTICS = ['subscriber_count', 'stream_weekly_traffic', 'is_recently_active'];

/** Numbers by value, anything else by its text. */
const setOrder = (a: unknown, b: unknown): number => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

const sortedIds = (value: unknown) => (Array.isArray(value) ? idsIn(value).sort((a, b) => a - b) : value);

function channel(item: State, scope: Scope): State {
  const out: State = { ...item };
  for (const key of CHANNEL_STATISTICS) delete out[key];
  for (const key of ['subscribers', 'partial_subscribers']) {
    if (!(key in out)) continue;
    if (scope.guestWithoutPeerEvents) delete out[key];
    else out[key] = sortedIds(out[key]);
  }
  return out;
}

/** Splits a list by whether `owned` accepts an item; each side keyed by `label`. */
function splitList(value: unknown, owned: (item: State) => boolean, label: (item: State) => string, shape: (item: State) => unknown = (item) => item): Split {
  const items = Array.isArray(value) ? (value as State[]) : [];
  return {
    own: Keyed.of(items.filter(owned), label, shape),
    foreign: Keyed.of(
      items.filter((item) => !owned(item)),
      label,
      shape,
    ),
  };
}

function unreadSplit(value: unknown, scope: Scope): Split {
  const unread = (value ?? {}) as State;
  const pms = (unread.pms ?? []) as State[];
  const streams = (unread.streams ?? []) as State[];
  const huddles = (unread.huddles ?? []) as State[];
  const ownPm = (pm: State) => scope.userIds.has((pm.other_user_id ?? pm.sender_id) as number);
  const ownStream = (s: State) => scope.channelIds.has(s.stream_id as number);
  const ownHuddle = (h: State) => String(h.user_ids_string).split(',').every((id) => scope.userIds.has(Number(id)));
  const pmLabel = (pm: State) => `user ${String(pm.other_user_id ?? pm.sender_id)}`;
  const streamLabel = (s: State) => `channel ${String(s.stream_id)} topic ${JSON.stringify(String(s.topic).toLowerCase())}`;
  const huddleLabel = (h: State) => `users ${String(h.user_ids_string)}`;
  const mentions = idsIn(unread.mentions).sort((a, b) => a - b);
  return {
    own: {
      pms: Keyed.of(pms.filter(ownPm), pmLabel),
      streams: Keyed.of(streams.filter(ownStream), streamLabel),
      huddles: Keyed.of(huddles.filter(ownHuddle), huddleLabel),
      mentions: mentions.filter((id) => scope.messageIds.has(id)),
    },
    foreign: {
      pms: Keyed.of(pms.filter((pm) => !ownPm(pm)), pmLabel),
      streams: Keyed.of(streams.filter((s) => !ownStream(s)), streamLabel),
      huddles: Keyed.of(huddles.filter((h) => !ownHuddle(h)), huddleLabel),
      mentions: mentions.filter((id) => !scope.messageIds.has(id)),
    },
    derived: { count: unread.count, old_unreads_missing: unread.old_unreads_missing },
  };
}

const CHANNEL_LIST_REASON =
  'as subscriptions, and first_message_id left out: only subscribers get the message events that set it (the real apply_event updates it for subscribed channels only)';

function channelList(value: unknown, scope: Scope): Split {
  return splitList(value, (item) => scope.channelIds.has(item.stream_id as number), (item) => `channel ${String(item.stream_id)}`, (item) => {
    const { first_message_id: _first, ...rest } = channel(item, scope);
    return rest;
  });
}

export const KEY_RULES: readonly KeyRule[] = [
  {
    keys: ['subscriptions'],
    reason:
      'keyed by channel ID (clients keep channels by ID; the server sorts by name); subscriber_count, stream_weekly_traffic and is_recently_active left out (statistics no event keeps current; the real test suite drops subscriber_count too); subscriber lists sorted, and left out for guests below level 220 (no peer events for public channels reached them)',
    split: (value, scope) =>
      splitList(
        value,
        (item) => scope.channelIds.has(item.stream_id as number),
        (item) => `channel ${String(item.stream_id)}`,
        (item) => channel(item, scope),
      ),
  },
  {
    keys: ['unsubscribed', 'never_subscribed'],
    reason: CHANNEL_LIST_REASON,
    split: channelList,
  },
  {
    keys: ['streams'],
    reason: `${CHANNEL_LIST_REASON}; not compared for guests below level 192 (a guest subscribed to a public channel got no stream/create; the changelog calls it a bug)`,
    split: (value, scope) => (scope.guestWithoutCreateEvents ? { own: null } : channelList(value, scope)),
  },
  {
    keys: ['realm_users', 'realm_non_active_users', 'cross_realm_bots'],
    reason: 'keyed by user ID; other users are compared only when nothing else changed them',
    split: (value, scope) => splitList(value, (item) => scope.userIds.has(item.user_id as number), (item) => `user ${String(item.user_id)}`),
  },
  {
    keys: ['realm_user_groups'],
    reason: 'keyed by group ID; groups other than the run\'s are compared only when nothing else changed them',
    split: (value, scope) => splitList(value, (item) => scope.groupIds.has(item.id as number), (item) => `group ${String(item.id)}`),
  },
  {
    keys: ['unread_msgs'],
    reason:
      'lists keyed by conversation (channel and topic, user, users); mentions sorted (the server answers a set); count and old_unreads_missing cover the whole realm, so they are compared only when nothing else changed the unread messages',
    split: unreadSplit,
  },
  {
    keys: ['starred_messages', 'alert_words'],
    reason: 'sorted: a set (events append, register answers in its own order)',
    split: (value) => ({ own: Array.isArray(value) ? [...value].sort(setOrder) : value }),
  },
  {
    keys: ['recent_private_conversations'],
    reason:
      'keyed by the other users\' IDs; a conversation whose newest message was deleted is left out (register recomputes it from the database, no event says which message came before)',
    split: (value, scope) =>
      splitList(
        (Array.isArray(value) ? (value as State[]) : []).filter((c) => !scope.unknowableConversations.has(conversationKey(idsIn(c.user_ids)))),
        (item) => idsIn(item.user_ids).every((id) => scope.userIds.has(id)),
        (item) => `users ${conversationKey(idsIn(item.user_ids)) || '(self)'}`,
      ),
  },
  {
    keys: ['drafts', 'saved_snippets', 'muted_users'],
    reason: 'keyed by ID: register sorts drafts by edit time, events add at the end',
    split: (value) => ({ own: Keyed.of(Array.isArray(value) ? (value as State[]) : [], (item) => `id ${String(item.id)}`) }),
  },
  {
    keys: ['user_topics'],
    reason: 'keyed by channel and topic (case-insensitive, as topics match)',
    split: (value, scope) =>
      splitList(value, (item) => scope.channelIds.has(item.stream_id as number), (item) => `channel ${String(item.stream_id)} topic ${JSON.stringify(String(item.topic_name).toLowerCase())}`),
  },
  {
    keys: ['user_status'],
    reason: 'statuses of users other than the run\'s identities are compared only when nothing else changed them',
    split: (value, scope) => {
      const entries = value !== null && typeof value === 'object' ? Object.entries(value as State) : [];
      const own = new Map(entries.filter(([id]) => scope.userIds.has(Number(id))).map(([id, status]) => [`user ${id}`, status] as const));
      const foreign = new Map(entries.filter(([id]) => !scope.userIds.has(Number(id))).map(([id, status]) => [`user ${id}`, status] as const));
      return { own: new Keyed(own), foreign: new Keyed(foreign) };
    },
  },
];

const RULES_BY_KEY: ReadonlyMap<string, KeyRule> = new Map(KEY_RULES.flatMap((rule) => rule.keys.map((key) => [key, rule] as const)));

/** The rule for a state key; anything without one is compared as it is. */
export function ruleFor(key: string): KeyRule | undefined {
  return RULES_BY_KEY.get(key);
}
