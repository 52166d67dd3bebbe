/**
 * The command line of `chat-conformance` (commander 14): definition, parsing into typed options,
 * and the reverse (the arguments that reach the same target again, for printed replay commands).
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { UsageError } from '../errors.js';
import { REPORT_FORMATS } from '../report/index.js';
import { DEFAULT_NUM_RUNS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../runner.js';
import { HELP_AFTER } from './help.js';
import { parseReportChoice, type ReportChoice } from './outputs.js';
import { parseShard, type Selection, type Shard } from '../selection.js';
import { parseReplay } from '../seeds.js';
import { configArguments, configPath, readConfig } from './config-file.js';
import { parseHeaders } from '../targets/connection.js';

export interface CliOptions {
  readonly baseUrl?: string;
  readonly emails: readonly string[];
  readonly apiKeys: readonly string[];
  readonly configFiles: readonly string[];
  readonly bootstrap: boolean;
  readonly only: readonly string[];
  readonly skip: readonly string[];
  /** `--last-failed FILE`: an earlier JSON report whose failed rules are re-run. */
  readonly lastFailed?: string;
  readonly seed?: number;
  readonly numRuns?: number;
  readonly replay?: string;
  /** `--reporter` values in order (none: the default reporter on stdout). */
  readonly reporters: readonly ReportChoice[];
  readonly output?: string;
  readonly reproDir?: string;
  readonly showCredentials: boolean;
  readonly requestTimeout?: number;
  readonly json: boolean;
  readonly shard?: Shard;
  readonly timeout?: number;
  readonly bail: boolean;
  readonly readOnly: boolean;
  readonly strictDocs: boolean;
  readonly featureLevel?: number;
  readonly serverFeatureLevel?: number;
  readonly list: boolean;
  readonly color?: boolean;
  /** `--allow-realm-writes` (true) or absent (the runner's default: embedded server only). */
  readonly allowRealmWrites?: boolean;
  /** `--allow-user-creation` (true) or absent (the runner's default: embedded server only). */
  readonly allowUserCreation?: boolean;
  readonly throwawayEmailDomain?: string;
  readonly failOnSkip: boolean;
  /** `--endpoint` patterns (`GET /messages`, `/users/*`), any of which selects a rule. */
  readonly endpoints: readonly string[];
  /** `-H 'Name: value'` lines, sent with every request. */
  readonly headers: readonly string[];
  readonly proxy?: string;
  readonly caFile?: string;
  readonly insecure: boolean;
  /** The config file the options were read from, if any. */
  readonly configFile?: string;
}

/** Options that may be given several times (a list in a config file). */
export const REPEATABLE = new Set(['email', 'api-key', 'config-file', 'only', 'skip', 'endpoint', 'reporter', 'header']);

