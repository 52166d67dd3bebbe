/**
 * Every behaviour change the description (and the real server's history) dates by feature level.
 * A world emulating level L behaves as a server at L: `world.has(FEATURES.X)` is true when
 * L >= X.level. Endpoints introduced at a level answer as unknown routes below it.
 */
import type { Feature } from './feature.js';
import { FEATURES_1_TO_199 } from './levels-1-199.js';
import { FEATURES_200_TO_415 } from './levels-200-415.js';

export const MAX_FEATURE_LEVEL = 415;
export const MIN_FEATURE_LEVEL = 1;

export type { Feature } from './feature.js';

/** Every gate by name, in level order (the parts hold levels 1-199 and 200-415). */
export const FEATURES = { ...FEATURES_1_TO_199, ...FEATURES_200_TO_415 } as const satisfies Record<string, Feature>;

export type FeatureName = keyof typeof FEATURES;

export function isValidFeatureLevel(level: number): boolean {
  return Number.isInteger(level) && level >= MIN_FEATURE_LEVEL && level <= MAX_FEATURE_LEVEL;
}
