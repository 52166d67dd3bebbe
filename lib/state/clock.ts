/** Time as the world sees it. Tests inject a manual clock and move it forward by hand. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that can be moved forward, telling its listeners (the scheduler, the queue sweep) each time. */
export abstract class AdvancingClock implements Clock {
  private readonly listeners = new Set<() => void>();

  abstract now(): number;

  /** Adds `ms` to the time this clock reports. */
  protected abstract move(ms: number): void;

  /** Moves time forward and lets listeners (the scheduler) run what became due. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('a clock only moves forward');
    this.move(ms);
    for (const listener of this.listeners) listener();
  }

  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Stands still until advanced: tests decide exactly when time passes. */
export class ManualClock extends AdvancingClock {
  private current: number;

  constructor(start: number = Date.UTC(2025, 0, 1)) {
    super();
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  protected move(ms: number): void {
    this.current += ms;
  }

  set(ms: number): void {
    this.advance(ms - this.current);
  }
}

/**
 * Real time plus what it was advanced by: reads as the system clock until someone moves it
 * forward (a development server's `POST /__dev/clock/advance`), and keeps running from there.
 */
export class ShiftedClock extends AdvancingClock {
  private shift = 0;

  now(): number {
    return Date.now() + this.shift;
  }

  /** How far ahead of real time this clock is, in milliseconds. */
  get advancedMs(): number {
    return this.shift;
  }

  protected move(ms: number): void {
    this.shift += ms;
  }
}

export const seconds = (ms: number): number => Math.floor(ms / 1000);
