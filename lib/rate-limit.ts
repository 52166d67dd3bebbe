/** A sliding-window limiter on the world's clock (the real server's `authenticate_by_username`). */
import type { Clock } from './clock.js';

export interface RateLimitRule {
  readonly attempts: number;
  readonly windowMs: number;
}

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    readonly rule: RateLimitRule,
  ) {}

  /**
   * Counts an attempt for `key`. Returns undefined when allowed, or the seconds to wait when the
   * key has used up its window (the attempt is then not counted).
   */
  attempt(key: string): number | undefined {
    const now = this.clock.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.rule.windowMs);
    if (recent.length >= this.rule.attempts) {
      this.hits.set(key, recent);
      const oldest = recent[0] as number;
      return Math.max(0.001, (oldest + this.rule.windowMs - now) / 1000);
    }
    recent.push(now);
    this.hits.set(key, recent);
    return undefined;
  }

  clear(key: string): void {
    this.hits.delete(key);
  }
}
