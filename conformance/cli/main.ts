/**
 * The `chat-conformance` program, minus the embedded server: the bin passes a factory for it, so
 * this module (like all of conformance/) never imports the reference server.
 * Exit status: 0 every selected rule passed or was skipped, 1 a rule failed (or a cleanup left
 * state changed, or --fail-on-skip), 2 bad usage (an empty selection, an unwritable report path)
 * or an unusable target (unreachable, silent), 130/143 interrupted by SIGINT/SIGTERM (after the
 * cleanups and a partial report; 1 when a cleanup failed).
 */
import { TransportError } from '../client/api-client.js';
import { TargetError, UsageError } from '../errors.js';
import { allRules } from '../rules/registry.js';
import { selectRules } from '../selection.js';
import { discover } from '../targets/discovery.js';
import type { CliIo } from './io.js';
import { lastFailed } from './last-failed.js';
import { listRules, listRulesJson } from './list.js';
import { mergeReportsCommand } from './merge-reports.js';
import { type CliOptions, cliSelection, parseCli } from './options.js';
import { openTarget } from './target.js';
import { runCli } from './run.js';

export { listRules } from './list.js';
export type { CliIo, EmbeddedServer } from './io.js';

/** The level `--list --json` marks rules for: `--feature-level`, else the target's own. */
async function listingLevel(options: CliOptions, io: CliIo): Promise<number> {
  if (options.featureLevel !== undefined) return options.featureLevel;
  const { target, close } = openTarget(options, io);
  try {
    return (await discover(target, { requestTimeoutMs: options.requestTimeout ?? 30_000 })).featureLevel;
  } finally {
    await close();
  }
}

async function list(options: CliOptions, io: CliIo): Promise<number> {
  const rules = selectRules(allRules(), cliSelection(options));
  if (rules.length === 0) throw new UsageError('no rule matches the selection; --list without --only/--skip shows every rule id');
  io.stdout.write(options.json ? listRulesJson(rules, await listingLevel(options, io)) : listRules(rules));
  return 0;
}

/** Runs the program; resolves to the exit status. */
export async function main(io: CliIo): Promise<number> {
  try {
    if (io.argv[0] === 'merge-reports') return await mergeReportsCommand(io.argv.slice(1), io);
    const options = parseCli(io.argv, { out: (text) => io.stdout.write(text), err: (text) => io.stderr.write(text) }, io.version, io.cwd);
    if (options === null) return 0;
    if (options.list) return await list(options, io);
    if (options.lastFailed === undefined) return await runCli(options, io);
    const chosen = lastFailed(options.lastFailed, allRules());
    io.stderr.write(`chat-conformance: ${chosen.notice}\n`);
    return chosen.ids.length === 0 ? 0 : await runCli({ ...options, only: chosen.ids }, io);
  } catch (error) {
    // A target that stops answering outside a rule (discovery, credentials, cleanups) is unusable.
    if (error instanceof UsageError || error instanceof TargetError || error instanceof TransportError) {
      io.stderr.write(`chat-conformance: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
