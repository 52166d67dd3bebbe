/** `navigation_view` events: the user's views in creation order, keyed by fragment. */
import { defineReducer, listOf, type State, unknownOp } from './registry.js';

defineReducer('navigation_view', (state, event) => {
  const views = listOf(state, 'navigation_views');
  if (!views) return;
  const index = (fragment: unknown) => views.findIndex((view) => view.fragment === fragment);
  if (event.op === 'add') views.push(event.navigation_view as State);
  else if (event.op === 'update') {
    const at = index(event.fragment);
    if (at >= 0) Object.assign(views[at] as State, event.data as State);
  } else if (event.op === 'remove') {
    const at = index(event.fragment);
    if (at >= 0) views.splice(at, 1);
  } else unknownOp(event);
});
