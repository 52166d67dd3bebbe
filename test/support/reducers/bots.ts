/**
 * `realm_bot` events on `realm_bots`, as the real server's apply_event folds them: `add` appends,
 * `remove` (before level 222) marks the bot inactive, `delete` drops it (its owner changed),
 * `update` overwrites fields, an owner change only `owner_id`; a service update merges into the
 * bot's one service, as the web app's bot store does.
 */
import { defineReducer, listOf, type State, unknownOp } from './registry.js';

defineReducer('realm_bot', (state, event) => {
  const bots = listOf(state, 'realm_bots');
  if (!bots) return;
  const bot = event.bot as State;
  const existing = bots.find((b) => b.user_id === bot.user_id);
  switch (event.op) {
    case 'add':
      bots.push(structuredClone(bot));
      return;
    case 'remove':
      if (existing) existing.is_active = false;
      return;
    case 'delete':
      state.realm_bots = bots.filter((b) => b.user_id !== bot.user_id);
      return;
    case 'update': {
      if (!existing) return;
      const { services, ...fields } = bot;
      Object.assign(existing, structuredClone(fields));
      const [change] = (services as State[] | undefined) ?? [];
      if (change) {
        const [current] = (existing.services as State[] | undefined) ?? [];
        existing.services = [{ ...(current ?? {}), ...structuredClone(change) }];
      }
      return;
    }
    default:
      unknownOp(event);
  }
});
