/**
 * `subscription` and `stream` events on the three channel lists register gives
 * (`subscriptions`, `unsubscribed`, `never_subscribed`) and on `streams`, as the real server's
 * apply_event changes them. Channels are found by `stream_id` (the event's `name` is the old
 * name on a rename).
 */
import type { Replay } from '../replay-state.js';
import { ascending, idsIn, listIn, type QueueEvent, type State } from '../types.js';
import { UnmodelledEvent } from './unmodelled.js';

const LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed'] as const;

/** Keys a `stream` update event may carry beside `property`/`value`, applied with it. */
const EXTRA_UPDATE_KEYS = ['rendered_description', 'history_public_to_subscribers', 'is_web_public'];

function withoutChannel(state: State, key: string, streamIds: ReadonlySet<number>): State | undefined {
  const list = listIn(state, key);
  if (!list) return undefined;
  let removed: State | undefined;
  state[key] = list.filter((item) => {
    const hit = streamIds.has(item.stream_id as number);
    if (hit) removed = item;
    return !hit;
  });
  return removed;
}

function subscription(replay: Replay, event: QueueEvent): void {
  const { state, view } = replay;
  if (!listIn(state, 'subscriptions')) return;
  switch (event.op) {
    case 'add': {
      const added = (event.subscriptions ?? []) as State[];
      const ids = new Set(added.map((sub) => sub.stream_id as number));
      const existing = new Set((listIn(state, 'subscriptions') ?? []).map((sub) => sub.stream_id as number));
      for (const sub of added) {
        if (existing.has(sub.stream_id as number)) continue;
        const copy = structuredClone(sub);
        if (!view.includeSubscribers) delete copy.subscribers;
        listIn(state, 'subscriptions')?.push(copy);
      }
      withoutChannel(state, 'unsubscribed', ids);
      withoutChannel(state, 'never_subscribed', ids);
      return;
    }
    case 'remove': {
      const ids = new Set(((event.subscriptions ?? []) as State[]).map((sub) => sub.stream_id as number));
      const removed = (listIn(state, 'subscriptions') ?? []).filter((sub) => ids.has(sub.stream_id as number));
      for (const sub of removed) if (Array.isArray(sub.subscribers)) sub.subscribers = idsIn(sub.subscribers).filter((id) => id !== view.userId);
      state.subscriptions = (listIn(state, 'subscriptions') ?? []).filter((sub) => !ids.has(sub.stream_id as number));
      listIn(state, 'unsubscribed')?.push(...removed);
      return;
    }
    case 'update': {
      const sub = listIn(state, 'subscriptions')?.find((s) => s.stream_id === event.stream_id);
      if (!sub) return;
      sub[event.property as string] = event.value;
      // Before level 139 only `in_home_view` was sent; it is `is_muted` negated.
      if (event.property === 'in_home_view' && 'is_muted' in sub) sub.is_muted = event.value !== true;
      if (event.property === 'is_muted' && 'in_home_view' in sub) sub.in_home_view = event.value !== true;
      return;
    }
    case 'peer_add':
    case 'peer_remove': {
      if (!view.includeSubscribers) return;
      const streamIds = new Set(idsIn(event.stream_ids ?? [event.stream_id]));
      const userIds = idsIn(event.user_ids ?? [event.user_id]);
      for (const key of LISTS) {
        for (const channel of listIn(state, key) ?? []) {
          if (!streamIds.has(channel.stream_id as number) || !Array.isArray(channel.subscribers)) continue;
          const subscribers = new Set(idsIn(channel.subscribers));
          for (const id of userIds) {
            if (event.op === 'peer_add') subscribers.add(id);
            else subscribers.delete(id);
          }
          channel.subscribers = ascending(subscribers);
        }
      }
      return;
    }
    default:
      throw new UnmodelledEvent(`subscription op ${String(event.op)}`);
  }
}

const byName = (a: State, b: State) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0);

function stream(replay: Replay, event: QueueEvent): void {
  const { state, view } = replay;
  switch (event.op) {
    case 'create': {
      for (const created of (event.streams ?? []) as State[]) {
        if (listIn(state, 'subscriptions')) {
          const copy = structuredClone(created);
          if (view.includeSubscribers) copy.subscribers = [];
          listIn(state, 'never_subscribed')?.push(copy);
          listIn(state, 'never_subscribed')?.sort(byName);
        }
        if (listIn(state, 'streams')) {
          listIn(state, 'streams')?.push(structuredClone(created));
          listIn(state, 'streams')?.sort(byName);
        }
      }
      return;
    }
    case 'delete': {
      const ids = new Set(Array.isArray(event.stream_ids) ? idsIn(event.stream_ids) : ((event.streams ?? []) as State[]).map((s) => s.stream_id as number));
      for (const key of [...LISTS, 'streams']) withoutChannel(state, key, ids);
      return;
    }
    case 'update': {
      // A client keeps the fields its channel objects have (before level 226 only subscriptions
      // carried `email_address`, which a rename updates first).
      const property = event.property as string;
      for (const key of [...LISTS, 'streams']) {
        for (const channel of listIn(state, key) ?? []) {
          if (channel.stream_id !== event.stream_id || !(property in channel)) continue;
          channel[property] = event.value;
          for (const extra of EXTRA_UPDATE_KEYS) if (extra in event && event[extra] !== null) channel[extra] = event[extra];
        }
      }
      return;
    }
    default:
      throw new UnmodelledEvent(`stream op ${String(event.op)}`);
  }
}

function defaultStreams(replay: Replay, event: QueueEvent): void {
  if ('realm_default_streams' in replay.state) replay.state.realm_default_streams = event.default_streams;
}

export const CHANNEL_REDUCERS: ReadonlyArray<readonly [string, (replay: Replay, event: QueueEvent) => void]> = [
  ['subscription', subscription],
  ['stream', stream],
  ['default_streams', defaultStreams],
];
