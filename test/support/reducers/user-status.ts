/**
 * `user_status` events carry only the fields that changed; an empty value clears that part.
 * A user whose status says nothing any more is dropped, as register leaves such users out.
 */
import { defineReducer, type State } from './registry.js';

defineReducer('user_status', (state, event) => {
  const statuses = state.user_status as Record<string, State> | undefined;
  if (!statuses) return;
  const key = String(event.user_id);
  const status: State = { ...(statuses[key] ?? {}) };
  if ('away' in event) {
    if (event.away === true) status.away = true;
    else delete status.away;
  }
  if ('status_text' in event) {
    if (event.status_text === '') delete status.status_text;
    else status.status_text = event.status_text;
  }
  if ('emoji_name' in event) {
    if (event.emoji_name === '') {
      delete status.emoji_name;
      delete status.emoji_code;
      delete status.reaction_type;
    } else {
      status.emoji_name = event.emoji_name;
      status.emoji_code = event.emoji_code;
      status.reaction_type = event.reaction_type;
    }
  }
  if (Object.keys(status).length === 0) delete statuses[key];
  else statuses[key] = status;
});
