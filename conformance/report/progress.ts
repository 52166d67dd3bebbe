/**
 * Live progress for the human report, on stderr. On a terminal: one self-overwriting line. Without
 * one (CI logs): a line per endpoint once its last rule has ended, so a long run still shows life.
 */
import type { RunListener } from '../runner.js';

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

function terminalProgress(stream: ProgressStream): RunListener {
  let failed = 0;
  const width = Math.max(20, (stream.columns ?? 80) - 1);
  const show = (text: string) => stream.write(`\r\u001b[2K${text.slice(0, width)}`);
  return {
    onStart: (info) => show(`chat-conformance: ${info.total} rules against ${info.target.baseUrl} (seed ${info.seed})`),
    onRuleStart: (rule, position, total) => show(`[${position}/${total}]${failed > 0 ? ` ${failed} failed,` : ''} ${rule.id}`),
    onRuleEnd: (result, position, total) => {
      if (result.outcome === 'failed') failed++;
      if (position === total) show('');
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
  };
}
