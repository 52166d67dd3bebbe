#!/usr/bin/env node
/** `chat-server`: the reference server as a local development server (like a Zulip dev server). */
import { Command, InvalidArgumentError } from 'commander';
import { isValidFeatureLevel, MAX_FEATURE_LEVEL } from '../lib/features.js';
import { FixtureError } from '../lib/fixture.js';
import { REAL_API_RATE_LIMIT } from '../server/app.js';
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
  .option('--delivery-delay <ms>', 'write presence and deliver events a random 0..ms after answering, as a production server does', integer(0, 60_000))
  .option('--rate-limit [requests/seconds]', "enforce a per-user API rate limit (the real server's is 200/60)")
  .showHelpAfterError();

program.parse();
const options = program.opts<{
  port: number;
  host: string;
  featureLevel: number;
  fixture?: string;
  devEndpoints: boolean;
  pushConfigured?: boolean;
  rateLimit?: string | true;
  deliveryDelay?: number;
}>();

/** `--rate-limit` alone means the real server's limit; `N/S` means N requests in S seconds. */
function apiRateLimit(value: string | true | undefined): { attempts: number; windowMs: number } | undefined {
  if (value === undefined) return undefined;
  if (value === true) return REAL_API_RATE_LIMIT;
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value);
  const attempts = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (!match || attempts < 1 || seconds <= 0) return program.error(`--rate-limit: expected requests/seconds such as 200/60, got '${value}'`);
  return { attempts, windowMs: seconds * 1000 };
}

if (!isValidFeatureLevel(options.featureLevel)) program.error('invalid feature level');

try {
  const server = await startServer({
    port: options.port,
    host: options.host,
    featureLevel: options.featureLevel,
    devEndpoints: options.devEndpoints,
    pushConfigured: options.pushConfigured ?? false,
    ...(options.rateLimit === undefined ? {} : { apiRateLimit: apiRateLimit(options.rateLimit) }),
    ...(options.deliveryDelay === undefined ? {} : { deliveryDelayMs: options.deliveryDelay }),
    ...(options.fixture ? { fixture: options.fixture } : {}),
  });
  console.log(`chat-server listening on ${server.url} (feature level ${options.featureLevel})`);
  const stop = (): void => {
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
