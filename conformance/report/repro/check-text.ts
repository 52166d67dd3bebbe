/** A recorded check in words, for script headers and reports. */
import type { RecordedCheck } from '../../expect/recorded-check.js';
import { preview } from '../../expect/shape.js';

/** `equal at .ignored_parameters_unsupported: expected ["a"], received nothing (absent), in the answer to request 3/3`. */
export function describeCheck(check: RecordedCheck | undefined, index: number, total: number): string {
  if (!check) return 'no recorded check (a timeout or an error in the rule): cannot be re-run';
  const value = (v: unknown) => (v === undefined ? 'nothing (absent)' : preview(v, 300));
  const where = check.path === undefined ? '' : ` at ${check.path === '' ? 'the body' : check.path}`;
  const answer = index >= 0 ? `, in the answer to request ${index + 1}/${total}` : '';
  if (check.kind === 'condition') return `a condition the rule computed${answer}: cannot be re-run from the answer`;
  const located = check.path !== undefined || ['status', 'success', 'error'].includes(check.kind) ? '' : ' (the value was not found in an answer: cannot be re-run)';
  return `${check.kind}${where}: expected ${value(check.expected)}, received ${value(check.received)}${answer}${located}`;
}
