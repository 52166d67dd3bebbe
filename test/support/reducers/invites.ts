/** `invites_changed` carries no data: clients refetch `GET /invites`; there is no register state to change. */
import { defineReducer } from './registry.js';

defineReducer('invites_changed', () => undefined);
