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

  /** What the `X-RateLimit-*` headers report for `key`: attempts left and when the window frees one. */
  status(key: string): { readonly remaining: number; readonly resetAtSeconds: number } {
    const now = this.clock.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.rule.windowMs);
    const oldest = recent[0] ?? now;
    return { remaining: Math.max(0, this.rule.attempts - recent.length), resetAtSeconds: Math.ceil((oldest + this.rule.windowMs) / 1000) };
  }

  clear(key: string): void {
    this.hits.delete(key);
  }
}
