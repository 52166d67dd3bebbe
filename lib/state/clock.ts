/** Time as the world sees it. Tests inject a manual clock and move it forward by hand. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  private current: number;
  private readonly listeners = new Set<() => void>();

  constructor(start: number = Date.UTC(2025, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  /** Moves time forward and lets listeners (the scheduler) run what became due. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('a clock only moves forward');
    this.current += ms;
    for (const listener of this.listeners) listener();
  }

  set(ms: number): void {
    this.advance(ms - this.current);
  }

  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export const seconds = (ms: number): number => Math.floor(ms / 1000);
