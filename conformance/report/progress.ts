/**
 * Live progress for the human report, on stderr. On a terminal: one self-overwriting line. Without
 * one (CI logs): a line per endpoint once its last rule has ended, so a long run still shows life.
 */
import type { RateLimitWait } from '../context.js';
import type { RunListener } from '../runner.js';

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Waits shorter than this pass without a word. */
const SHOWN_WAIT_MS = 5_000;

/** `waiting 58 s for the target's rate limit (cleanup of users/x)`. */
function waitText(wait: RateLimitWait): string {
  const whose = wait.during === 'run' ? 'the run itself' : wait.during === 'cleanup' ? `cleanup of ${wait.ruleId ?? ''}` : (wait.ruleId ?? '');
  return `waiting ${Math.round(wait.waitMs / 1000)} s for the target's rate limit (${whose})`;
}

function terminalProgress(stream: ProgressStream): RunListener {
  let failed = 0;
  let current = '';
  const width = Math.max(20, (stream.columns ?? 80) - 1);
  const show = (text: string) => stream.write(`\r\u001b[2K${text.slice(0, width)}`);
  return {
    onStart: (info) => show(`chat-conformance: ${info.total} rules against ${info.target.baseUrl} (seed ${info.seed})`),
    onRuleStart: (rule, position, total) => show((current = `[${position}/${total}]${failed > 0 ? ` ${failed} failed,` : ''} ${rule.id}`)),
    onRuleEnd: (result, position, total) => {
      if (result.outcome === 'failed') failed++;
      if (position === total) show((current = ''));
    },
    onRateLimitWait: (wait) => {
      if (wait.waitMs >= SHOWN_WAIT_MS) show(`${current === '' ? '' : `${current}: `}${waitText(wait)}`);
    },
  };
}

interface EndpointTally {
  remaining: number;
  passed: number;
  failed: number;
  skipped: number;
}

function lineProgress(stream: ProgressStream): RunListener {
  const tallies = new Map<string, EndpointTally>();
  let done = 0;
  return {
    onStart: (info) => {
      for (const rule of info.rules) {
        const tally = tallies.get(rule.endpoint) ?? { remaining: 0, passed: 0, failed: 0, skipped: 0 };
        tally.remaining++;
        tallies.set(rule.endpoint, tally);
      }
      stream.write(`chat-conformance: ${info.total} rules over ${tallies.size} endpoints against ${info.target.baseUrl} (seed ${info.seed})\n`);
    },
    onRuleEnd: (result, position, total) => {
      const tally = tallies.get(result.endpoint);
      if (!tally) return;
      tally[result.outcome]++;
      tally.remaining--;
      if (tally.remaining > 0) return;
      done++;
      const endpoint = result.endpoint === '*' ? 'all endpoints' : result.endpoint;
      stream.write(`[${position}/${total}] ${endpoint}: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped (${done}/${tallies.size} endpoints)\n`);
    },
    onRateLimitWait: (wait) => {
      if (wait.waitMs >= SHOWN_WAIT_MS) stream.write(`${waitText(wait)}\n`);
    },
  };
}

export function progressListener(stream: ProgressStream): RunListener {
  return stream.isTTY ? terminalProgress(stream) : lineProgress(stream);
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
