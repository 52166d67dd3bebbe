/**
 * The contract between `POST /register` and the per-type state functions: what a state
 * function receives, and a small builder for fields that exist only from (or until) a level.
 */
import type { User } from '../../entities/user.js';
import type { ClientCapabilities } from '../../entities/client-capabilities.js';
import type { Feature } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

/** What the server itself reports (values that do not live in the world). */
export interface ServerInfo {
  readonly zulipVersion: string;
  /** `event_queue_longpoll_timeout_seconds`. */
  readonly longpollTimeoutSecs: number;
  /** Whether the development login endpoints are served (the `Dev` authentication method). */
  readonly devEndpoints: boolean;
  /** `server_generation`: when this server started, in seconds. */
  readonly serverGeneration: number;
}

export interface RegisterOptions {
  readonly capabilities: ClientCapabilities;
  readonly applyMarkdown: boolean;
  readonly clientGravatar: boolean;
  readonly slimPresence: boolean;
  /** `presence_history_limit_days`; null means the server default (14). */
  readonly presenceHistoryLimitDays: number | null;
  readonly includeSubscribers: 'true' | 'false' | 'partial';
  /** `include_streams` (default true): whether `streams` is sent when the `stream` type is wanted. */
  readonly includeStreams: boolean;
  /** The types whose state was asked for; null means every type. */
  readonly fetchEventTypes: readonly string[] | null;
  /** The realm URL as this request sees it. */
  readonly realmUrl: string;
  readonly server: ServerInfo;
}

/**
 * Computes the register fields of one event type for `user`. Field names are the API's; the
 * values must be JSON-ready (no Maps). Functions must not write to the world.
 */
export type StateFunction = (world: World, user: User, options: RegisterOptions) => Readonly<Record<string, unknown>>;

/** Collects fields in order, dropping those the emulated level does not have. */
export class Fields {
  private readonly out: Record<string, unknown> = {};

  constructor(private readonly world: World) {}

  /** Always present. */
  set(key: string, value: unknown): this {
    this.out[key] = value;
    return this;
  }

  /** Present from `feature.level` on. */
  since(feature: Feature, key: string, value: unknown): this {
    if (this.world.has(feature)) this.out[key] = value;
    return this;
  }

  /** Present below `feature.level` only (the name it had before a rename). */
  before(feature: Feature, key: string, value: unknown): this {
    if (!this.world.has(feature)) this.out[key] = value;
    return this;
  }

  /** Present from `since.level` up to, not including, `until.level`. */
  between(since: Feature, until: Feature, key: string, value: unknown): this {
    if (this.world.has(since) && !this.world.has(until)) this.out[key] = value;
    return this;
  }

  /** `newKey` from the level on, `oldKey` before it. */
  renamed(feature: Feature, oldKey: string, newKey: string, value: unknown): this {
    this.out[this.world.has(feature) ? newKey : oldKey] = value;
    return this;
  }

  build(): Record<string, unknown> {
    return this.out;
  }
}
