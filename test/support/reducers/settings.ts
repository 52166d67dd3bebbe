/** Settings events: realm-wide defaults for new users and the user's own settings. */
import { defineReducer, type State, unknownOp } from './registry.js';

defineReducer('realm_user_settings_defaults', (state, event) => {
  if (event.op !== 'update') unknownOp(event);
  const defaults = state.realm_user_settings_defaults as State | undefined;
  if (defaults) defaults[event.property as string] = event.value;
});

defineReducer('user_settings', (state, event) => {
  if (event.op !== 'update') unknownOp(event);
  const settings = state.user_settings as State | undefined;
  if (settings) settings[event.property as string] = event.value;
  // Clients without user_settings_object also keep the legacy top-level copy.
  if ((event.property as string) in state) state[event.property as string] = event.value;
});

// The legacy twins of `user_settings`, sent only to clients without user_settings_object; they
// update the legacy top-level copy register gave those clients.
defineReducer('update_display_settings', (state, event) => {
  if ((event.setting_name as string) in state) state[event.setting_name as string] = event.setting;
});

defineReducer('update_global_notifications', (state, event) => {
  if ((event.notification_name as string) in state) state[event.notification_name as string] = event.setting;
});
