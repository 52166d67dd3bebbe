/**
 * The whole suite passes against our server at every feature level the project promises, skipping
 * (and saying so) only the rules for behaviour that does not exist at that level.
 */
import t from 'tap';
import { runSuite } from '../conformance/index.js';
import { brokenApp } from './support/conformance.js';

const LEVELS = [415, 400, 334, 289, 208, 207, 100];

for (const level of LEVELS) {
  t.test(`the suite passes against the reference server at feature level ${level}`, async (t) => {
    const { app, handler } = brokenApp(undefined, level);
    const result = await runSuite({ handler, numRuns: 5, seed: level });
    app.close();
    t.same(result.results.filter((r) => r.outcome === 'failed').map((r) => `${r.id}: ${r.failure?.message}`), []);
    const skipped = result.results.filter((r) => r.outcome === 'skipped');
    t.same(skipped.filter((r) => !/feature level/.test(r.skipReason ?? '')).map((r) => `${r.id}: ${r.skipReason}`), [], 'only level skips');
    t.ok(result.results.some((r) => r.outcome === 'passed'));
    t.comment(`${level}: ${result.results.length - skipped.length} passed, ${skipped.length} skipped for their level`);
  });
}
