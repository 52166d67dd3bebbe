#!/usr/bin/env node
/** `chat-server`: the reference server as a local development server (like a Zulip dev server). */
import { Command, InvalidArgumentError } from 'commander';
import { isValidFeatureLevel, MAX_FEATURE_LEVEL } from '../lib/features.js';
import { FixtureError } from '../lib/fixture.js';
import { startServer } from '../server/index.js';

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

const program = new Command()
  .name('chat-server')
  .description('Run the in-memory reference chat server (Zulip-style REST API under /api/v1).')
  .option('--port <n>', 'port to listen on (0 picks a free one)', integer(0, 65535), 9991)
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--feature-level <n>', `feature level to emulate (1-${MAX_FEATURE_LEVEL})`, integer(1, MAX_FEATURE_LEVEL), MAX_FEATURE_LEVEL)
  .option('--fixture <path>', 'realm fixture JSON (default: the development realm)')
  .option('--no-dev-endpoints', 'disable dev_fetch_api_key and dev_list_users')
  .option('--push-configured', 'behave as if a push notification service were configured')
  .option('--max-connections <n>', 'open connections at once; more are closed as they arrive (default: no cap)', integer(1, 1_000_000))
  .option('--max-body-bytes <n>', 'largest request body accepted, larger ones get 413 (default 32 MiB)', integer(1, 2 ** 31))
  .option('--body-timeout <ms>', 'time to receive a request body, then 408 (default 30000)', integer(1, 3_600_000))
  .option('--headers-timeout <ms>', 'time to receive request headers, then 408 (default 20000)', integer(1, 3_600_000))
  .option('--shutdown-grace <ms>', 'on SIGTERM/SIGINT, how long requests in flight may finish (default 10000)', integer(0, 3_600_000))
  .showHelpAfterError();

program.parse();
const options = program.opts<{
  port: number;
  host: string;
  featureLevel: number;
  fixture?: string;
  devEndpoints: boolean;
  pushConfigured?: boolean;
  maxConnections?: number;
  maxBodyBytes?: number;
  bodyTimeout?: number;
  headersTimeout?: number;
  shutdownGrace?: number;
}>();

if (!isValidFeatureLevel(options.featureLevel)) program.error('invalid feature level');

try {
  const server = await startServer({
    port: options.port,
    host: options.host,
    featureLevel: options.featureLevel,
    devEndpoints: options.devEndpoints,
    pushConfigured: options.pushConfigured ?? false,
    ...(options.fixture ? { fixture: options.fixture } : {}),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.bodyTimeout === undefined ? {} : { bodyTimeoutMs: options.bodyTimeout }),
    ...(options.headersTimeout === undefined ? {} : { headersTimeoutMs: options.headersTimeout }),
    ...(options.shutdownGrace === undefined ? {} : { shutdownGraceMs: options.shutdownGrace }),
  });
  console.log(`chat-server listening on ${server.url} (feature level ${options.featureLevel})`);
  // Graceful: stop accepting, answer held polls, let requests in flight finish, then exit.
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  if (error instanceof FixtureError) {
    console.error(`chat-server: ${error.message}`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    console.error(`chat-server: cannot listen on ${options.host}:${options.port}: ${code}`);
    process.exit(2);
  }
  throw error;
}
