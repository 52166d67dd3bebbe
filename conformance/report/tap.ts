/** TAP version 14: one test point per rule, skips as `# SKIP reason`, failure details in YAML blocks. */
import type { RuleResult, SuiteResult } from '../results.js';
import { detailLines, failureLines } from './failure-text.js';

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

export function renderTap(result: SuiteResult): string {
  const lines = ['TAP version 14', `# chat-conformance against ${result.target.baseUrl}, feature level ${result.target.featureLevel}, seed ${result.seed}, run tag ${result.runTag}`];
  lines.push(`1..${result.results.length}`);
  result.results.forEach((rule, index) => lines.push(...testPoint(rule, index + 1)));
  const { counts } = result;
  lines.push(`# passed ${counts.passed}, failed ${counts.failed}, skipped ${counts.skipped}`, `# seed ${result.seed}`);
  return `${lines.join('\n')}\n`;
}
