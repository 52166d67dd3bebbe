/**
 * A self-contained HTML report (inline CSS, no script, no external resource): a table of
 * endpoint x rule x feature-level range with each outcome, then every failure with its
 * reproduction (replay command and the case's exchanges as curl commands) and every skip with
 * its reason. Opens offline, can be attached to a CI run.
 */
import { exchangeToText } from '../client/curl.js';
import type { RuleResult, SuiteResult } from '../results.js';
import { detailLines, failureLines } from './failure-text.js';
import { coverageReport, runProblems } from './run-notes.js';

export function htmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
.passed{background:#e6f4ea}.failed{background:#fce8e6}.skipped{background:#fef7e0}
pre{background:#f6f8fa;padding:.6em;overflow:auto;white-space:pre-wrap;word-break:break-all}
h3{margin-top:1.5em}.summary{font-weight:bold}`;

function levelRange(rule: RuleResult): string {
  const { min, max } = rule.levels;
  if (min === undefined && max === undefined) return 'all';
  if (max === undefined) return `≥ ${min}`;
  return min === undefined ? `≤ ${max}` : `${min}–${max}`;
}

const anchor = (id: string) => `rule-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;

function matrixRow(rule: RuleResult): string {
  const outcome = rule.outcome === 'failed' ? `<a href="#${anchor(rule.id)}">failed</a>` : rule.outcome === 'skipped' ? `skipped: ${htmlEscape(rule.skipReason ?? '')}` : 'passed';
  return (
    `<tr class="${rule.outcome}" data-rule="${htmlEscape(rule.id)}" data-outcome="${rule.outcome}">` +
    `<td>${htmlEscape(rule.endpoint)}</td><td title="${htmlEscape(rule.title)}">${htmlEscape(rule.id)}</td><td>${htmlEscape(rule.section)}</td>` +
    `<td>${levelRange(rule)}</td><td>${rule.writes ? 'writes' : 'read-only'}</td><td>${outcome}</td><td>${rule.durationMs} ms</td></tr>`
  );
}

function failureSection(rule: RuleResult): string {
  const failure = rule.failure!;
  const reproduction = failure.reproduction.map(exchangeToText).join('\n\n');
  return [
    `<section class="failure" id="${anchor(rule.id)}" data-rule="${htmlEscape(rule.id)}">`,
    `<h3>${htmlEscape(rule.id)}</h3>`,
    `<pre class="failure-text">${htmlEscape(failureLines(rule, failure).join('\n'))}</pre>`,
    `<h4>Reproduction: ${failure.reproduction.length} exchange(s) of the failing case, setup included</h4>`,
    `<pre class="reproduction">${htmlEscape(reproduction)}</pre>`,
    '</section>',
  ].join('\n');
}

export function renderHtml(result: SuiteResult): string {
  const { target, counts } = result;
  const rules = [...result.results].sort((a, b) => (a.endpoint === b.endpoint ? (a.id < b.id ? -1 : 1) : a.endpoint < b.endpoint ? -1 : 1));
  const failures = rules.filter((rule) => rule.failure);
  const skips = rules.filter((rule) => rule.outcome === 'skipped');
  const notes = rules.flatMap((rule) => detailLines(rule).map((line) => `${rule.id}: ${line}`));
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>chat-conformance: ${counts.failed} failed, ${counts.passed} passed</title>
<style>${STYLE}</style></head><body>
<h1>chat-conformance report</h1>
<p>Target <code>${htmlEscape(target.baseUrl)}</code> (${target.kind}), feature level ${target.featureLevel}${target.featureLevel !== target.discoveredFeatureLevel ? ` (server reports ${target.discoveredFeatureLevel})` : ''}${target.zulipVersion ? `, version ${htmlEscape(target.zulipVersion)}` : ''}; seed ${result.seed}, ${result.numRuns} runs per property, started ${htmlEscape(result.startedAt)}.</p>
<p class="summary" id="summary" data-passed="${counts.passed}" data-failed="${counts.failed}" data-skipped="${counts.skipped}">${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${(result.durationMs / 1000).toFixed(1)} s</p>
${runProblems(result).length > 0 ? `<pre class="run-problems failed" id="run-problems">${htmlEscape(runProblems(result).join('\n'))}</pre>` : ''}
<h2>Coverage</h2>
<pre id="coverage">${htmlEscape(coverageReport(result).join('\n'))}</pre>
${result.warnings.length > 0 ? `<ul class="warnings">${result.warnings.map((warning) => `<li>${htmlEscape(warning)}</li>`).join('')}</ul>` : ''}
<h2>Endpoints and rules</h2>
<table id="matrix"><thead><tr><th>Endpoint</th><th>Rule</th><th>Section</th><th>Feature levels</th><th>Writes</th><th>Outcome</th><th>Time</th></tr></thead>
<tbody>
${rules.map(matrixRow).join('\n')}
</tbody></table>
<h2>Failures (${failures.length})</h2>
${failures.map(failureSection).join('\n') || '<p>None.</p>'}
<h2>Skipped (${skips.length})</h2>
${skips.length > 0 ? `<ul id="skips">${skips.map((rule) => `<li data-rule="${htmlEscape(rule.id)}"><code>${htmlEscape(rule.id)}</code>: ${htmlEscape(rule.skipReason ?? '')}</li>`).join('\n')}</ul>` : '<p>None.</p>'}
${notes.length > 0 ? `<h2>Deviations and notes</h2><pre>${htmlEscape(notes.join('\n'))}</pre>` : ''}
</body></html>
`;
}
