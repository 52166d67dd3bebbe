#!/usr/bin/env node
/**
 * `chat-server`: the reference server as a local development server (like a Zulip dev server).
 * Exit status: 0 stopped normally, 1 a failure while running (the state could not be saved),
 * 2 bad usage or an unusable setting (unknown option, bad value, port taken, unreadable fixture
 * or state file).
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { MAX_FEATURE_LEVEL } from '../lib/features.js';
import { FixtureError } from '../lib/fixture/build.js';
import { REAL_API_RATE_LIMIT } from '../server/app/app.js';
import { startServer, StateFileError } from '../server/index.js';
import { banner } from './chat-server-banner.js';
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
  chat-server --state dev-state.json --log        keep the data across restarts, log requests
  chat-server --cors --host 0.0.0.0               serve a browser client from another origin

Exit status:
  0  stopped normally (Ctrl-C, SIGTERM), the state saved when --state is given
  1  a failure while running (the state could not be saved)
  2  bad usage or an unusable setting: unknown option or value, port taken, unreadable fixture,
     a state file that is not a saved world (it is left as it is)

Environment:
  none is read; the output has no colours, so NO_COLOR and FORCE_COLOR change nothing

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
  .option('--state <file>', 'load the world from this file when it exists; save it there on Ctrl-C/SIGTERM')
  .option('--log', 'log each request: method, path, status, user, milliseconds')
  .option('--cors', 'answer CORS preflights (Authorization allowed) for browser clients on other origins')
  .option('--no-dev-endpoints', 'disable dev_fetch_api_key, dev_list_users, /__dev/* and the page at /')
  .option('--push-configured', 'behave as if a push notification service were configured')
  .option('--delivery-delay <ms>', 'write presence and deliver events a random 0..ms after answering, as a production server does', integer(0, 60_000))
  .option('--rate-limit [requests/seconds]', "enforce a per-user API rate limit (the real server's is 200/60)")
  .option('--max-connections <n>', 'open connections at once; more are closed as they arrive (default: no cap)', integer(1, 1_000_000))
  .option('--max-body-bytes <n>', 'largest request body accepted, larger ones get 413 (default 32 MiB)', integer(1, 2 ** 31))
  .option('--body-timeout <ms>', 'time to receive a request body, then 408 (default 30000)', integer(1, 3_600_000))
  .option('--headers-timeout <ms>', 'time to receive request headers, then 408 (default 20000)', integer(1, 3_600_000))
  .option('--shutdown-grace <ms>', 'on SIGTERM/SIGINT, how long requests in flight may finish (default 10000)', integer(0, 3_600_000))
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
}>();

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
    ...(options.log ? { log: (line: string) => void process.stdout.write(`${line}\n`) } : {}),
    ...(options.cors ? { cors: true } : {}),
  });
  process.stdout.write(
    banner({
      version: packageVersion(),
      url: server.url,
      world: server.world,
      devEndpoints: options.devEndpoints,
      ...(options.state ? { statePath: options.state } : {}),
      stateLoaded: server.stateLoaded,
      log: options.log === true,
      cors: options.cors === true,
    }),
  );
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
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') fail(`cannot listen on ${options.host}:${options.port}: ${code}`, 2);
  throw error;
}
