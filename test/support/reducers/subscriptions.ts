/**
 * `subscription` and `stream` events on the three channel lists of register (`subscriptions`,
 * `unsubscribed`, `never_subscribed`), as the web app's stream_events / peer_data and
 * zulip-mobile's subscription reducers apply them: channels are keyed by `stream_id`, subscriber
 * lists and `subscriber_count` follow the peer events, and a client that leaves a channel drops
 * itself from that channel's subscribers (it gets no `peer_remove` about itself).
 */
import { ascending, defineReducer, listOf, type State, unknownOp } from './registry.js';

const LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed'] as const;

/** Where channel `streamId` sits: the list and the index, or undefined. */
function locate(state: State, streamId: unknown): { list: State[]; index: number } | undefined {
  for (const key of LISTS) {
    const list = listOf(state, key);
    const index = list?.findIndex((item) => item.stream_id === streamId) ?? -1;
    if (list && index >= 0) return { list, index };
  }
  return undefined;
}

function take(state: State, streamId: unknown): State | undefined {
  const found = locate(state, streamId);
  if (!found) return undefined;
  return found.list.splice(found.index, 1)[0];
}

/** Adds (or removes) subscribers, keeping `subscriber_count` in step with the real change. */
function changeSubscribers(channel: State, userIds: readonly number[], add: boolean): void {
  const list = Array.isArray(channel.subscribers) ? (channel.subscribers as number[]) : undefined;
  let delta = userIds.length;
  if (list) {
    const before = new Set(list);
    const after = new Set(list);
    for (const id of userIds) {
      if (add) after.add(id);
      else after.delete(id);
    }
    delta = Math.abs(after.size - before.size);
    channel.subscribers = ascending(after);
  }
  if (typeof channel.subscriber_count === 'number') channel.subscriber_count += add ? delta : -delta;
}

/** The register `streams` list (event type `stream`): its channels' counts follow the same events. */
function countInStreams(state: State, streamIds: readonly unknown[], delta: number): void {
  for (const channel of listOf(state, 'streams') ?? []) {
    if (streamIds.includes(channel.stream_id) && typeof channel.subscriber_count === 'number') channel.subscriber_count += delta;
  }
}

const byName = (a: State, b: State): number => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0);

/** A subscription `add` carries the channel's current fields: the `streams` entry takes them. */
function upsertStream(state: State, sub: State): void {
  const streams = listOf(state, 'streams');
  const template = streams?.[0];
  if (!streams || !template) return;
  const channel: State = {};
  for (const key of Object.keys(template)) if (key in sub) channel[key] = sub[key];
  const index = streams.findIndex((s) => s.stream_id === sub.stream_id);
  if (index >= 0) streams[index] = { ...streams[index], ...channel };
  else streams.push(channel);
  streams.sort(byName);
}

/** Whether the client registered with subscriber lists (include_subscribers). */
const subscribersKnown = (state: State): boolean =>
  LISTS.some((key) => listOf(state, key)?.some((item) => 'subscribers' in item || 'partial_subscribers' in item));

/** Channel notification settings and the user settings a null one inherits. */
const NOTIFICATION_FALLBACKS: ReadonlyArray<readonly [string, string]> = [
  ['desktop_notifications', 'enable_stream_desktop_notifications'],
  ['email_notifications', 'enable_stream_email_notifications'],
  ['push_notifications', 'enable_stream_push_notifications'],
  ['audible_notifications', 'enable_stream_audible_notifications'],
  ['wildcard_mentions_notify', 'wildcard_mentions_notify'],
];

/**
 * Events carry null ("inherit") notification settings whatever the client declared; a client
 * without `notification_settings_null` resolves them against its own user settings, as register
 * does for it.
 */
function resolveInherited(state: State, sub: State): State {
  const settings = (state.user_settings ?? state) as State;
  const out = { ...sub };
  for (const [key, setting] of NOTIFICATION_FALLBACKS) if (out[key] === null) out[key] = settings[setting] === true;
  return out;
}

