#!/usr/bin/env node
/**
 * `chat-server`: the reference server as a local development server (like a Zulip dev server).
 * Exit status: 0 stopped normally, 1 a failure while running (the state could not be saved),
 * 2 bad usage or an unusable setting (unknown option, bad value, a host that does not resolve,
 * port taken, unreadable fixture, a state file that cannot be read, loaded or written).
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { MAX_FEATURE_LEVEL } from '../lib/features/feature-levels.js';
import { FixtureError } from '../lib/fixture/build.js';
import { REAL_API_RATE_LIMIT } from '../server/app/app.js';
import { startServer, StateFileError } from '../server/index.js';
import { banner, devUser } from './chat-server-banner.js';
import { execEnvironment, runCommand, writeZuliprcs } from './chat-server-exec.js';
import { hostProblem, listenProblem } from './chat-server-host.js';
import { packageVersion } from './package-version.js';

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

const HELP_AFTER = `
Examples:
  chat-server                                     the development realm on http://127.0.0.1:9991
  chat-server --feature-level 289 --port 9992     a server as of feature level 289
  chat-server --state dev-state.json --log        keep the data across restarts (and crashes), log requests
  chat-server --cors --host 0.0.0.0               serve a browser client from another origin
  chat-server --port 0 --exec 'npm test'          run a command against a fresh server, exit with its status
  chat-server --write-zuliprc bots/               a zuliprc per development user, for Python bots

Exit status:
  0  stopped normally (Ctrl-C, SIGTERM), the state saved when --state is given
     with --exec: the command's exit status (128+N when signal N ended it), after the server stopped
  1  a failure while running (the state could not be saved)
  2  bad usage or an unusable setting: unknown option or value, a host that does not resolve or
     is not this machine's, port taken, unreadable fixture, a state file that is not a saved
     world (every problem is listed; the file is left as it is) or whose folder cannot be written

Environment:
  none is read; the output has no colours, so NO_COLOR and FORCE_COLOR change nothing
  --exec gives its command CHAT_SERVER_URL and ZULIP_SITE (the server's URL), and a development
  administrator's ZULIP_EMAIL and ZULIP_API_KEY (with --write-zuliprc: ZULIP_CONFIG, their file)

Development endpoints (off with --no-dev-endpoints; docs/dev-server.md):
  POST /api/v1/dev_fetch_api_key, GET /api/v1/dev_list_users   log in as any development user
  GET /                                                        a page: users, channels, messages, queues, live log
  POST /__dev/reset                                            back to the starting state
  POST /__dev/faults, GET|DELETE /__dev/faults                 inject a status, body or delay for N requests
  POST /__dev/clock/advance {"seconds": N}, GET /__dev/clock   move the world's clock forward
  GET /__dev/queues, POST /__dev/queues/expire                 list or expire event queues
  GET|PUT /__dev/state                                         export or import the whole state (--state format)
  GET /__dev/realm|users|channels|messages|log                 the page's data, as JSON
`;

const program = new Command()
  .name('chat-server')
  .description('Run the in-memory reference chat server (Zulip-style REST API under /api/v1).')
  .version(packageVersion(), '-V, --version', 'print the version and exit')
  .option('--port <n>', 'port to listen on (0 picks a free one)', integer(0, 65535), 9991)
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--feature-level <n>', `feature level to emulate (1-${MAX_FEATURE_LEVEL}; default ${MAX_FEATURE_LEVEL}, or the state file's)`, integer(1, MAX_FEATURE_LEVEL))
  .option('--fixture <path>', 'realm fixture JSON (default: the development realm)')
  .option('--state <file>', 'load the world from this file when it exists; save it there while running and on Ctrl-C/SIGTERM')
  .option('--save-delay <ms>', 'with --state, longest wait from a change to its save (default 2000; 0 saves only on stop)', integer(0, 3_600_000))
  .option('--log', 'log each request: method, path, status, user, milliseconds')
  .option('--cors', 'answer CORS preflights (Authorization allowed) for browser clients on other origins')
  .option('--no-dev-endpoints', 'disable dev_fetch_api_key, dev_list_users, /__dev/* and the page at /')
  .option('--push-configured', 'behave as if a push notification service were configured')
  .option('--delivery-delay <ms>', 'write presence and deliver events a random 0..ms after answering, as a production server does', integer(0, 60_000))
  .option('--rate-limit [requests/seconds]', "enforce a per-user API rate limit (the real server's is 200/60)")
  .option('--max-connections <n>', 'open connections at once; past it a connection gets 503 and is closed (default 1024)', integer(1, 1_000_000))
  .option('--max-body-bytes <n>', 'largest request body accepted, larger ones get 413 (default 32 MiB)', integer(1, 2 ** 31))
  .option('--body-timeout <ms>', 'time to receive a request body, then 408 (default 30000)', integer(1, 3_600_000))
  .option('--headers-timeout <ms>', 'time to receive request headers, then 408 (default 20000)', integer(1, 3_600_000))
  .option('--shutdown-grace <ms>', 'on SIGTERM/SIGINT, how long requests in flight may finish (default 10000)', integer(0, 3_600_000))
  .option('--exec <command>', 'run this shell command against the server (its URL and credentials in the environment), then stop and exit with its status')
  .option('--write-zuliprc <dir>', 'write <dir>/<email>.zuliprc ([api] email, key, site) for every development user and bot')
  .addHelpText('after', HELP_AFTER)
  .exitOverride();

// A closed stdout (`| head`) must not stop the server: the banner and the log are then dropped.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

try {
  program.parse();
} catch (error) {
  // Commander has printed the message (or the help/version).
  process.exit(error instanceof CommanderError && error.exitCode === 0 ? 0 : 2);
}
const options = program.opts<{
  port: number;
  host: string;
  featureLevel?: number;
  fixture?: string;
  state?: string;
  saveDelay?: number;
  log?: boolean;
  cors?: boolean;
  devEndpoints: boolean;
  pushConfigured?: boolean;
  rateLimit?: string | true;
  deliveryDelay?: number;
  maxConnections?: number;
  maxBodyBytes?: number;
  bodyTimeout?: number;
  headersTimeout?: number;
  shutdownGrace?: number;
  exec?: string;
  writeZuliprc?: string;
}>();
// With --exec, stdout belongs to the command: the banner and the log go to stderr.
const out = options.exec === undefined ? process.stdout : process.stderr;

function fail(message: string, status: number): never {
  process.stderr.write(`chat-server: ${message}\n`);
  process.exit(status);
}

/** `--rate-limit` alone means the real server's limit; `N/S` means N requests in S seconds. */
function apiRateLimit(value: string | true | undefined): { attempts: number; windowMs: number } | undefined {
  if (value === undefined) return undefined;
  if (value === true) return REAL_API_RATE_LIMIT;
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value);
  const attempts = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (!match || attempts < 1 || seconds <= 0) fail(`--rate-limit: expected requests/seconds such as 200/60, got '${value}'`, 2);
  return { attempts, windowMs: seconds * 1000 };
}

