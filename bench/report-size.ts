/**
 * The size of the reports of a full run: every rule against the embedded reference server (all
 * pass, so no exchanges are kept), then the same against a variant that drops
 * `ignored_parameters_unsupported` from every answer (the rules that check it fail and carry their
 * cases), and one that drops `msg` from every answer (nearly every rule fails). Prints the HTML,
 * JSON and TAP sizes of each and how many rules failed.
 *
 *   node dist/bench/report-size.js [--num-runs 3]
 */
import { parseArgs } from 'node:util';
import { renderReport, runSuite, type SuiteResult } from '../conformance/index.js';
import { brokenApp, mapJsonBody, type Mutation } from '../test/support/conformance.js';

const { values } = parseArgs({ options: { 'num-runs': { type: 'string', default: '3' } } });
const numRuns = Number(values['num-runs']);

const dropIgnored: Mutation = async (request, next) => mapJsonBody(await next(request), (body) => delete body.ignored_parameters_unsupported);
/** Every answer without `msg`: nearly every rule fails at its first check (the worst case). */
const dropMsg: Mutation = async (request, next) => mapJsonBody(await next(request), (body) => delete body.msg);

async function run(mutate?: Mutation): Promise<SuiteResult> {
  const { app, handler } = brokenApp(mutate);
  try {
    return await runSuite({ handler, numRuns, seed: 1 });
  } finally {
    app.close();
  }
}

const kib = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB`;
const variants = [
  ['every rule, correct server', undefined],
  ['every rule, ignored_parameters_unsupported dropped', dropIgnored],
  ['every rule, msg dropped from every answer', dropMsg],
] as const;
for (const [name, mutate] of variants) {
  const result = await run(mutate);
  const exchanges = result.results.reduce((sum, rule) => sum + (rule.failure?.reproduction.length ?? 0), 0);
  console.log(
    `${name}: ${result.counts.total} rules, ${result.counts.failed} failed (${exchanges} exchanges kept); ` +
      `html ${kib(renderReport('html', result))}, json ${kib(renderReport('json', result))}, tap ${kib(renderReport('tap', result))}`,
  );
}
