/**
 * One run of the CLI: open the report destinations (before any request), run the selected rules
 * with live progress and streaming TAP, then write every report (credentials redacted unless
 * `--show-credentials`) and the reproductions of failing rules.
 */
import type { RuleResult, SuiteResult } from '../results.js';
import { type ReportFormat, renderReport } from '../report/index.js';
import { combineListeners, progressListener } from '../report/progress.js';
import { Redactor, redactResult } from '../report/redact.js';
import { renderSpec } from '../report/spec.js';
import { tapStream } from '../report/tap.js';
import type { RunListener } from '../runner.js';
import { runRules } from '../runner.js';
import type { CliIo } from './io.js';
import { openTarget } from './target.js';
import { invocationFor } from './invocation.js';
import { type CliOptions, cliSelection } from './options.js';
import { colorWanted, openOutputs, prepareDirectory, type ReportOutput } from './outputs.js';
import { reproHint, writeReproductions } from '../report/repro/write.js';

/** Secrets known before any exchange: keys given on the command line or in the environment. */
function knownSecrets(options: CliOptions, io: CliIo): string[] {
  return [...options.apiKeys, ...(io.env.ZULIP_API_KEY ? [io.env.ZULIP_API_KEY] : [])];
}

function summaryLine(result: SuiteResult): string {
  return renderSpec(result).trimEnd().split('\n').pop() ?? '';
}

/**
 * 0 the run passed; 130 (SIGINT) or 143 (SIGTERM) an interrupted run whose cleanups all
 * succeeded; 1 otherwise (a rule failed, a cleanup left state changed, --fail-on-skip).
 */
export function exitStatus(result: SuiteResult): number {
  if (result.interrupted && result.leftChanged.length === 0) return result.interrupted === 'SIGINT' ? 130 : 143;
  return result.ok ? 0 : 1;
}

export async function runCli(options: CliOptions, io: CliIo): Promise<number> {
  const fallback: ReportFormat = io.stdout.isTTY ? 'spec' : 'tap';
  const outputs = openOutputs(options.reporters, options.output, fallback, io.stdout);
  try {
    if (options.reproDir !== undefined) prepareDirectory(options.reproDir, '--repro-dir');
    return await runWithOutputs(options, io, outputs);
  } finally {
    for (const output of outputs) output.close();
  }
}

async function runWithOutputs(options: CliOptions, io: CliIo, outputs: readonly ReportOutput[]): Promise<number> {
  const secrets = knownSecrets(options, io);
  const redactRule = (result: RuleResult): RuleResult =>
    options.showCredentials ? result : new Redactor(secrets).learnFailure(result.failure).value(result);
  const streams = outputs.filter((output) => output.format === 'tap').map((output) => ({ output, stream: tapStream((text) => output.write(text), redactRule) }));
  const listeners: RunListener[] = streams.map(({ stream }) => stream);
  // TAP on stdout is its own progress in a log; elsewhere (and on a terminal always) people get a progress line on stderr.
  const tapOnStdout = outputs.some((output) => output.format === 'tap' && output.path === undefined);
  const progress = io.stderr.isTTY || !tapOnStdout ? progressListener(io.stderr) : undefined;
  if (progress) listeners.push(progress);

  // SIGINT/SIGTERM stop the run: the running rule is aborted, its and the run's cleanups run, the partial report is written.
  const interrupt = new AbortController();
  const stopListening = io.onSignal?.((signal) => {
    if (!interrupt.signal.aborted) {
      io.stderr.write(`\nchat-conformance: ${signal}: stopping after cleanups (the report will be partial; a second signal exits at once, without them)\n`);
      interrupt.abort(signal);
    }
  });
  const { target, close } = openTarget(options, io);
  try {
    const selection = cliSelection(options);
    const result = await runRules(target, {
      ...selection,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.numRuns === undefined ? {} : { numRuns: options.numRuns }),
      ...(options.replay === undefined ? {} : { replay: options.replay }),
      ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
      ...(options.requestTimeout === undefined ? {} : { requestTimeoutMs: options.requestTimeout }),
      ...(options.featureLevel === undefined ? {} : { featureLevel: options.featureLevel }),
      bail: options.bail,
      strictDocs: options.strictDocs,
      ...(options.allowRealmWrites ? { allowRealmWrites: true } : {}),
      ...(options.allowUserCreation ? { allowUserCreation: true } : {}),
      ...(options.throwawayEmailDomain === undefined ? {} : { throwawayEmailDomain: options.throwawayEmailDomain }),
      failOnSkip: options.failOnSkip,
      interrupt: interrupt.signal,
      credentials: {
        pairs: options.emails.map((email, i) => ({ email, apiKey: options.apiKeys[i]! })),
        configFiles: options.configFiles,
        env: io.env,
        bootstrap: options.bootstrap,
      },
      invocation: invocationFor(options),
      listener: combineListeners(...listeners),
    });
    for (const { stream } of streams) stream.finish(result);
    const shown = options.showCredentials ? result : redactResult(result, secrets);
    for (const output of outputs) {
      if (output.format === 'tap') continue;
      const color = output.format === 'spec' && output.path === undefined && colorWanted(options.color, io.env, io.stdout.isTTY);
      output.write(renderReport(output.format, shown, { color }));
    }
    const notices: string[] = [];
    if (options.reproDir !== undefined) notices.push(...writeReproductions(options.reproDir, result, { redact: !options.showCredentials, secrets }));
    if (!result.ok && result.target.kind === 'embedded') notices.push(reproHint(result));
    if (outputs.every((output) => output.path !== undefined)) {
      notices.unshift(summaryLine(shown), ...outputs.map((output) => `${output.format} report written to ${output.path}`));
    }
    if (notices.length > 0) io.stderr.write(`${notices.join('\n')}\n`);
    return exitStatus(result);
  } finally {
    stopListening?.();
    progress?.stop();
    await close();
  }
}