const integer = (min: number, max = Number.MAX_SAFE_INTEGER) => (value: string): number => {
  const n = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
  return n;
};
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function buildProgram(version = '0.0.0'): Command {
  return new Command()
    .name('chat-conformance')
    .version(version, '-V, --version', 'print the version and exit')
    .description('Check a chat server (ours, a Zulip development server, any Zulip server) against the chat API description.')
    .option('--base-url <url>', 'target server (scheme://host[:port]); without it, the embedded reference server runs in-process')
    .option('--email <email>', 'email of an identity (repeatable, pairs with --api-key)', collect)
    .option('--api-key <key>', 'API key of the identity given by the matching --email', collect)
    .option('--config-file <file>', 'zuliprc file ([api] email, key, site); repeatable', collect)
    .option('--no-bootstrap', 'do not fetch development credentials through dev_list_users/dev_fetch_api_key')
    .option('--config <file>', 'read options from this TOML or JSON file (default: chat-conformance.toml or .json in the working directory); command-line options override it')
    .option('--no-config', 'do not read the default config file')
    .option('--only <glob>', 'run only rules whose id matches (repeatable, comma-separated; * and ?)', collect)
    .option('--endpoint <pattern>', "run only rules of matching endpoints: 'GET /messages', '/users/*', 'POST' (repeatable; * and ?)", collect)
    .option('--skip <glob>', 'skip rules whose id matches (repeatable, comma-separated)', collect)
    .option('--last-failed <file>', 're-run exactly the rules that failed in an earlier JSON report (--reporter json=FILE)')
    .option('--seed <n>', 'seed of every property (default: random, printed)', integer(-(2 ** 31), 2 ** 31 - 1))
    .option('--num-runs <n>', `runs per property (default ${DEFAULT_NUM_RUNS})`, integer(1, 100_000))
    .option('--replay <seed:path>', 're-run exactly one counterexample (printed by a failure report; use with --only)')
    .option('--reporter <name[=file]>', `report format (${REPORT_FORMATS.join(', ')}), to stdout or to a file; repeatable (default: spec on a terminal, tap otherwise)`, collect)
    .option('--output <file>', 'write the one reporter given without a file to this file (progress still goes to stderr)')
    .option('--repro-dir <dir>', 'write each failing rule\'s case as <rule>.mjs (a Node script that re-checks the failure) and <rule>.har')
    .option('--show-credentials', 'show API keys, passwords and Authorization headers in reports (redacted by default)')
    .option('--shard <i/n>', 'run the i-th of n deterministic parts of the selected rules')
    .option('--timeout <ms>', `time limit per rule (default ${DEFAULT_TIMEOUT_MS})`, integer(1))
    .option('--request-timeout <ms>', `longest wait for one HTTP answer (default ${DEFAULT_REQUEST_TIMEOUT_MS})`, integer(1))
    .option('--bail', 'stop after the first failing rule')
    .option('--read-only', 'run only rules that do not change server state')
    .option('--strict-docs', 'fail rules that observe a known deviation where the reference server keeps to the description')
    .option('--feature-level <n>', 'select rules for this feature level instead of the discovered one', integer(0, 10_000))
    .option('--server-feature-level <n>', 'feature level the embedded server emulates (without --base-url)', integer(1, 10_000))
    .option('--list', 'list the rules (id, section, feature levels, writes/read-only) and exit')
    .option('--json', 'with --list: one JSON document (id, title, section, levels, writes, selected at the target\'s level)')
    .option('--allow-realm-writes', 'run rules that change what every member inherits (realm user-settings defaults, PATCH /realm settings, linkifiers), restoring them afterwards (always on against the embedded server)')
    .option('--allow-user-creation', 'create throwaway users for destructive rules, deactivated at the end; needs --throwaway-email-domain with --base-url (always on against the embedded server)')
    .option('--throwaway-email-domain <domain>', 'email domain of the users --allow-user-creation creates (e.g. example.org): addresses are <run tag>-userN@<domain>')
    .option('--fail-on-skip', 'exit 1 when a rule is skipped for a missing identity or capability (feature-level skips never fail)')
    .option('--no-color', 'no colours in the spec report (also NO_COLOR=1)')
    .option('-H, --header <header>', "send 'Name: value' with every request, e.g. an auth proxy's token (repeatable; never printed when it looks like a credential)", collect)
    .option('--proxy <url>', 'send every request through this HTTP(S) proxy (default: HTTPS_PROXY / HTTP_PROXY, minus NO_PROXY)')
    .option('--ca-file <file>', 'also trust the certificates (PEM) in this file, for a target or proxy with a private CA')
    .option('--insecure', 'do not verify the target\'s TLS certificate (a self-signed staging server)')
    .addHelpText('after', HELP_AFTER)
    .exitOverride();
}

type Writers = { out: (text: string) => void; err: (text: string) => void };

/** Runs commander over `argv`; null after --help/--version. `where` prefixes messages about a config file's arguments. */
function parseWith(argv: readonly string[], write: Writers, version: string | undefined, where = ''): Command | null {
  // Commander's own error line is replaced by the caller's `chat-conformance: ...` message.
  const program = buildProgram(version).configureOutput({ writeOut: write.out, writeErr: write.err, outputError: () => undefined });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return null;
      throw new UsageError(`${where}${error.message.replace(/^error: /, '')} (see --help)`);
    }
    throw error;
  }
  return program;
}

/**
 * Parses `argv` (without node and script), with the config file's options underneath (`--config
 * FILE`, or a default file in `cwd`). Throws UsageError for bad usage; returns null after --help/--version.
 */
export function parseCli(argv: readonly string[], write: Writers, version?: string, cwd: string = process.cwd()): CliOptions | null {
  const given = parseWith(argv, write, version);
  if (given === null) return null;
  const file = configPath(given.opts<{ config?: string | false }>().config, cwd);
  let program = given;
  if (file !== undefined) {
    const { byOption } = configArguments(readConfig(file), given, REPEATABLE, file);
    // What the command line sets replaces the file's value, lists included.
    const fromFile = [...byOption].filter(([name]) => given.getOptionValueSource(name) !== 'cli').flatMap(([, args]) => args);
    if (parseWith(fromFile, write, version, `${file}: `) === null) return null;
    program = parseWith([...fromFile, ...argv], write, version)!;
  }
  return typedOptions(program, file);
}

