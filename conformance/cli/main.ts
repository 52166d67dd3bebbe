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
import { makeTarget } from '../index.js';
import { allRules } from '../rules/registry.js';
import { selectRules } from '../selection.js';
import { discover } from '../targets/discovery.js';
import type { CliIo } from './io.js';
import { listRules, listRulesJson } from './list.js';
import { type CliOptions, parseCli } from './options.js';
import { runCli } from './run.js';

export { listRules } from './list.js';
export type { CliIo, EmbeddedServer } from './io.js';

/** The level `--list --json` marks rules for: `--feature-level`, else the target's own. */
async function listingLevel(options: CliOptions, io: CliIo): Promise<number> {
  if (options.featureLevel !== undefined) return options.featureLevel;
  const embedded = options.baseUrl === undefined ? io.embedded(options.serverFeatureLevel) : undefined;
  const target = embedded ? makeTarget({ handler: embedded.handler }) : makeTarget({ baseUrl: options.baseUrl! });
  try {
    return (await discover(target, { requestTimeoutMs: options.requestTimeout ?? 30_000 })).featureLevel;
  } finally {
    await target.close();
    embedded?.close();
  }
}

async function list(options: CliOptions, io: CliIo): Promise<number> {
  const selection = { only: options.only, skip: options.skip, readOnly: options.readOnly, ...(options.shard ? { shard: options.shard } : {}) };
  const rules = selectRules(allRules(), selection);
  if (rules.length === 0) throw new UsageError('no rule matches the selection; --list without --only/--skip shows every rule id');
  io.stdout.write(options.json ? listRulesJson(rules, await listingLevel(options, io)) : listRules(rules));
  return 0;
}

/** Runs the program; resolves to the exit status. */
export async function main(io: CliIo): Promise<number> {
  try {
    const options = parseCli(io.argv, { out: (text) => io.stdout.write(text), err: (text) => io.stderr.write(text) }, io.version);
    if (options === null) return 0;
    return options.list ? await list(options, io) : await runCli(options, io);
  } catch (error) {
    // A target that stops answering outside a rule (discovery, credentials, cleanups) is unusable.
    if (error instanceof UsageError || error instanceof TargetError || error instanceof TransportError) {
      io.stderr.write(`chat-conformance: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
