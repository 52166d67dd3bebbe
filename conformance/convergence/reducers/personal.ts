/**
 * The events of a user's own state: settings, alert words, muted users, drafts, saved snippets,
 * topic visibility policies, custom emoji, as the real server's apply_event applies them.
 */
import type { Replay } from '../replay-state.js';
import { listIn, objectIn, type QueueEvent, type State } from '../types.js';
import { UnmodelledEvent } from './unmodelled.js';

/** Events that carry the whole new list: it replaces the client's copy. */
const replacing = (stateKey: string, eventKey: string) => (replay: Replay, event: QueueEvent) => {
  if (stateKey in replay.state) replay.state[stateKey] = structuredClone(event[eventKey]);
};

function drafts(replay: Replay, event: QueueEvent): void {
  const list = listIn(replay.state, 'drafts');
  if (!list) return;
  if (event.op === 'add') {
    list.push(...structuredClone((event.drafts ?? []) as State[]));
    return;
  }
  const id = event.op === 'update' ? (event.draft as State).id : event.draft_id;
  const index = list.findIndex((draft) => draft.id === id);
  if (event.op !== 'update' && event.op !== 'remove') throw new UnmodelledEvent(`drafts op ${String(event.op)}`);
  if (index < 0) {
    replay.inconsistent({ path: `drafts[${String(id)}]`, expected: undefined, received: id, why: `a drafts ${event.op} event for a draft the client does not have` });
    return;
  }
  if (event.op === 'update') list[index] = structuredClone(event.draft as State);
  else list.splice(index, 1);
}

function savedSnippets(replay: Replay, event: QueueEvent): void {
  const list = listIn(replay.state, 'saved_snippets');
  if (!list) return;
  const snippet = event.saved_snippet as State | undefined;
  if (event.op === 'add' && snippet) list.push(structuredClone(snippet));
  else if (event.op === 'update' && snippet) replay.state.saved_snippets = list.map((s) => (s.id === snippet.id ? structuredClone(snippet) : s));
  else if (event.op === 'remove') replay.state.saved_snippets = list.filter((s) => s.id !== event.saved_snippet_id);
  else throw new UnmodelledEvent(`saved_snippets op ${String(event.op)}`);
}

/** `user_topic`: policy 0 (inherit) removes the topic's row; any other adds one (apply_event appends). */
function userTopic(replay: Replay, event: QueueEvent): void {
  const list = listIn(replay.state, 'user_topics');
  if (!list) return;
  const same = (row: State) => row.stream_id === event.stream_id && String(row.topic_name).toLowerCase() === String(event.topic_name).toLowerCase();
  const index = list.findIndex(same);
  if (event.visibility_policy === 0) {
    if (index >= 0) list.splice(index, 1);
    return;
  }
  const row = { stream_id: event.stream_id, topic_name: event.topic_name, visibility_policy: event.visibility_policy, last_updated: event.last_updated };
  // A client replaces the topic's row; the server keeps one row per topic.
  if (index >= 0) list[index] = row;
  else list.push(row);
}

function userSettings(replay: Replay, event: QueueEvent): void {
  if (event.op !== 'update') throw new UnmodelledEvent(`user_settings op ${String(event.op)}`);
  const property = String(event.property);
  const settings = objectIn(replay.state, 'user_settings');
  if (settings) settings[property] = event.value;
  // Clients without user_settings_object also keep the legacy top-level copy.
  if (property in replay.state && property !== 'user_settings') replay.state[property] = event.value;
}

const legacySetting = (nameKey: string) => (replay: Replay, event: QueueEvent) => {
  const name = String(event[nameKey]);
  if (name in replay.state) replay.state[name] = event.setting;
};

export const PERSONAL_REDUCERS: ReadonlyArray<readonly [string, (replay: Replay, event: QueueEvent) => void]> = [
  ['alert_words', replacing('alert_words', 'alert_words')],
  ['muted_users', replacing('muted_users', 'muted_users')],
  ['onboarding_steps', replacing('onboarding_steps', 'onboarding_steps')],
  ['muted_topics', replacing('muted_topics', 'muted_topics')],
  ['realm_emoji', replacing('realm_emoji', 'realm_emoji')],
  ['drafts', drafts],
  ['saved_snippets', savedSnippets],
  ['user_topic', userTopic],
  ['user_settings', userSettings],
  ['update_display_settings', legacySetting('setting_name')],
  ['update_global_notifications', legacySetting('notification_name')],
];
