/**
 * The library entry point: build a world from a fixture, wrap it in the request handler, and
 * listen on a port (0 by default) so tests can start a fake server in milliseconds.
 */
import type { AddressInfo } from 'node:net';
import { type Clock, ShiftedClock, systemClock } from '../lib/state/clock.js';
import { buildWorld } from '../lib/fixture/build.js';
import type { Fixture } from '../lib/fixture/schema.js';
import type { World } from '../lib/state/world.js';
import { loadFixture } from '../fixtures/index.js';
import { type AppOptions, ChatApp } from './app/app.js';
import { closeHttpServer, createHttpServer, type HttpOptions } from './http/listen.js';
import { isValidFeatureLevel, MAX_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from '../lib/features.js';
import { restoreWorld, snapshotWorld } from '../lib/state/world-snapshot.js';
import { ActivityLog } from './dev/activity-log.js';
import type { DevControl } from './dev/control.js';
import { FaultTable } from './dev/faults.js';
import { devFront } from './dev/front.js';
import { loadStateFile, saveStateFile, StateFileError } from './dev/state-file.js';

export interface WorldConfig {
  /** A fixture path, or an already parsed fixture. Defaults to the development realm. */
  readonly fixture?: string | Fixture;
  readonly clock?: Clock;
  /** Emulated feature level, 1 to 415 (default 415). */
  readonly featureLevel?: number;
  /** Whether a push notification service is configured (section 4.12). */
  readonly pushConfigured?: boolean;
  /** Presence writes and event delivery happen a random 0..N ms after the answer, as on a production server. */
  readonly deliveryDelayMs?: number;
}

export function createWorld(config: WorldConfig = {}): World {
  const fixture = typeof config.fixture === 'object' ? config.fixture : loadFixture(config.fixture);
  return buildWorld(fixture, {
    clock: config.clock ?? systemClock,
    ...(config.featureLevel === undefined ? {} : { featureLevel: config.featureLevel }),
    ...(config.pushConfigured === undefined ? {} : { pushConfigured: config.pushConfigured }),
    ...(config.deliveryDelayMs === undefined ? {} : { deliveryDelayMs: config.deliveryDelayMs }),
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
    /** Log each request (method, path, status, user, ms): true for stderr, or a line callback. Off by default. */
    readonly log?: boolean | ((line: string) => void);
    /** Answer CORS preflights (Authorization allowed) and let any origin read answers. */
    readonly cors?: boolean;
    /**
     * A state file: loaded at start when it exists (a corrupt or foreign file is refused with
     * StateFileError and left alone), written by `close({ saveState: true })`.
     */
    readonly statePath?: string;
  };

export interface CloseOptions {
  /** Save the world to `statePath` (atomically) after the last request was answered. */
  readonly saveState?: boolean;
}

export interface RunningServer {
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
   * the state when asked, so the file holds every write that was answered.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** Refuses options that cannot work, with a message naming the option. */
export function validateServerOptions(options: ServerOptions): void {
  const level = options.featureLevel;
  if (level !== undefined && !isValidFeatureLevel(level)) throw new RangeError(`featureLevel must be an integer from ${MIN_FEATURE_LEVEL} to ${MAX_FEATURE_LEVEL}, got ${String(level)}`);
  const port = options.port;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new RangeError(`port must be an integer from 0 to 65535, got ${String(port)}`);
  const bytes = options.maxBodyBytes;
  if (bytes !== undefined && !(Number.isInteger(bytes) && bytes > 0)) throw new RangeError(`maxBodyBytes must be a positive integer, got ${String(bytes)}`);
  if (options.host !== undefined && (typeof options.host !== 'string' || options.host === '')) throw new TypeError('host must be a non-empty string');
  if (options.world && options.statePath !== undefined) throw new TypeError('give either world or statePath, not both');
}

/** The world to start with: the state file's, the one given, or a new one from the fixture. */
function startingWorld(options: ServerOptions): { world: World; loaded: boolean } {
  const saved = options.statePath === undefined ? undefined : loadStateFile(options.statePath);
  if (!saved) return { world: options.world ?? createWorld(options), loaded: false };
  if (options.featureLevel !== undefined && options.featureLevel !== saved.featureLevel) {
    throw new StateFileError(`the state file ${options.statePath} was saved at feature level ${saved.featureLevel}, not ${options.featureLevel}; start without a feature level (or at ${saved.featureLevel}), or use another file`);
  }
  return { world: restoreWorld(saved, options.clock ? { clock: options.clock } : {}), loaded: true };
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  validateServerOptions(options);
  // Real time that the development endpoints can move forward; worlds made later keep the same clock.
  const settings: ServerOptions = { ...options, clock: options.clock ?? options.world?.clock ?? new ShiftedClock() };
  const { world, loaded } = startingWorld(settings);
  const initial = options.world ? snapshotWorld(options.world) : undefined;
  let app = createApp({ ...settings, world });
  const activity = new ActivityLog();
  const serve = (next: World): void => {
    const old = app;
    app = createApp({ ...settings, world: next });
    old.close();
    if (dev) activity.watch(next);
  };
  const reset = (): void => serve(initial ? restoreWorld(initial, { clock: settings.clock as Clock }) : createWorld(settings));
  const dev: DevControl | undefined = app.devEndpoints
    ? { app: () => app, reset, replaceWorld: serve, requiredFeatureLevel: options.featureLevel, faults: new FaultTable(), activity }
    : undefined;
  if (dev) activity.watch(world);
  const front = devFront(() => app, { ...(dev ? { dev } : {}), ...(options.log ? { log: options.log } : {}), ...(options.cors ? { cors: true } : {}) });
  // The front decides which app answers.
  const server = createHttpServer({ answer: front }, options);
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
    get world() {
      return app.world;
    },
    get app() {
      return app;
    },
    stateLoaded: loaded,
    reset,
    async close(closeOptions: CloseOptions = {}) {
      // Stop accepting first, then answer the held polls: they are requests in flight like any other.
      const closed = closeHttpServer(server);
      app.close();
      activity.stop();
      await closed;
      if (closeOptions.saveState) {
        if (options.statePath === undefined) throw new TypeError('close({ saveState: true }) needs the statePath option');
        saveStateFile(options.statePath, app.world);
      }
    },
  };
}

export { ChatApp } from './app/app.js';
export type { AppOptions } from './app/app.js';
export { makeRequest, type ApiRequest, type ApiResponse } from './app/request.js';
export { ManualClock, ShiftedClock, systemClock, type Clock } from '../lib/state/clock.js';
export { World } from '../lib/state/world.js';
export { FEATURES, MAX_FEATURE_LEVEL } from '../lib/features.js';
export { DEV_REALM_PATH, loadFixture } from '../fixtures/index.js';
export { FixtureError } from '../lib/fixture/build.js';
export { snapshotWorld, restoreWorld, SnapshotError, type WorldSnapshot } from '../lib/state/world-snapshot.js';
export { StateFileError } from './dev/state-file.js';
export { waitForEvent, EventWaitTimeout, type WaitForEventOptions } from './app/wait-for-event.js';
export type { EventQueueOptions } from './app/event-options.js';
export type { ChatEvent } from '../lib/state/event-hub.js';
