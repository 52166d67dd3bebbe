/**
 * A production server answers before all of a request's effects are visible: presence is written
 * by a queue worker, and events travel Django -> RabbitMQ -> Tornado. With a delivery delay, this
 * server behaves alike: such work runs a random 0..maxDelayMs after the answer, in the order it was
 * given, so clients and conformance rules written against it do not depend on instant effects.
 */
export class DeliveryPipeline {
  private readonly pending: Array<{ readonly due: number; readonly work: () => void }> = [];
  private timer: NodeJS.Timeout | undefined;
  private lastDue = 0;

  constructor(
    readonly maxDelayMs: number,
    private readonly random: () => number = Math.random,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Runs `work` later, never before anything given earlier. */
  run(work: () => void): void {
    const due = Math.max(this.lastDue, Date.now() + this.random() * this.maxDelayMs);
    this.lastDue = due;
    this.pending.push({ due, work });
    this.arm();
  }

  /** Drops what has not run yet (the server is closing). */
  cancel(): void {
    this.pending.length = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    const next = this.pending[0];
    if (this.timer || !next) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, Math.max(0, next.due - Date.now()));
    this.timer.unref();
  }

  private flush(): void {
    const now = Date.now();
    while (this.pending.length > 0 && (this.pending[0] as { due: number }).due <= now) {
      const { work } = this.pending.shift() as { work: () => void };
      try {
        work();
      } catch (error) {
        this.onError(error);
      }
    }
    this.arm();
  }
}
