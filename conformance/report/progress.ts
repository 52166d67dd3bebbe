/** Live progress for the human report: one self-overwriting line on a terminal, nothing otherwise. */
import type { RunListener } from '../runner.js';

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export function progressListener(stream: ProgressStream): RunListener {
  if (!stream.isTTY) return {};
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
