/**
 * The library entry point: build a world from a fixture, wrap it in the request handler, and
 * listen on a port (0 by default) so tests can start a fake server in milliseconds; or answer
 * in-process through an undici dispatcher (`createFakeServer`).
 */
import type { AddressInfo } from 'node:net';
import type { World } from '../lib/state/world.js';
import type { ChatApp } from './app/app.js';
import { type CloseOptions, createServerHost, type ServerOptions } from './dev/host.js';
import { closeHttpServer, createHttpServer } from './http/listen.js';

export { createApp, createWorld, type CreateAppOptions, type WorldConfig } from './app/create.js';
export { createServerHost, validateServerOptions, type CloseOptions, type ServerHost, type ServerOptions } from './dev/host.js';

export interface RunningServer extends AsyncDisposable {
  /** Base URL such as `http://127.0.0.1:40123` (append `/api/v1/...`). */
  readonly url: string;
  /** The current world (a new one after `reset()`). */
  readonly world: World;
  readonly app: ChatApp;
  /** Whether the world was loaded from `statePath`. */
  readonly stateLoaded: boolean;
  /** Back to the starting state (the fixture, or the `world` given); event queues are dropped. */
  reset(): void;
  /**
   * Stops accepting connections, answers held long polls, lets requests in flight finish (up to
   * `shutdownGraceMs`), closes keep-alive connections as they go idle, then the rest; then saves
   * the state when asked, so the file holds every write that was answered. `await using server =
   * await startServer()` calls it (without saving) when the scope ends.
   */
  close(options?: CloseOptions): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = createServerHost(options);
  // The front decides which app answers.
  const server = createHttpServer({ answer: host.answer }, options);
  const address = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    const refused = (error: Error) => {
      void host.close().catch(() => undefined);
      reject(error);
    };
    server.once('error', refused);
    server.listen(options.port ?? 0, address, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = address.includes(':') ? `[${address}]` : address;
  const close = async (closeOptions: CloseOptions = {}): Promise<void> => {
    // Stop accepting first, then answer the held polls: they are requests in flight like any other.
    const closed = closeHttpServer(server);
    host.app.close();
    await closed;
    await host.close(closeOptions);
  };
  return {
    url: `http://${shownHost}:${port}`,
    get world() {
      return host.world;
    },
    get app() {
      return host.app;
    },
    stateLoaded: host.stateLoaded,
    reset: host.reset,
    close,
    [Symbol.asyncDispose]: () => close(),
  };
}

export { ChatApp } from './app/app.js';
export type { AppOptions } from './app/app.js';
export { makeRequest, type ApiRequest, type ApiResponse } from './app/request.js';
export { ManualClock, ShiftedClock, systemClock, type Clock } from '../lib/state/clock.js';
export { World } from '../lib/state/world.js';
export { FEATURES, MAX_FEATURE_LEVEL } from '../lib/features/feature-levels.js';
export { DEV_REALM_PATH, loadFixture } from '../fixtures/index.js';
export { FixtureError } from '../lib/fixture/build.js';
export { snapshotWorld, restoreWorld, SnapshotError, type WorldSnapshot } from '../lib/state/world-snapshot.js';
export { StateFileError } from './dev/state-file.js';
export { waitForEvent, EventWaitTimeout, type WaitForEventOptions } from './app/wait-for-event.js';
export type { EventQueueOptions } from './app/event-options.js';
export type { ChatEvent } from '../lib/state/event-hub.js';
export { createFakeServer, type FakeServer, type FakeServerOptions } from './http/fake-server.js';
