/**
 * The whole suite passes against our server at every feature level the project promises, skipping
 * (and saying so) only the rules for behaviour that does not exist at that level.
 */
import t from 'tap';
import { failureLines, runOnReference } from './support/conformance.js';

const LEVELS = [415, 400, 334, 289, 208, 207, 100, 57, 22, 8, 1];

for (const level of LEVELS) {
  t.test(`the suite passes against the reference server at feature level ${level}`, async (t) => {
    const result = await runOnReference({ featureLevel: level, numRuns: 5, seed: level });
    t.same(failureLines(result), []);
    const skipped = result.results.filter((r) => r.outcome === 'skipped');
    t.same(skipped.filter((r) => !/feature level/.test(r.skipReason ?? '')).map((r) => `${r.id}: ${r.skipReason}`), [], 'only level skips');
    t.ok(result.results.some((r) => r.outcome === 'passed'));
    t.comment(`${level}: ${result.results.length - skipped.length} passed, ${skipped.length} skipped for their level`);
  });
}
