/**
 * The JSON report: the whole `SuiteResult` plus `formatVersion`, the version of its documented
 * shape (docs/conformance.md, "JSON report format"). It goes up whenever a field changes meaning
 * or goes away; added fields keep it. `--last-failed` reads it back.
 */
import { UsageError } from '../errors.js';
import type { SuiteResult } from '../results.js';

export const JSON_REPORT_VERSION = 1;

export function renderJson(result: SuiteResult): string {
  return `${JSON.stringify({ formatVersion: JSON_REPORT_VERSION, ...result }, null, 2)}\n`;
}

/** The ids of the rules that failed in a JSON report (`file` names it in messages). */
export function failedRuleIds(text: string, file: string): string[] {
  let report: unknown;
  try {
    report = JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${file} is not a JSON report (write one with --reporter json=FILE)`);
  }
  const fields = report !== null && typeof report === 'object' && !Array.isArray(report) ? (report as Record<string, unknown>) : {};
  const version = fields.formatVersion;
  if (version !== JSON_REPORT_VERSION || !Array.isArray(fields.results)) {
    const written = typeof version === 'number' ? `format version ${version}` : 'no formatVersion (not a chat-conformance JSON report, or one from before versions)';
    throw new UsageError(`${file} has ${written}; this chat-conformance reads format version ${JSON_REPORT_VERSION}: run the suite again with --reporter json=FILE`);
  }
  return fields.results.flatMap((rule: unknown) => {
    const entry = rule as { id?: unknown; outcome?: unknown } | null;
    return entry && entry.outcome === 'failed' && typeof entry.id === 'string' ? [entry.id] : [];
  });
}
