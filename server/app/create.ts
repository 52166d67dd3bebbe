/** Building a world from a fixture and the app around it: the library's socket-free entry points. */
import { type Clock, systemClock } from '../../lib/state/clock.js';
import { buildWorld } from '../../lib/fixture/build.js';
import type { Fixture } from '../../lib/fixture/schema.js';
import type { World } from '../../lib/state/world.js';
import { loadFixture } from '../../fixtures/index.js';
import { type AppOptions, ChatApp } from './app.js';

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
  /** The navigation tour video URL `POST /register` reports (level 369); none by default. */
  readonly navigationTourVideoUrl?: string | null;
}

export function createWorld(config: WorldConfig = {}): World {
  const fixture = typeof config.fixture === 'object' ? config.fixture : loadFixture(config.fixture);
  return buildWorld(fixture, {
    clock: config.clock ?? systemClock,
    ...(config.featureLevel === undefined ? {} : { featureLevel: config.featureLevel }),
    ...(config.pushConfigured === undefined ? {} : { pushConfigured: config.pushConfigured }),
    ...(config.deliveryDelayMs === undefined ? {} : { deliveryDelayMs: config.deliveryDelayMs }),
    ...(config.navigationTourVideoUrl === undefined ? {} : { navigationTourVideoUrl: config.navigationTourVideoUrl }),
  });
}

export type CreateAppOptions = WorldConfig & Omit<AppOptions, 'world'> & { readonly world?: World };

export function createApp(options: CreateAppOptions = {}): ChatApp {
  return new ChatApp({ ...options, world: options.world ?? createWorld(options) });
}
