/**
 * `chat-conformance merge-reports FILE...`: the JSON reports of a sharded run (`--shard i/n` on
 * several machines, each with `--reporter json=FILE`) as one run's reports, in any of the usual
 * formats. Exit status: 0 the merged run passed, 1 it failed, 2 bad usage or reports that are not
 * parts of one run.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { UsageError } from '../errors.js';
import { REPORT_FORMATS, renderReport } from '../report/index.js';
import type { CliIo } from './io.js';
import { mergeReports, readShardReport } from './merge-results.js';
import { colorWanted, openOutputs, parseReportChoice } from './outputs.js';
import { exitStatus } from './run.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function program(io: CliIo): Command {
  return new Command()
    .name('chat-conformance merge-reports')
    .description('Merge the JSON reports of one sharded run (--shard i/n) and write the usual reports of the whole run.')
    .argument('<file...>', 'JSON reports (--reporter json=FILE), one per shard')
    .option('--reporter <name[=file]>', `report format (${REPORT_FORMATS.join(', ')}), to stdout or to a file; repeatable (default: spec on a terminal, tap otherwise)`, collect)
    .option('--output <file>', 'write the one reporter given without a file to this file')
    .option('--no-color', 'no colours in the spec report (also NO_COLOR=1)')
    .addHelpText('after', '\nExample:\n  chat-conformance merge-reports shard-1.json shard-2.json --reporter spec --reporter junit=conformance.xml\n')
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text), outputError: () => undefined })
    .exitOverride();
}

function readReport(file: string, cwd: string) {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return readShardReport(file, text);
}

/** Runs the subcommand (`argv` after `merge-reports`); resolves to the exit status. */
export async function mergeReportsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const command = program(io);
  try {
    command.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      throw new UsageError(`merge-reports: ${error.message.replace(/^error: /, '')} (see merge-reports --help)`);
    }
    throw error;
  }
  const options = command.opts<{ reporter?: string[]; output?: string; color?: boolean }>();
  const cwd = io.cwd ?? process.cwd();
  const { result } = mergeReports(command.args.map((file) => readReport(file, cwd)));
  const outputs = openOutputs((options.reporter ?? []).map(parseReportChoice), options.output, io.stdout.isTTY ? 'spec' : 'tap', io.stdout);
  try {
    for (const output of outputs) {
      const color = output.format === 'spec' && output.path === undefined && colorWanted(options.color, io.env, io.stdout.isTTY);
      output.write(renderReport(output.format, result, { color }));
    }
  } finally {
    for (const output of outputs) output.close();
  }
  io.stderr.write(`chat-conformance: merged ${command.args.length} reports: ${result.counts.passed} passed, ${result.counts.failed} failed, ${result.counts.skipped} skipped\n`);
  return exitStatus(result);
}
