/**
 * Register state for features whose data cannot exist here, answered as the real server answers
 * an organization without any (zerver/lib/events.py): no Zoom token, no GIPHY
 * key configured, no pending sponsorship request.
 * Each key appears from the level that introduced it.
 */
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import type { StateFunction } from './state-fields.js';

const always = (fields: Record<string, unknown>): StateFunction => () => fields;
const since =
  (feature: (typeof FEATURES)[keyof typeof FEATURES], fields: Record<string, unknown>): StateFunction =>
  (world: World) =>
    world.has(feature) ? fields : {};

export const EMPTY_STATE_FUNCTIONS: ReadonlyArray<readonly [string, StateFunction]> = [
  ['video_calls', always({ has_zoom_token: false })],
  ['giphy', since(FEATURES.GIPHY_API_KEY, { giphy_api_key: '' })],
  ['realm_billing', since(FEATURES.MANAGE_BILLING_GROUP, { realm_billing: { has_pending_sponsorship_request: false } })],
];
