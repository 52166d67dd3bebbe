/**
 * `presence` events on register's `presences`, in the three formats (presence-format.ts of the
 * server): a modern `presences` map replaces the user's entry; a legacy event keyed by email
 * merges its per-client records and recomputes `aggregated` (zulip-mobile's reducer); a slim
 * legacy event (user ID, modern register state) turns the record into timestamps, as the web
 * app did before simplified events: active means both timestamps, idle only the idle one.
 */
import { defineReducer, type State } from './registry.js';

type ClientRecord = { client: string; status: string; timestamp: number };

function aggregated(entry: State): State {
  const records = Object.entries(entry)
    .filter(([client]) => client !== 'aggregated')
    .map(([, record]) => record as ClientRecord);
  const newest = records.reduce((best, r) => (r.timestamp > best.timestamp ? r : best));
  return { client: newest.client, status: newest.status, timestamp: newest.timestamp };
}

defineReducer('presence', (state, event) => {
  const presences = state.presences as Record<string, State> | undefined;
  if (!presences) return;
  if (event.presences) {
    Object.assign(presences, event.presences as Record<string, State>);
    return;
  }
  const legacy = event.presence as Record<string, ClientRecord>;
  if (typeof event.email === 'string' && !(String(event.user_id) in presences)) {
    const entry: State = { ...(presences[event.email] ?? {}), ...legacy };
    entry.aggregated = aggregated(entry);
    presences[event.email] = entry;
    return;
  }
  const key = String(event.user_id);
  const newest = Object.values(legacy).reduce((best, r) => (r.timestamp > best.timestamp ? r : best));
  const previous = presences[key] ?? { active_timestamp: 0, idle_timestamp: 0 };
  presences[key] =
    newest.status === 'active' ? { active_timestamp: newest.timestamp, idle_timestamp: newest.timestamp } : { ...previous, idle_timestamp: newest.timestamp };
});
