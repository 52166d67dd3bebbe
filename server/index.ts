/**
 * The library entry point: build a world from a fixture, wrap it in the request handler, and
 * listen on a port (0 by default) so tests can start a fake server in milliseconds.
 */
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../lib/clock.js';
import { buildWorld } from '../lib/fixture.js';
import type { Fixture } from '../lib/fixture-schema.js';
import type { World } from '../lib/world.js';
import { loadFixture } from '../fixtures/index.js';
import { type AppOptions, ChatApp } from './app.js';
import { closeHttpServer, createHttpServer, type HttpOptions } from './listen.js';

export interface WorldConfig {
  /** A fixture path, or an already parsed fixture. Defaults to the development realm. */
  readonly fixture?: string | Fixture;
  readonly clock?: Clock;
  /** Emulated feature level, 1 to 415 (default 415). */
  readonly featureLevel?: number;
  /** Whether a push notification service is configured (section 4.12). */
  readonly pushConfigured?: boolean;
}

export function createWorld(config: WorldConfig = {}): World {
  const fixture = typeof config.fixture === 'object' ? config.fixture : loadFixture(config.fixture);
  return buildWorld(fixture, {
    clock: config.clock ?? systemClock,
    ...(config.featureLevel === undefined ? {} : { featureLevel: config.featureLevel }),
    ...(config.pushConfigured === undefined ? {} : { pushConfigured: config.pushConfigured }),
  });
}

export type CreateAppOptions = WorldConfig & Omit<AppOptions, 'world'> & { readonly world?: World };

export function createApp(options: CreateAppOptions = {}): ChatApp {
  return new ChatApp({ ...options, world: options.world ?? createWorld(options) });
}

export type ServerOptions = CreateAppOptions &
  HttpOptions & {
    readonly port?: number;
    readonly host?: string;
  };

export interface RunningServer {
  /** Base URL such as `http://127.0.0.1:40123` (append `/api/v1/...`). */
  readonly url: string;
  readonly world: World;
  readonly app: ChatApp;
  /**
   * Stops accepting connections, answers held long polls, lets requests in flight finish (up to
   * `shutdownGraceMs`), closes keep-alive connections as they go idle, then the rest.
   */
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const app = createApp(options);
  const server = createHttpServer(app, options);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    world: app.world,
    app,
    async close() {
      // Stop accepting first, then answer the held polls: they are requests in flight like any other.
      const closed = closeHttpServer(server);
      app.close();
      await closed;
    },
  };
}

export { ChatApp } from './app.js';
export type { AppOptions } from './app.js';
export { makeRequest, type ApiRequest, type ApiResponse } from './request.js';
export { ManualClock, systemClock, type Clock } from '../lib/clock.js';
export { World } from '../lib/world.js';
export { FEATURES, MAX_FEATURE_LEVEL } from '../lib/features.js';
export { DEV_REALM_PATH, loadFixture } from '../fixtures/index.js';
export { FixtureError } from '../lib/fixture.js';
export { waitForEvent, EventWaitTimeout, type WaitForEventOptions } from './wait-for-event.js';
export type { EventQueueOptions } from './event-options.js';
export type { ChatEvent } from '../lib/events/hub.js';
