/**
 * What every report states about the run as a whole besides the rules: its coverage (identities
 * and capabilities, skips per missing one), state left changed by failed cleanups, an
 * interruption, and a `--fail-on-skip` failure. Text reporters print these lines as they are.
 */
import { coverageLines } from '../coverage.js';
import type { SuiteResult } from '../results.js';

export function coverageReport(result: SuiteResult): string[] {
  const { coverage } = result;
  const missing = coverage.skippedForMissing;
  return [
    `coverage: ${missing} rule${missing === 1 ? '' : 's'} skipped for a missing identity or capability, ${coverage.skippedForLevel} outside the target's feature level`,
    ...coverageLines(coverage).map((line) => `  ${line}`),
  ];
}

/** Problems of the run itself (empty when there are none): each line names what went wrong. */
export function runProblems(result: SuiteResult): string[] {
  const lines: string[] = [];
  if (result.leftChanged.length > 0) {
    lines.push(`LEFT CHANGED ON THE TARGET: ${result.leftChanged.length} cleanup(s) failed; restore by hand:`, ...result.leftChanged.map((line) => `  ${line}`));
  }
  if (result.interrupted) lines.push(`interrupted by ${result.interrupted}: the remaining rules were not run (cleanups ran); this report is partial`);
  if (result.failedOnSkip) lines.push(`--fail-on-skip: ${result.coverage.skippedForMissing} rule(s) skipped for a missing identity or capability`);
  return lines;
}

/** How long the run waited for the target's rate limit; none when it never did. */
export function rateLimitLines(result: SuiteResult): string[] {
  const { waits, waitedMs } = result.rateLimited;
  if (waits === 0) return [];
  return [`rate limit: waited ${waits} time${waits === 1 ? '' : 's'}, for ${(waitedMs / 1000).toFixed(1)} s in all (overlapping waits each counted; no time limit counts these waits)`];
}
