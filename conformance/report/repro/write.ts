/**
 * `--repro-dir DIR`: for each failing rule, `DIR/<rule id>.mjs` (a Node script that re-checks the
 * failure) and `DIR/<rule id>.har` with every exchange of the failing case, its setup included,
 * the failing exchange marked (rule ids contain `/`, so the files sit in one folder per resource).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SuiteResult } from '../../results.js';
import { USER_AGENT } from '../../client/api-client.js';
import { makeDirectory } from '../directory.js';
import { Redactor } from '../redact.js';
import { harLog } from './har.js';
import { reproScript } from './script.js';

/** The `chat-server` command that starts an HTTP target equivalent to the embedded one. */
export function chatServerCommand(result: SuiteResult): string {
  return `chat-server --feature-level ${result.target.discoveredFeatureLevel}`;
}

/** What to tell a person whose run against the embedded server failed. */
export function reproHint(result: SuiteResult): string {
  const url = new URL(result.target.baseUrl);
  const port = url.port === '' || url.port === '9991' ? '' : ` --port ${url.port}`;
  return `to reproduce over HTTP, start an equivalent target with \`${chatServerCommand(result)}${port}\` (it listens on ${result.target.baseUrl}), then rerun with --base-url ${result.target.baseUrl} or run a script written by --repro-dir`;
}

export interface ReproOptions {
  readonly redact: boolean;
  /** Values known to be secret besides those in the exchanges. */
  readonly secrets?: readonly string[];
}

/** Writes the files; returns one notice line per failing rule. */
export function writeReproductions(dir: string, result: SuiteResult, options: ReproOptions): string[] {
  const notices: string[] = [];
  const creator = { name: 'chat-conformance', version: USER_AGENT.split('/')[1] ?? '' };
  const notes = result.target.kind === 'embedded' ? [`Recorded against the embedded server: start an equivalent target with \`${chatServerCommand(result)}\`.`] : [];
  for (const rule of result.results) {
    const failure = rule.failure;
    if (!failure) continue;
    const shared = failure.sharedSetup ?? [];
    const exchanges = [...shared, ...failure.reproduction];
    const checked = failure.check?.exchange === undefined ? -1 : failure.reproduction.findIndex((exchange) => exchange.seq === failure.check?.exchange);
    const checkedIndex = checked < 0 ? -1 : shared.length + checked;
    const redactor = options.redact ? new Redactor(options.secrets).learnFailure(failure) : undefined;
    const base = join(dir, rule.id);
    makeDirectory(dirname(base));
    const scriptOptions = { baseUrl: result.target.baseUrl, runTag: result.runTag, notes, checkedIndex, sharedCount: shared.length, ...(redactor ? { redactor } : {}) };
    writeFileSync(`${base}.mjs`, reproScript(rule, exchanges, scriptOptions), { mode: 0o755 });
    // The checked answer, else the last one (a timeout, an error in the rule) is the failing exchange.
    const marked = { index: checkedIndex >= 0 ? checkedIndex : exchanges.length - 1, comment: `failing exchange of ${rule.id}: ${failure.message}` };
    const har = harLog(exchanges, creator, `chat-conformance rule ${rule.id}: ${failure.message.split('\n')[0] ?? ''}`, marked);
    writeFileSync(`${base}.har`, `${JSON.stringify(redactor ? redactor.value(har) : har, null, 2)}\n`);
    notices.push(`reproduction of ${rule.id} (${exchanges.length} exchanges): ${base}.mjs, ${base}.har`);
  }
  return notices;
}
