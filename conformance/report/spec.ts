/**
 * The human report: a header (target, seed, identities), rules grouped by endpoint with their
 * outcome (skips with the reason), then each failure in full, deviations, and a summary line.
 */
import type { RuleResult, SuiteResult } from '../results.js';
import { detailLines, failureLines } from './failure-text.js';
import { coverageReport, rateLimitLines, runProblems } from './run-notes.js';

export interface SpecOptions {
  /** ANSI colours (default false). */
  readonly color?: boolean;
}

const paint = (on: boolean, code: number, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

function ruleLine(result: RuleResult, color: boolean): string {
  const time = result.durationMs > 0 ? ` (${result.durationMs} ms)` : '';
  if (result.outcome === 'passed') return `  ${paint(color, 32, 'PASS')} ${result.id}${time}`;
  if (result.outcome === 'failed') return `  ${paint(color, 31, 'FAIL')} ${result.id}${time}`;
  return `  ${paint(color, 33, 'SKIP')} ${result.id}: ${result.skipReason ?? ''}`;
}

export function renderSpec(result: SuiteResult, options: SpecOptions = {}): string {
  const color = options.color ?? false;
  const { target } = result;
  const out: string[] = [
    `chat-conformance against ${target.baseUrl} (${target.kind}, feature level ${target.featureLevel}` +
      `${target.featureLevel !== target.discoveredFeatureLevel ? `; server reports ${target.discoveredFeatureLevel}` : ''}` +
      `${target.zulipVersion ? `, version ${target.zulipVersion}` : ''})`,
    `seed ${result.seed}, ${result.numRuns} runs per property, run tag ${result.runTag}${result.strictDocs ? ', --strict-docs' : ''}${result.replay ? `, replaying ${result.replay}` : ''}`,
    ...result.identities.map((line) => `  ${line}`),
    ...coverageReport(result),
    ...result.warnings.map((line) => paint(color, 33, `warning: ${line}`)),
    '',
  ];
  const groups = new Map<string, RuleResult[]>();
  for (const rule of result.results) groups.set(rule.endpoint, [...(groups.get(rule.endpoint) ?? []), rule]);
  for (const endpoint of [...groups.keys()].sort()) {
    out.push(endpoint === '*' ? 'all endpoints' : endpoint);
    for (const rule of groups.get(endpoint) ?? []) {
      out.push(ruleLine(rule, color));
      for (const line of detailLines(rule)) out.push(`       ${line}`);
    }
    out.push('');
  }
  const failures = result.results.filter((rule) => rule.failure);
  if (failures.length > 0) {
    out.push(paint(color, 31, `${failures.length} failure${failures.length > 1 ? 's' : ''}:`), '');
    failures.forEach((rule, index) => {
      const [first, ...rest] = failureLines(rule, rule.failure!);
      out.push(`${index + 1}) ${first}`, ...rest.map((line) => `   ${line}`), '');
    });
  }
  const deviations = result.results.reduce((sum, rule) => sum + rule.deviations.length, 0);
  const { counts } = result;
  const summary = `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` + `${deviations > 0 ? `, ${deviations} known deviation(s) observed` : ''} in ${(result.durationMs / 1000).toFixed(1)} s (seed ${result.seed})`;
  const problems = runProblems(result);
  if (problems.length > 0) out.push(...problems.map((line) => paint(color, 31, line)), '');
  out.push(...rateLimitLines(result));
  out.push(paint(color, result.ok ? 32 : 31, summary));
  return `${out.join('\n')}\n`;
}
