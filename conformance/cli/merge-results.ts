/**
 * Merging the JSON reports of one run split with `--shard i/n` over several machines: the same
 * target, seed, settings and report format, disjoint rules. The merged result reads as one run's:
 * rules in id order, counts, coverage and problems added up, the wall time from the first start
 * to the last end.
 */
import { UsageError } from '../errors.js';
import type { Coverage, CoverageEntry, SuiteResult } from '../results.js';

/** One report as read: its file name, its format version (absent before versions) and its result. */
export interface ShardReport {
  readonly file: string;
  readonly formatVersion: unknown;
  readonly result: SuiteResult;
}

/** Reads one JSON report; refuses what is not one. */
export function readShardReport(file: string, text: string): ShardReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is not JSON (write shard reports with --reporter json=FILE)`);
  }
  const fields = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  const target = fields?.target as Record<string, unknown> | undefined;
  if (!fields || !Array.isArray(fields.results) || typeof fields.seed !== 'number' || typeof target?.baseUrl !== 'string' || typeof fields.counts !== 'object') {
    throw new UsageError(`${file} is not a chat-conformance JSON report (write shard reports with --reporter json=FILE)`);
  }
  const { formatVersion, ...result } = fields;
  return { file, formatVersion, result: result as unknown as SuiteResult };
}

const describeTarget = (result: SuiteResult): string => `${result.target.kind} ${result.target.baseUrl} at feature level ${result.target.featureLevel}`;

/** The first way `other` differs from `first` that makes them parts of different runs, if any. */
function mismatch(first: ShardReport, other: ShardReport): string | undefined {
  const a = first.result;
  const b = other.result;
  const version = (report: ShardReport) => (report.formatVersion === undefined ? 'no format version' : `format version ${String(report.formatVersion)}`);
  if (first.formatVersion !== other.formatVersion) return `${first.file} has ${version(first)}, ${other.file} ${version(other)}: merge reports written by the same chat-conformance version`;
  if (describeTarget(a) !== describeTarget(b)) return `${first.file} is from ${describeTarget(a)}, ${other.file} from ${describeTarget(b)}: merge the shards of one run`;
  if (a.seed !== b.seed) return `${first.file} ran with seed ${a.seed}, ${other.file} with seed ${b.seed}: shards of one run share a seed (give every shard the same --seed)`;
  if (a.numRuns !== b.numRuns || a.strictDocs !== b.strictDocs) return `${first.file} and ${other.file} ran with different settings (--num-runs ${a.numRuns} / ${b.numRuns}, --strict-docs ${a.strictDocs} / ${b.strictDocs})`;
  return undefined;
}

function mergeCoverage(parts: readonly Coverage[]): Coverage {
  const entries = new Map<string, CoverageEntry>();
  for (const entry of parts.flatMap((part) => part.entries)) {
    const known = entries.get(entry.name);
    entries.set(
      entry.name,
      known ? { ...known, available: known.available && entry.available, skippedRules: known.skippedRules + entry.skippedRules } : entry,
    );
  }
  const sum = (pick: (coverage: Coverage) => number) => parts.reduce((total, part) => total + pick(part), 0);
  return { entries: [...entries.values()], skippedForMissing: sum((c) => c.skippedForMissing), skippedForLevel: sum((c) => c.skippedForLevel) };
}

const unique = (values: readonly string[]): string[] => [...new Set(values)];

/** The merged result, or a UsageError naming the first report that does not belong with the others. */
export function mergeReports(reports: readonly ShardReport[]): { formatVersion: unknown; result: SuiteResult } {
  const [first] = reports;
  if (!first) throw new UsageError('merge-reports: name the JSON reports to merge');
  for (const other of reports.slice(1)) {
    const problem = mismatch(first, other);
    if (problem) throw new UsageError(problem);
  }
  const owner = new Map<string, string>();
  for (const { file, result } of reports) {
    for (const rule of result.results) {
      const earlier = owner.get(rule.id);
      if (earlier !== undefined) throw new UsageError(`rule ${rule.id} is in both ${earlier} and ${file}: merge different shards (--shard i/n) of one run`);
      owner.set(rule.id, file);
    }
  }
  const results = reports.flatMap((report) => report.result.results).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const all = reports.map((report) => report.result);
  const counts = { total: results.length, passed: 0, failed: 0, skipped: 0 };
  for (const rule of results) counts[rule.outcome]++;
  const starts = all.map((result) => Date.parse(result.startedAt));
  const start = Math.min(...starts);
  const end = Math.max(...all.map((result, i) => starts[i]! + result.durationMs));
  const leftChanged = all.flatMap((result) => result.leftChanged);
  const interrupted = all.find((result) => result.interrupted)?.interrupted;
  const failedOnSkip = all.some((result) => result.failedOnSkip);
  const result: SuiteResult = {
    ...first.result,
    runTag: unique(all.map((r) => r.runTag)).join(', '),
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    identities: unique(all.flatMap((r) => r.identities)),
    warnings: unique(all.flatMap((r) => r.warnings)),
    results,
    coverage: mergeCoverage(all.map((r) => r.coverage)),
    leftChanged,
    ...(interrupted ? { interrupted } : {}),
    failedOnSkip,
    counts,
    ok: counts.failed === 0 && leftChanged.length === 0 && !failedOnSkip && interrupted === undefined,
  };
  return { formatVersion: first.formatVersion, result };
}
