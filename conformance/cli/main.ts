/**
 * The `chat-conformance` program, minus the embedded server: the bin passes a factory for it, so
 * this module (like all of conformance/) never imports the reference server.
 * Exit status: 0 every selected rule passed or was skipped, 1 a rule failed, 2 bad usage or an
 * unusable target.
 */
import { writeFileSync } from 'node:fs';
import { TransportError } from '../client/api-client.js';
import { TargetError, UsageError } from '../errors.js';
import { makeTarget } from '../index.js';
import { progressListener, type ProgressStream } from '../report/progress.js';
import { renderReport } from '../report/index.js';
import { renderSpec } from '../report/spec.js';
import { allRules } from '../rules/registry.js';
import type { Rule } from '../rules/types.js';
import { runRules } from '../runner.js';
import { selectRules } from '../selection.js';
import type { InProcessHandler } from '../targets/in-process.js';
import { type CliOptions, invocationFor, parseCli } from './options.js';

export interface EmbeddedServer {
  readonly handler: InProcessHandler;
  close(): void;
}

export interface CliIo {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: ProgressStream;
  readonly stderr: ProgressStream;
  /** Starts the embedded reference server emulating `featureLevel` (default: its newest). */
  readonly embedded: (featureLevel: number | undefined) => EmbeddedServer;
}

function levels(rule: Rule): string {
  const { min, max } = rule.levels ?? {};
  if (min === undefined && max === undefined) return 'all levels';
  if (max === undefined) return `>= ${min}`;
  return min === undefined ? `<= ${max}` : `${min}-${max}`;
}

export function listRules(rules: readonly Rule[]): string {
  const rows = rules.map((rule) => [rule.id, `section ${rule.section}`, levels(rule), rule.writes ? 'writes' : 'read-only', rule.endpoint]);
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return `${rows.map((row) => row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join('  ')).join('\n')}\n${rules.length} rules\n`;
}

async function run(options: CliOptions, io: CliIo): Promise<number> {
  const selection = { only: options.only, skip: options.skip, readOnly: options.readOnly, ...(options.shard ? { shard: options.shard } : {}) };
  if (options.list) {
    io.stdout.write(listRules(selectRules(allRules(), selection)));
    return 0;
  }
  const embedded = options.baseUrl === undefined ? io.embedded(options.serverFeatureLevel) : undefined;
  const target = embedded ? makeTarget({ handler: embedded.handler }) : makeTarget({ baseUrl: options.baseUrl! });
  const reporter = options.reporter ?? (io.stdout.isTTY ? 'spec' : 'tap');
  try {
    const result = await runRules(target, {
      ...selection,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.numRuns === undefined ? {} : { numRuns: options.numRuns }),
      ...(options.replay === undefined ? {} : { replay: options.replay }),
      ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
      ...(options.featureLevel === undefined ? {} : { featureLevel: options.featureLevel }),
      bail: options.bail,
      strictDocs: options.strictDocs,
      credentials: {
        pairs: options.emails.map((email, i) => ({ email, apiKey: options.apiKeys[i]! })),
        configFiles: options.configFiles,
        env: io.env,
        bootstrap: options.bootstrap,
      },
      invocation: invocationFor(options),
      ...(reporter === 'spec' ? { listener: progressListener(io.stderr) } : {}),
    });
    const color = options.color !== false && reporter === 'spec' && options.output === undefined && io.stdout.isTTY === true;
    const report = renderReport(reporter, result, { color });
    if (options.output !== undefined) {
      writeFileSync(options.output, report);
      const summary = renderSpec(result).trimEnd().split('\n').pop() ?? '';
      io.stderr.write(`${summary}\nreport written to ${options.output}\n`);
    } else {
      io.stdout.write(report);
    }
    return result.ok ? 0 : 1;
  } finally {
    await target.close();
    embedded?.close();
  }
}

/** Runs the program; resolves to the exit status. */
export async function main(io: CliIo): Promise<number> {
  try {
    const options = parseCli(io.argv, { out: (text) => io.stdout.write(text), err: (text) => io.stderr.write(text) });
    if (options === null) return 0;
    return await run(options, io);
  } catch (error) {
    // A target that stops answering outside a rule (discovery, credentials, cleanups) is unusable.
    if (error instanceof UsageError || error instanceof TargetError || error instanceof TransportError) {
      io.stderr.write(`chat-conformance: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
