/**
 * Live progress for people, on stderr (never in a machine-readable report): rules done, elapsed
 * time, estimated time left, failures so far, and rate-limit waits as they happen. On a terminal:
 * one line rewritten in place every second. Without one (CI logs): a line per endpoint once its
 * last rule has ended, a line per rate-limit wait, and a "still running" line after a quiet spell.
 */
import type { RateLimitWait } from '../context.js';
import type { RunListener } from '../runner.js';

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ProgressOptions {
  /** The clock (ms); tests pass their own. */
  readonly now?: () => number;
  /** Without a terminal: a "still running" line after this long without one (default 30 s). */
  readonly quietMs?: number;
}

/** A progress listener; `stop` ends its timer (the run is over, or failed before its end). */
export type ProgressListener = RunListener & { stop(): void };

/** `m:ss`, or `h:mm:ss` from an hour. */
export function clock(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** What every progress line says: position, elapsed, estimate, failures. */
class RunClock {
  done = 0;
  total = 0;
  failed = 0;
  private started = 0;

  constructor(private readonly now: () => number) {}

  start(total: number): void {
    this.total = total;
    this.started = this.now();
  }

  /** `0:41 elapsed, ~1:02 left, 2 failed so far` (no estimate before the first rule ends). */
  summary(): string {
    const elapsed = this.now() - this.started;
    const left = this.done === 0 ? 'time left unknown' : `~${clock((elapsed / this.done) * (this.total - this.done))} left`;
    return `${clock(elapsed)} elapsed, ${left}, ${this.failed} failed so far`;
  }
}

const seconds = (ms: number): string => `${(Math.round(ms / 100) / 10).toFixed(1)} s`;

/** Who waits: the rule, one rule's cleanup, or the run itself (its setup and run-wide cleanups). */
function waiter(wait: RateLimitWait, current: string): string {
  if (wait.during === 'cleanup') return `cleanup of ${wait.ruleId ?? 'a rule'}`;
  return wait.during === 'run' ? 'the run itself' : (wait.ruleId ?? current);
}

const path = (url: string): string => URL.canParse(url) ? new URL(url).pathname : url;

function terminalProgress(stream: ProgressStream, runClock: RunClock): ProgressListener {
  const width = Math.max(20, (stream.columns ?? 80) - 1);
  let current = '';
  let waiting = '';
  const show = (text: string) => stream.write(`\r\u001b[2K${text.slice(0, width)}`);
  const line = () => `[${runClock.done}/${runClock.total}] ${runClock.summary()}${waiting ? ` · ${waiting}` : current ? ` · ${current}` : ''}`;
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  return {
    onStart: (info) => {
      runClock.start(info.total);
      show(`chat-conformance: ${info.total} rules against ${info.target.baseUrl} (seed ${info.seed})`);
      timer = setInterval(() => show(line()), 1000);
      timer.unref();
    },
    onRuleStart: (rule) => {
      current = rule.id;
      waiting = '';
      show(line());
    },
    onRateLimitWait: (wait) => {
      const who = wait.during === 'rule' ? '' : `, ${waiter(wait, current)}`;
      waiting = `rate limited: waiting ${seconds(wait.waitMs)} (${path(wait.url)}${who})`;
      show(line());
    },
    onRuleEnd: (result, position, total) => {
      runClock.done = position;
      if (result.outcome === 'failed') runClock.failed++;
      waiting = '';
      if (position === total) {
        stop();
        show('');
      }
    },
    stop,
  };
}

interface EndpointTally {
  remaining: number;
  passed: number;
  failed: number;
  skipped: number;
}

function lineProgress(stream: ProgressStream, runClock: RunClock, now: () => number, quietMs: number): ProgressListener {
  const tallies = new Map<string, EndpointTally>();
  let endpointsDone = 0;
  let current = '';
  let lastLine = now();
  const write = (text: string) => {
    lastLine = now();
    stream.write(`${text}\n`);
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  return {
    onStart: (info) => {
      runClock.start(info.total);
      for (const rule of info.rules) {
        const tally = tallies.get(rule.endpoint) ?? { remaining: 0, passed: 0, failed: 0, skipped: 0 };
        tally.remaining++;
        tallies.set(rule.endpoint, tally);
      }
      write(`chat-conformance: ${info.total} rules over ${tallies.size} endpoints against ${info.target.baseUrl} (seed ${info.seed})`);
      timer = setInterval(() => {
        if (now() - lastLine >= quietMs) write(`[${runClock.done}/${runClock.total}] still running ${current}: ${runClock.summary()}`);
      }, Math.min(quietMs, 5000));
      timer.unref();
    },
    onRuleStart: (rule) => {
      current = rule.id;
    },
    onRateLimitWait: (wait) => write(`[${runClock.done}/${runClock.total}] ${waiter(wait, current)}: rate limited on ${path(wait.url)}, waiting ${seconds(wait.waitMs)}`),
    onRuleEnd: (result, position, total) => {
      runClock.done = position;
      if (result.outcome === 'failed') runClock.failed++;
      if (position === total) stop();
      const tally = tallies.get(result.endpoint);
      if (!tally) return;
      tally[result.outcome]++;
      tally.remaining--;
      if (tally.remaining > 0) return;
      endpointsDone++;
      const endpoint = result.endpoint === '*' ? 'all endpoints' : result.endpoint;
      write(`[${position}/${total}] ${endpoint}: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped (${endpointsDone}/${tallies.size} endpoints; ${runClock.summary()})`);
    },
    stop,
  };
}

export function progressListener(stream: ProgressStream, options: ProgressOptions = {}): ProgressListener {
  const now = options.now ?? Date.now;
  const runClock = new RunClock(now);
  return stream.isTTY ? terminalProgress(stream, runClock) : lineProgress(stream, runClock, now, options.quietMs ?? 30_000);
}

/** One listener calling each of `listeners` in turn. */
export function combineListeners(...listeners: readonly RunListener[]): RunListener {
  return {
    onStart: (info) => listeners.forEach((listener) => listener.onStart?.(info)),
    onRuleStart: (rule, position, total) => listeners.forEach((listener) => listener.onRuleStart?.(rule, position, total)),
    onRuleEnd: (result, position, total) => listeners.forEach((listener) => listener.onRuleEnd?.(result, position, total)),
    onRateLimitWait: (wait) => listeners.forEach((listener) => listener.onRateLimitWait?.(wait)),
  };
}