const badHost = await hostProblem(options.host);
if (badHost !== undefined) fail(badHost, 2);

try {
  const server = await startServer({
    port: options.port,
    host: options.host,
    ...(options.featureLevel === undefined ? {} : { featureLevel: options.featureLevel }),
    devEndpoints: options.devEndpoints,
    pushConfigured: options.pushConfigured ?? false,
    ...(options.rateLimit === undefined ? {} : { apiRateLimit: apiRateLimit(options.rateLimit) }),
    ...(options.deliveryDelay === undefined ? {} : { deliveryDelayMs: options.deliveryDelay }),
    ...(options.fixture ? { fixture: options.fixture } : {}),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.bodyTimeout === undefined ? {} : { bodyTimeoutMs: options.bodyTimeout }),
    ...(options.headersTimeout === undefined ? {} : { headersTimeoutMs: options.headersTimeout }),
    ...(options.shutdownGrace === undefined ? {} : { shutdownGraceMs: options.shutdownGrace }),
    ...(options.state ? { statePath: options.state } : {}),
    ...(options.saveDelay === undefined ? {} : { stateSaveDelayMs: options.saveDelay }),
    ...(options.log ? { log: (line: string) => void out.write(`${line}\n`) } : {}),
    ...(options.cors ? { cors: true } : {}),
  });
  out.write(
    banner({
      version: packageVersion(),
      url: server.url,
      world: server.world,
      devEndpoints: options.devEndpoints,
      ...(options.state ? { statePath: options.state } : {}),
      ...(options.saveDelay === undefined ? {} : { saveDelayMs: options.saveDelay }),
      stateLoaded: server.stateLoaded,
      log: options.log === true,
      cors: options.cors === true,
    }),
  );
  if (options.writeZuliprc !== undefined) {
    const written = writeZuliprcs(options.writeZuliprc, server.world, server.url);
    out.write(`  zuliprc files: ${written} written to ${options.writeZuliprc} (<email>.zuliprc)\n`);
  }
  if (options.exec !== undefined) {
    const status = await runCommand(options.exec, execEnvironment(server.url, devUser(server.world), options.writeZuliprc));
    try {
      await server.close({ saveState: options.state !== undefined });
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error), 1);
    }
    if (options.state) out.write(`chat-server: state saved to ${options.state}\n`);
    process.exit(status);
  }
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close({ saveState: options.state !== undefined }).then(
      () => {
        if (options.state) process.stdout.write(`chat-server: state saved to ${options.state}\n`);
        process.exit(0);
      },
      (error: unknown) => fail(error instanceof Error ? error.message : String(error), 1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  if (error instanceof FixtureError || error instanceof StateFileError || error instanceof RangeError) fail(error.message, 2);
  const problem = listenProblem(error, options.host, options.port);
  if (problem !== undefined) fail(problem, 2);
  throw error;
}
