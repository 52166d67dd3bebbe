/**
 * One failure in the HTML report: its text, the recorded check, the failing exchange (request,
 * then the answer pretty-printed with the differing field highlighted) and the whole case as curl
 * commands, folded.
 */
import { exchangeToText } from '../client/curl.js';
import type { Exchange } from '../client/exchange.js';
import { firstDifference } from '../expect/json-equal.js';
import type { RecordedCheck } from '../expect/recorded-check.js';
import type { RuleResult } from '../results.js';
import { failureLines } from './failure-text.js';
import { bodyHtml, type Highlight, highlightAt, htmlEscape } from './html-json.js';
import { describeCheck } from './repro/check-text.js';

export const ruleAnchor = (id: string) => `rule-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** Where in the answer the check found it wrong. */
function highlightOf(check: RecordedCheck): Highlight | undefined {
  if (check.kind === 'error') return highlightAt('.code', false);
  if (check.kind === 'success') return highlightAt('.result', false);
  if (check.path === undefined) return undefined;
  if (check.kind === 'absent') return highlightAt(check.path, false);
  if (check.kind === 'shape') return highlightAt(check.path, check.expected === 'present');
  if (check.kind !== 'equal') return undefined;
  if (check.received === undefined) return highlightAt(check.path, true);
  const difference = firstDifference(check.received, check.expected);
  if (!difference) return highlightAt(check.path, false);
  const inner = difference.path.replace(/\.length$/, '');
  return highlightAt(`${check.path}${inner}`, difference.actual === undefined && inner === difference.path);
}

/** Whether the check was about the HTTP status (and the status is not the expected one). */
function statusDiffers(check: RecordedCheck | undefined, status: number): boolean {
  const expected = check?.expected;
  if (check?.kind === 'status') return Array.isArray(expected) && !expected.includes(status);
  if (check?.kind === 'success') return status !== 200;
  if (check?.kind === 'error') return !(Array.isArray(expected) ? expected : [expected]).some((answer) => (answer as { status?: number } | null)?.status === status);
  return false;
}

function requestText(exchange: Exchange): string {
  const type = exchange.requestHeaders['content-type'] ?? '';
  const body = /x-www-form-urlencoded/.test(type)
    ? [...new URLSearchParams(exchange.requestBody)].map(([name, value]) => `${name} = ${value}`).join('\n')
    : exchange.requestBody;
  return `${exchange.method} ${exchange.url}${body === '' ? '' : `\n\n${body}`}`;
}

function exchangeHtml(exchange: Exchange, check: RecordedCheck | undefined, position: string): string {
  const checked = check?.exchange === exchange.seq;
  const highlight = checked && check ? highlightOf(check) : undefined;
  const status = exchange.status === 0 ? `no answer: ${exchange.error ?? ''}` : `HTTP ${exchange.status}`;
  const statusClass = checked && statusDiffers(check, exchange.status) ? 'status diff' : 'status';
  return [
    `<div class="exchange" data-seq="${exchange.seq}">`,
    `<h4>Failing exchange (${position})</h4>`,
    `<pre class="request">${htmlEscape(requestText(exchange))}</pre>`,
    `<pre class="response"><span class="${statusClass}">${htmlEscape(status)}</span>\n${bodyHtml(exchange.responseBody, highlight)}</pre>`,
    '</div>',
  ].join('\n');
}

export function failureSection(rule: RuleResult): string {
  const failure = rule.failure!;
  const check = failure.check;
  const all = failure.reproduction.length > 0 ? failure.reproduction : failure.exchanges;
  const index = check?.exchange === undefined ? -1 : all.findIndex((exchange) => exchange.seq === check.exchange);
  const failing = all[index >= 0 ? index : all.length - 1];
  const position = failing ? `${(index >= 0 ? index : all.length - 1) + 1} of ${all.length}${index >= 0 ? ', the one the check looked at' : ', the last one'}` : '';
  return [
    `<section class="failure" id="${ruleAnchor(rule.id)}" data-rule="${htmlEscape(rule.id)}">`,
    `<h3>${htmlEscape(rule.id)}</h3>`,
    `<pre class="failure-text">${htmlEscape(failureLines(rule, failure, { curl: false }).join('\n'))}</pre>`,
    `<p class="check" data-kind="${htmlEscape(check?.kind ?? 'none')}">Checked: ${htmlEscape(describeCheck(check, index, all.length))}</p>`,
    failing ? exchangeHtml(failing, check, position) : '',
    `<details class="case"><summary>Reproduction: ${failure.reproduction.length} exchange(s) of the failing case, setup included (curl)${failure.sharedSetup ? `, after ${failure.sharedSetup.length} that made fixtures the run shared (in the JSON report and --repro-dir)` : ''}</summary>`,
    `<pre class="reproduction">${htmlEscape(failure.reproduction.map(exchangeToText).join('\n\n'))}</pre></details>`,
    '</section>',
  ].join('\n');
}
