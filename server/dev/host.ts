/**
 * What a server answers with, socket or not: the world (from a state file, a given world or the
 * fixture), the app (swapped on reset and import) and the development front (dev endpoints,
 * faults, page, CORS, log). `startServer` listens with it; `createFakeServer` answers undici
 * dispatches with it.
 */
import { type Clock, ShiftedClock } from '../../lib/state/clock.js';
import type { World } from '../../lib/state/world.js';
import { isValidFeatureLevel, MAX_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from '../../lib/features/feature-levels.js';
import { restoreWorld, snapshotWorld } from '../../lib/state/world-snapshot.js';
import type { ChatApp } from '../app/app.js';
import { createApp, type CreateAppOptions, createWorld } from '../app/create.js';
import type { ApiRequest, ApiResponse } from '../app/request.js';
import type { HttpOptions } from '../http/options.js';
import { ActivityLog } from './activity-log.js';
import type { DevControl } from './control.js';
import { FaultTable } from './faults.js';
import { devFront } from './front.js';
import { checkStateFileWritable, loadStateFile, StateFileError } from './state-file.js';
import { DEFAULT_SAVE_DELAY_MS, StateSaver, savingAfterWrites } from './state-saver.js';

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
     * StateFileError listing every problem, and left alone; so is a path that cannot be written),
     * saved while running (see stateSaveDelayMs) and by `close({ saveState: true })`.
     */
    readonly statePath?: string;
    /** With statePath: longest wait from a change to its save, in ms (default 2000; 0 saves only on close). */
    readonly stateSaveDelayMs?: number;
  };

export interface CloseOptions {
  /** Save the world to `statePath` (atomically) after the last request was answered. */
  readonly saveState?: boolean;
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
  const delay = options.stateSaveDelayMs;
  if (delay !== undefined && !(Number.isInteger(delay) && delay >= 0)) throw new RangeError(`stateSaveDelayMs must be a non-negative integer, got ${String(delay)}`);
}

/** The world to start with: the state file's, the one given, or a new one from the fixture. */
function startingWorld(options: ServerOptions): { world: World; loaded: boolean } {
  if (options.statePath !== undefined) checkStateFileWritable(options.statePath);
  const saved = options.statePath === undefined ? undefined : loadStateFile(options.statePath);
  if (!saved) return { world: options.world ?? createWorld(options), loaded: false };
  if (options.featureLevel !== undefined && options.featureLevel !== saved.featureLevel) {
    throw new StateFileError(`the state file ${options.statePath} was saved at feature level ${saved.featureLevel}, not ${options.featureLevel}; start without a feature level (or at ${saved.featureLevel}), or use another file`);
  }
  const config = { ...(options.clock ? { clock: options.clock } : {}), ...(options.navigationTourVideoUrl === undefined ? {} : { navigationTourVideoUrl: options.navigationTourVideoUrl }) };
  return { world: restoreWorld(saved, config), loaded: true };
}

/** What a server answers with, socket or not: the current app behind the development front. */
export interface ServerHost {
  readonly world: World;
  readonly app: ChatApp;
  readonly stateLoaded: boolean;
  reset(): void;
  /** Answers one request as the server would (dev endpoints, faults, CORS, log included). */
  readonly answer: (request: ApiRequest) => ApiResponse | Promise<ApiResponse>;
  /** Answers held long polls and stops the timers and the saving; `saveState` writes the state file. */
  close(options?: CloseOptions): Promise<void>;
}

/** The world, the swappable app and the development front that `startServer` and `createFakeServer` serve. */
export function createServerHost(options: ServerOptions = {}): ServerHost {
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
    saver?.watch();
    saver?.changed();
  };
  const reset = (): void => serve(initial ? restoreWorld(initial, { clock: settings.clock as Clock }) : createWorld(settings));
  const dev: DevControl | undefined = app.devEndpoints
    ? { app: () => app, reset, replaceWorld: serve, requiredFeatureLevel: options.featureLevel, faults: new FaultTable(), activity }
    : undefined;
  if (dev) activity.watch(world);
  const saver =
    options.statePath === undefined
      ? undefined
      : new StateSaver({
          path: options.statePath,
          world: () => app.world,
          delayMs: options.stateSaveDelayMs ?? DEFAULT_SAVE_DELAY_MS,
          // A failed background save is retried; each failure is told (one line, it is no bug).
          onError: (error) => {
            const message = `${error instanceof Error ? error.message : String(error)}; retrying`;
            if (options.logger) options.logger(message, error);
            else process.stderr.write(`${message}\n`);
          },
        });
  const front = devFront(() => app, { ...(dev ? { dev } : {}), ...(options.log ? { log: options.log } : {}), ...(options.cors ? { cors: true } : {}) });
  return {
    get world() {
      return app.world;
    },
    get app() {
      return app;
    },
    stateLoaded: loaded,
    reset,
    answer: saver ? savingAfterWrites(front, saver) : front,
    async close(closeOptions: CloseOptions = {}) {
      app.close();
      activity.stop();
      if (closeOptions.saveState && options.statePath === undefined) throw new TypeError('close({ saveState: true }) needs the statePath option');
      await saver?.stop(closeOptions.saveState === true);
    },
  };
}
