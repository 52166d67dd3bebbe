/**
 * What the development endpoints may do to a running server (server/index.ts provides it): read
 * the current app, start over, serve another world, and the server's fault table and activity log.
 */
import type { World } from '../../lib/state/world.js';
import type { ChatApp } from '../app/app.js';
import type { ApiRequest, ApiResponse } from '../app/request.js';
import type { ActivityLog } from './activity-log.js';
import type { FaultTable } from './faults.js';

export interface DevControl {
  /** The app answering now (a new one after a reset or an import). */
  app(): ChatApp;
  /** Back to the starting state; event queues are dropped. */
  reset(): void;
  /** Serves `world` from now on; event queues are dropped, as by a reset. */
  replaceWorld(world: World): void;
  /** The feature level the server was started at explicitly; an imported state must have it. */
  readonly requiredFeatureLevel: number | undefined;
  readonly faults: FaultTable;
  readonly activity: ActivityLog;
}

/** One development endpoint; `params` holds the `{name}` segments of its path. */
export type DevHandler = (request: ApiRequest, control: DevControl, params: ReadonlyMap<string, string>) => ApiResponse | Promise<ApiResponse>;

export interface DevRoute {
  /** Under `/__dev/`; a `{name}` segment matches any one segment. */
  readonly path: string;
  readonly methods: Readonly<Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', DevHandler>>>;
}
