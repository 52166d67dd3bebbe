/** TAP version 14: one test point per rule, skips as `# SKIP reason`, failure details in YAML blocks. */
import type { RuleResult, SuiteResult } from '../results.js';
import type { RunListener } from '../runner.js';
import { detailLines, failureLines } from './failure-text.js';
import { coverageReport, runProblems } from './run-notes.js';

/** A YAML block scalar (`|-`) for any text; each line indented under the key. */
function yamlBlock(key: string, lines: readonly string[], indent: string): string[] {
  return [`${indent}${key}: |-`, ...lines.map((line) => `${indent}  ${line}`)];
}

/** TAP descriptions and directives are single lines; `#` would start a directive. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').replace(/#/g, '\\#');

function testPoint(result: RuleResult, number: number): string[] {
  const name = `${result.id} (${result.endpoint}, section ${oneLine(result.section)})`;
  if (result.outcome === 'skipped') return [`ok ${number} - ${name} # SKIP ${oneLine(result.skipReason ?? '')}`];
  const lines = [`${result.outcome === 'passed' ? 'ok' : 'not ok'} ${number} - ${name} # time=${result.durationMs}ms`];
  const details = detailLines(result);
  if (result.failure || details.length > 0) {
    const indent = '  ';
    lines.push(`${indent}---`, `${indent}duration_ms: ${result.durationMs}`);
    if (result.failure) {
      lines.push(`${indent}kind: ${result.failure.kind}`);
      if (result.failure.property) lines.push(`${indent}seed: ${result.failure.property.seed}`, `${indent}path: ${JSON.stringify(result.failure.property.path)}`);
      lines.push(`${indent}replay: ${JSON.stringify(result.failure.replayCommand)}`, ...yamlBlock('failure', failureLines(result, result.failure), indent));
    }
    if (details.length > 0) lines.push(...yamlBlock('details', details, indent));
    lines.push(`${indent}...`);
  }
  return lines;
}

/** What a run was against, for one line: a URL, or the embedded server and the address it answers as. */
export function targetPhrase(target: { readonly kind: 'embedded' | 'url'; readonly baseUrl: string }): string {
  return target.kind === 'embedded' ? `the embedded reference server (in-process, as ${target.baseUrl})` : target.baseUrl;
}

/** The lines before the first test point (the plan included: the number of rules is known up front). */
export function tapHeader(run: { readonly target: { readonly kind: 'embedded' | 'url'; readonly baseUrl: string; readonly featureLevel: number }; readonly seed: number; readonly runTag: string }, total: number): string {
  return `TAP version 14\n# chat-conformance against ${targetPhrase(run.target)}, feature level ${run.target.featureLevel}, seed ${run.seed}, run tag ${run.runTag}\n1..${total}\n`;
}

/** One rule's test point (with its YAML block), as text. */
export function tapPoint(result: RuleResult, number: number): string {
  return `${testPoint(result, number).join('\n')}\n`;
}

/** The summary after the last test point: counts, seed, coverage, then the problems of the run (left-changed state first). */
export function tapFooter(result: SuiteResult): string {
  const { counts } = result;
  const comments = [`passed ${counts.passed}, failed ${counts.failed}, skipped ${counts.skipped}`, `seed ${result.seed}`, ...coverageReport(result), ...runProblems(result)];
  // Every test point may be `ok` while the run failed (state left changed, interrupted, --fail-on-skip): a bail-out makes TAP consumers fail.
  const bail = !result.ok && counts.failed === 0 ? `Bail out! ${oneLine(runProblems(result)[0] ?? 'the run failed')}\n` : '';
  return comments.map((line) => `# ${line}\n`).join('') + bail;
}

export function renderTap(result: SuiteResult): string {
  return tapHeader(result, result.results.length) + result.results.map((rule, index) => tapPoint(rule, index + 1)).join('') + tapFooter(result);
}

/**
 * A run listener that writes TAP as results arrive (header at the start, each test point as its
 * rule ends); `finish` writes the summary once the run is over. `prepare` redacts each result.
 */
export function tapStream(write: (text: string) => void, prepare: (result: RuleResult) => RuleResult = (result) => result): RunListener & { finish(result: SuiteResult): void } {
  return {
    onStart: (info) => write(tapHeader(info, info.total)),
    onRuleEnd: (result, position) => write(tapPoint(prepare(result), position)),
    finish: (result) => write(tapFooter(result)),
  };
}
