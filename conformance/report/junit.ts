/**
 * JUnit XML: one <testsuite> per endpoint, one <testcase> per rule, <failure> with the full
 * failure text, <skipped> with the reason. Characters XML 1.0 forbids are shown as \uXXXX.
 */
import type { RuleResult, SuiteResult } from '../results.js';
import { detailLines, failureLines } from './failure-text.js';
import { coverageReport, runProblems } from './run-notes.js';

/** Escapes text for XML 1.0 content and attribute values. */
export function xmlEscape(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const allowed = code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
    if (!allowed) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if (char === '&') out += '&amp;';
    else if (char === '<') out += '&lt;';
    else if (char === '>') out += '&gt;';
    else if (char === '"') out += '&quot;';
    else if (char === "'") out += '&apos;';
    else out += char;
  }
  return out;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testCase(result: RuleResult): string[] {
  const open = `    <testcase classname="${xmlEscape(result.endpoint)}" name="${xmlEscape(result.id)}" time="${seconds(result.durationMs)}">`;
  const inner: string[] = [];
  if (result.outcome === 'skipped') inner.push(`      <skipped message="${xmlEscape(result.skipReason ?? '')}"/>`);
  if (result.failure) {
    const text = failureLines(result, result.failure).join('\n');
    const firstLine = result.failure.message.split('\n')[0] ?? '';
    inner.push(`      <failure message="${xmlEscape(firstLine)}" type="${result.failure.kind}">${xmlEscape(text)}</failure>`);
  }
  const details = detailLines(result);
  if (details.length > 0) inner.push(`      <system-out>${xmlEscape(details.join('\n'))}</system-out>`);
  return inner.length === 0 ? [open.replace(/>$/, '/>')] : [open, ...inner, '    </testcase>'];
}

export function renderJunit(result: SuiteResult): string {
  const groups = new Map<string, RuleResult[]>();
  for (const rule of result.results) groups.set(rule.endpoint, [...(groups.get(rule.endpoint) ?? []), rule]);
  const { counts } = result;
  const problems = runProblems(result);
  const runFailed = problems.length > 0 ? 1 : 0;
  // Coverage goes with every suite's properties; the run itself becomes a failing test case only when it failed (state left changed, interrupted, --fail-on-skip).
  const coverageProperties = result.coverage.entries
    .map((entry) => `<property name="${entry.kind}.${xmlEscape(entry.name)}" value="${entry.available ? 'available' : 'missing'}; ${entry.skippedRules} rule(s) skipped"/>`)
    .join('');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="chat-conformance" tests="${counts.total + runFailed}" failures="${counts.failed + runFailed}" errors="0" skipped="${counts.skipped}" time="${seconds(result.durationMs)}">`,
    ...(runFailed
      ? [
          `  <testsuite name="run" tests="1" failures="1" errors="0" skipped="0" time="0.000" timestamp="${result.startedAt}">`,
          `    <testcase classname="run" name="cleanups, interruption and coverage" time="0.000">`,
          `      <failure message="${xmlEscape(problems[0] ?? '')}" type="run">${xmlEscape(problems.join('\n'))}</failure>`,
          `      <system-out>${xmlEscape(coverageReport(result).join('\n'))}</system-out>`,
          '    </testcase>',
          '  </testsuite>',
        ]
      : []),
  ];
  for (const endpoint of [...groups.keys()].sort()) {
    const rules = groups.get(endpoint) ?? [];
    const count = (outcome: RuleResult['outcome']) => rules.filter((rule) => rule.outcome === outcome).length;
    const time = rules.reduce((sum, rule) => sum + rule.durationMs, 0);
    lines.push(
      `  <testsuite name="${xmlEscape(endpoint)}" tests="${rules.length}" failures="${count('failed')}" errors="0" skipped="${count('skipped')}" time="${seconds(time)}" timestamp="${result.startedAt}">`,
      `    <properties><property name="seed" value="${result.seed}"/><property name="base_url" value="${xmlEscape(result.target.baseUrl)}"/><property name="feature_level" value="${result.target.featureLevel}"/>${coverageProperties}</properties>`,
      ...rules.flatMap(testCase),
      '  </testsuite>',
    );
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