defineReducer('subscription', (state, event, { userId, capabilities }) => {
  if (event.op === 'add') for (const sub of event.subscriptions as State[]) upsertStream(state, sub);
  if (event.op === 'remove') countInStreams(state, (event.subscriptions as State[]).map((sub) => sub.stream_id), -1);
  if (event.op === 'peer_add' || event.op === 'peer_remove') countInStreams(state, event.stream_ids as number[], (event.op === 'peer_add' ? 1 : -1) * (event.user_ids as number[]).length);
  if (!listOf(state, 'subscriptions')) return;
  switch (event.op) {
    case 'add': {
      // `add` always carries the subscribers; a client that did not ask for them drops them.
      const keep = subscribersKnown(state);
      for (const sub of event.subscriptions as State[]) {
        take(state, sub.stream_id);
        const { subscribers: _subscribers, ...rest } = sub;
        const shown = keep ? sub : rest;
        listOf(state, 'subscriptions')!.push(capabilities.notification_settings_null ? shown : resolveInherited(state, shown));
      }
      return;
    }
    case 'remove':
      for (const { stream_id: streamId } of event.subscriptions as State[]) {
        const sub = take(state, streamId);
        if (!sub) continue;
        changeSubscribers(sub, [userId], false);
        listOf(state, 'unsubscribed')!.push(sub);
      }
      return;
    case 'peer_add':
    case 'peer_remove':
      for (const streamId of event.stream_ids as number[]) {
        const found = locate(state, streamId);
        if (found) changeSubscribers(found.list[found.index] as State, event.user_ids as number[], event.op === 'peer_add');
      }
      return;
    case 'update': {
      const found = locate(state, event.stream_id);
      if (!found) return;
      const entry = found.list[found.index] as State;
      entry[event.property as string] = event.value;
      // Before level 139 muting sends only the legacy, inverted in_home_view.
      if (event.property === 'in_home_view') entry.is_muted = !event.value;
      return;
    }
    default:
      unknownOp(event);
  }
});

/** `stream` events on the register `streams` list: sorted by name, counted from the peer events. */
function applyToStreams(state: State, event: State): void {
  const streams = listOf(state, 'streams');
  if (!streams) return;
  if (event.op === 'create') {
    for (const stream of event.streams as State[]) {
      if (streams.some((s) => s.stream_id === stream.stream_id)) continue;
      streams.push(typeof stream.subscriber_count === 'number' ? { ...stream, subscriber_count: 0 } : { ...stream });
    }
    streams.sort(byName);
  } else if (event.op === 'delete') {
    const ids = Array.isArray(event.stream_ids) ? (event.stream_ids as number[]) : (event.streams as State[]).map((s) => s.stream_id);
    state.streams = streams.filter((s) => !ids.includes(s.stream_id as number));
  } else if (event.op === 'update') {
    const channel = streams.find((s) => s.stream_id === event.stream_id);
    if (!channel) return;
    channel[event.property as string] = event.value;
    for (const key of ['rendered_description', 'history_public_to_subscribers', 'is_web_public']) if (key in event) channel[key] = event[key];
  }
}

defineReducer('stream', (state, event) => {
  applyToStreams(state, event);
  if (!listOf(state, 'subscriptions')) return;
  switch (event.op) {
    case 'create':
      for (const stream of event.streams as State[]) {
        if (locate(state, stream.stream_id)) continue;
        // A client learns a new channel's subscribers from the peer events that follow (also
        // when a channel becomes visible with subscribers already in it), so it counts from 0.
        const counted = typeof stream.subscriber_count === 'number' ? { subscriber_count: 0 } : {};
        listOf(state, 'never_subscribed')!.push(subscribersKnown(state) ? { ...stream, ...counted, subscribers: [] } : { ...stream, ...counted });
      }
      return;
    case 'delete': {
      const ids = Array.isArray(event.stream_ids) ? (event.stream_ids as number[]) : (event.streams as State[]).map((s) => s.stream_id);
      for (const id of ids) take(state, id);
      return;
    }
    case 'update': {
      const found = locate(state, event.stream_id);
      if (!found) return;
      const channel = found.list[found.index] as State;
      channel[event.property as string] = event.value;
      // Extra keys some updates carry (rendered_description, history_public_to_subscribers, ...).
      for (const key of ['rendered_description', 'history_public_to_subscribers', 'is_web_public']) if (key in event) channel[key] = event[key];
      return;
    }
    default:
      unknownOp(event);
  }
});

defineReducer('default_streams', (state, event) => {
  if ('realm_default_streams' in state) state.realm_default_streams = event.default_streams;
});

defineReducer('default_stream_groups', (state, event) => {
  if ('realm_default_stream_groups' in state) state.realm_default_stream_groups = event.default_stream_groups;
});
