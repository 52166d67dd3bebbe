import t from 'tap';
import { FEATURES, isValidFeatureLevel } from '../lib/features/feature-levels.js';

t.test('every feature gate has a valid level and says what changed', async (t) => {
  for (const [name, feature] of Object.entries(FEATURES)) {
    t.ok(isValidFeatureLevel(feature.level), `${name} level ${feature.level}`);
    t.ok(feature.what.trim().length > 0, `${name} has a what`);
  }
});

t.test('the gate table is sorted by level', async (t) => {
  const levels = Object.values(FEATURES).map((feature) => feature.level);
  t.same(levels, [...levels].sort((a, b) => a - b));
});