function typedOptions(program: Command, configFile: string | undefined): CliOptions {
  const raw = program.opts<Record<string, unknown>>();
  const strings = (key: string) => (raw[key] as string[] | undefined) ?? [];
  const emails = strings('email');
  const apiKeys = strings('apiKey');
  if (emails.length !== apiKeys.length) throw new UsageError('--email and --api-key come in pairs');
  if (typeof raw.replay === 'string') parseReplay(raw.replay);
  if (raw.lastFailed !== undefined && raw.only !== undefined) throw new UsageError('--last-failed chooses the rules itself: leave out --only');
  if (raw.serverFeatureLevel !== undefined && raw.baseUrl !== undefined) throw new UsageError('--server-feature-level applies to the embedded server only (no --base-url)');
  for (const flag of ['proxy', 'caFile', 'insecure'] as const) {
    if (raw[flag] !== undefined && raw.baseUrl === undefined) throw new UsageError(`--${flag === 'caFile' ? 'ca-file' : flag} applies to a target reached over the network (--base-url)`);
  }
  parseHeaders(strings('header'));
  if (raw.shard !== undefined && raw.seed === undefined && raw.replay === undefined) {
    throw new UsageError('--shard needs --seed N: the shards of one run share a seed so that their reports merge (in CI, e.g. --seed $GITHUB_RUN_NUMBER)');
  }
  const reporters = strings('reporter').map(parseReportChoice);
  if (raw.json === true && raw.list !== true) throw new UsageError('--json goes with --list');
  if (raw.allowUserCreation === true && raw.baseUrl !== undefined && raw.throwawayEmailDomain === undefined) {
    throw new UsageError('--allow-user-creation needs --throwaway-email-domain DOMAIN: created users get addresses at a domain you name, never at the administrator\'s');
  }
  const optional = <T>(key: string, value: T | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    ...optional('baseUrl', raw.baseUrl as string | undefined),
    emails,
    apiKeys,
    configFiles: strings('configFile'),
    bootstrap: raw.bootstrap !== false,
    only: strings('only'),
    skip: strings('skip'),
    ...optional('lastFailed', raw.lastFailed as string | undefined),
    ...optional('seed', raw.seed as number | undefined),
    ...optional('numRuns', raw.numRuns as number | undefined),
    ...optional('replay', raw.replay as string | undefined),
    reporters,
    ...optional('output', raw.output as string | undefined),
    ...optional('reproDir', raw.reproDir as string | undefined),
    showCredentials: raw.showCredentials === true,
    ...optional('requestTimeout', raw.requestTimeout as number | undefined),
    json: raw.json === true,
    ...optional('shard', typeof raw.shard === 'string' ? parseShard(raw.shard) : undefined),
    ...optional('timeout', raw.timeout as number | undefined),
    bail: raw.bail === true,
    readOnly: raw.readOnly === true,
    strictDocs: raw.strictDocs === true,
    ...optional('featureLevel', raw.featureLevel as number | undefined),
    ...optional('serverFeatureLevel', raw.serverFeatureLevel as number | undefined),
    list: raw.list === true,
    ...optional('color', raw.color === false ? false : undefined),
    ...optional('allowRealmWrites', raw.allowRealmWrites === true ? true : undefined),
    ...optional('allowUserCreation', raw.allowUserCreation === true ? true : undefined),
    ...optional('throwawayEmailDomain', raw.throwawayEmailDomain as string | undefined),
    failOnSkip: raw.failOnSkip === true,
    endpoints: strings('endpoint'),
    headers: strings('header'),
    ...optional('proxy', raw.proxy as string | undefined),
    ...optional('caFile', raw.caFile as string | undefined),
    insecure: raw.insecure === true,
    ...optional('configFile', configFile),
  } as CliOptions;
}

/** The rule selection the options ask for. */
export function cliSelection(options: CliOptions): Selection {
  return { only: options.only, skip: options.skip, endpoints: options.endpoints, readOnly: options.readOnly, ...(options.shard ? { shard: options.shard } : {}) };
}
