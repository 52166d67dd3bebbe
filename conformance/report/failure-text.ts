/** The text of one failure, shared by the human, TAP and JUnit reports. */
import type { FailureInfo, RuleResult } from '../results.js';
import { foldRepeated } from './fold.js';

/** Lines describing the failure: message, counterexample, seed and path, replay, curl transcript (unless `curl` is false). */
export function failureLines(result: RuleResult, failure: FailureInfo, options: { readonly curl?: boolean } = {}): string[] {
  const lines = [`rule: ${result.id}  (${result.endpoint}, section ${result.section})`, ...foldRepeated(failure.message.split('\n'))];
  const property = failure.property;
  if (property) {
    lines.push(
      `property: "${property.name}" (#${property.index}), ${property.numRuns} run(s), ${property.numShrinks} shrink(s)`,
      `counterexample: ${property.counterexample}`,
      ...(property.labelledValues ?? []).map((value) => `  ${value}`),
      `seed: ${property.seed}  path: ${property.path}`,
    );
    if (!property.reproduced) lines.push('note: re-running the counterexample passed: this failure is flaky');
  }
  lines.push(`replay: ${failure.replayCommand}`);
  if (failure.curl.length > 0 && options.curl !== false) {
    lines.push(property ? 'HTTP exchanges of the counterexample (curl):' : 'last HTTP exchanges (curl):');
    for (const entry of failure.curl) lines.push(...entry.split('\n').map((line) => `  ${line}`));
  }
  if (failure.kind === 'error' && failure.stack) lines.push('stack:', ...failure.stack.split('\n').slice(1, 6).map((line) => `  ${line.trim()}`));
  return lines;
}

/** Skip reason, deviations, notes and cleanup problems of a result, one line each. */
export function detailLines(result: RuleResult): string[] {
  return [
    ...result.deviations.map((d) => `deviation ${d.id} (${d.section}): ${d.detail}`),
    ...result.cleanupErrors.map((e) => `cleanup: ${e}`),
    ...result.notes.map((n) => `note: ${n}`),
  ];
}
