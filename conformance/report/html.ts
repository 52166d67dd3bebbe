/**
 * A self-contained HTML report (inline CSS and one inline script, no external resource): the
 * run's totals as a bar, then per endpoint a pass/fail/skip bar and a collapsible section with its
 * rows of the endpoint x rule x feature-level table and its failures (each with the failing
 * exchange pretty-printed, the differing field highlighted, and the case's reproduction), then
 * every skip with its reason. Opens offline, can be attached to a CI run. Everything from the
 * target or the rules is escaped.
 */
import type { Outcome, RuleResult, SuiteResult } from '../results.js';
import { detailLines } from './failure-text.js';
import { CONTENT_SECURITY_POLICY, SCRIPT, STYLE } from './html-assets.js';
import { failureSection, ruleAnchor } from './html-failure.js';
import { htmlEscape } from './html-json.js';
import { coverageReport, runProblems } from './run-notes.js';

export { htmlEscape } from './html-json.js';

const OUTCOMES: readonly Outcome[] = ['passed', 'failed', 'skipped'];

function levelRange(rule: RuleResult): string {
  const { min, max } = rule.levels;
  if (min === undefined && max === undefined) return 'all';
  if (max === undefined) return `≥ ${min}`;
  return min === undefined ? `≤ ${max}` : `${min}–${max}`;
}

function countsOf(rules: readonly RuleResult[]): Record<Outcome, number> {
  const counts: Record<Outcome, number> = { passed: 0, failed: 0, skipped: 0 };
  for (const rule of rules) counts[rule.outcome]++;
  return counts;
}

/** A bar of three segments, widths in proportion to the counts. */
function bar(counts: Record<Outcome, number>, extra = ''): string {
  const total = counts.passed + counts.failed + counts.skipped || 1;
  const label = OUTCOMES.map((outcome) => `${counts[outcome]} ${outcome}`).join(', ');
  const segments = OUTCOMES.filter((outcome) => counts[outcome] > 0).map((outcome) => `<span class="${outcome}" data-count="${counts[outcome]}" style="width:${((100 * counts[outcome]) / total).toFixed(2)}%"></span>`);
  return `<span class="bar${extra}" role="img" aria-label="${label}" title="${label}">${segments.join('')}</span>`;
}

function matrixRow(rule: RuleResult): string {
  const outcome = rule.outcome === 'failed' ? `<a href="#${ruleAnchor(rule.id)}">failed</a>` : rule.outcome === 'skipped' ? `skipped: ${htmlEscape(rule.skipReason ?? '')}` : 'passed';
  return (
    `<tr class="${rule.outcome}" data-rule="${htmlEscape(rule.id)}" data-outcome="${rule.outcome}">` +
    `<td title="${htmlEscape(rule.title)}">${htmlEscape(rule.id)}</td><td>${htmlEscape(rule.section)}</td>` +
    `<td>${levelRange(rule)}</td><td>${rule.writes ? 'writes' : 'read-only'}</td><td>${outcome}</td><td>${rule.durationMs} ms</td></tr>`
  );
}

/** One endpoint: summary line with its bar, then its table rows and failures (open when one failed). */
function endpointSection(endpoint: string, rules: readonly RuleResult[]): string {
  const counts = countsOf(rules);
  const failed = counts.failed > 0;
  const failures = rules.filter((rule) => rule.failure);
  return [
    `<details class="endpoint${failed ? ' has-failures' : ''}" data-endpoint="${htmlEscape(endpoint)}"${failed ? ' open' : ''}>`,
    `<summary><code>${htmlEscape(endpoint)}</code>${bar(counts)}<span class="counts">${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped</span></summary>`,
    '<table class="matrix"><thead><tr><th>Rule</th><th>Section</th><th>Feature levels</th><th>Writes</th><th>Outcome</th><th>Time</th></tr></thead><tbody>',
    ...rules.map(matrixRow),
    '</tbody></table>',
    ...failures.map(failureSection),
    '</details>',
  ].join('\n');
}

export function renderHtml(result: SuiteResult): string {
  const { target, counts } = result;
  const rules = [...result.results].sort((a, b) => (a.endpoint === b.endpoint ? (a.id < b.id ? -1 : 1) : a.endpoint < b.endpoint ? -1 : 1));
  const byEndpoint = new Map<string, RuleResult[]>();
  for (const rule of rules) byEndpoint.set(rule.endpoint, [...(byEndpoint.get(rule.endpoint) ?? []), rule]);
  const skips = rules.filter((rule) => rule.outcome === 'skipped');
  const notes = rules.flatMap((rule) => detailLines(rule).map((line) => `${rule.id}: ${line}`));
  const problems = runProblems(result);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<title>chat-conformance: ${counts.failed} failed, ${counts.passed} passed</title>
<style>${STYLE}</style></head><body>
<h1>chat-conformance report</h1>
<p>Target <code>${htmlEscape(target.baseUrl)}</code> (${target.kind}), feature level ${target.featureLevel}${target.featureLevel !== target.discoveredFeatureLevel ? ` (server reports ${target.discoveredFeatureLevel})` : ''}${target.zulipVersion ? `, version ${htmlEscape(target.zulipVersion)}` : ''}; seed ${result.seed}, ${result.numRuns} runs per property, started ${htmlEscape(result.startedAt)}.</p>
<p class="summary" id="summary" data-passed="${counts.passed}" data-failed="${counts.failed}" data-skipped="${counts.skipped}">${bar({ passed: counts.passed, failed: counts.failed, skipped: counts.skipped }, ' total')} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${(result.durationMs / 1000).toFixed(1)} s</p>
${problems.length > 0 ? `<pre class="run-problems failed" id="run-problems">${htmlEscape(problems.join('\n'))}</pre>` : ''}
<h2>Coverage</h2>
<pre id="coverage">${htmlEscape(coverageReport(result).join('\n'))}</pre>
${result.warnings.length > 0 ? `<ul class="warnings">${result.warnings.map((warning) => `<li>${htmlEscape(warning)}</li>`).join('')}</ul>` : ''}
<h2>Endpoints and rules (${byEndpoint.size} endpoints, ${rules.length} rules)</h2>
<p class="toolbar"><button type="button" data-action="expand">Expand all</button><button type="button" data-action="collapse">Collapse all</button><button type="button" data-action="failures">Failures only</button></p>
<div id="endpoints">
${[...byEndpoint].map(([endpoint, group]) => endpointSection(endpoint, group)).join('\n')}
</div>
<h2>Skipped (${skips.length})</h2>
${skips.length > 0 ? `<ul id="skips">${skips.map((rule) => `<li data-rule="${htmlEscape(rule.id)}"><code>${htmlEscape(rule.id)}</code>: ${htmlEscape(rule.skipReason ?? '')}</li>`).join('\n')}</ul>` : '<p>None.</p>'}
${notes.length > 0 ? `<h2>Deviations and notes</h2><pre>${htmlEscape(notes.join('\n'))}</pre>` : ''}
<script>${SCRIPT}</script>
</body></html>
`;
}
