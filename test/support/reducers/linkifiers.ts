/**
 * `realm_linkifiers` (and the legacy `realm_filters`): each event carries the complete ordered
 * list, which replaces the client's copy.
 */
import { defineReducer } from './registry.js';

defineReducer('realm_linkifiers', (state, event) => {
  if ('realm_linkifiers' in state) state.realm_linkifiers = event.realm_linkifiers;
});

defineReducer('realm_filters', (state, event) => {
  if ('realm_filters' in state) state.realm_filters = event.realm_filters;
});
