/**
 * `user_topic` (one row per changed topic; policy 0 removes it) and its legacy twin
 * `muted_topics` (the whole list each time).
 */
import { defineReducer, listOf, type State } from './registry.js';

defineReducer('user_topic', (state, event) => {
  const topics = listOf(state, 'user_topics');
  if (!topics) return;
  // Topic names match case-insensitively (OpenAPI update-user-topic).
  const same = (t: State) => t.stream_id === event.stream_id && String(t.topic_name).toLowerCase() === String(event.topic_name).toLowerCase();
  const index = topics.findIndex(same);
  // The server keeps a row's first spelling while the event carries the request's; a client
  // matching topics case-insensitively keeps the name it already knows.
  const known = index >= 0 ? (topics.splice(index, 1)[0] as State).topic_name : undefined;
  if (event.visibility_policy !== 0) {
    const { type: _type, id: _id, ...row } = event;
    topics.push(known === undefined ? row : { ...row, topic_name: known });
  }
});

defineReducer('muted_topics', (state, event) => {
  if ('muted_topics' in state) state.muted_topics = event.muted_topics;
});
