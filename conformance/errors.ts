/**
 * The suite's own error classes. A rule fails by throwing `RuleFailure` (the assertion helpers do
 * that), skips itself by throwing `RuleSkip`; `UsageError` and `TargetError` end a whole run with
 * exit status 2 (bad invocation, unreachable or unusable target).
 */
import type { Exchange } from './client/exchange.js';
import type { RecordedCheck } from './expect/recorded-check.js';

/**
 * An assertion about the target did not hold. `exchange` is the reply the assertion looked at;
 * `check` what it checked, machine-readable (reproduction scripts re-run it).
 */
export class RuleFailure extends Error {
  override readonly name = 'RuleFailure';
  constructor(
    message: string,
    readonly exchange?: Exchange,
    readonly check?: RecordedCheck,
    /** The compared value and its label, when no answer was given to find it in (located later). */
    readonly checkedValue?: { readonly value: unknown; readonly label: string },
  ) {
    super(message);
  }
}

/** Thrown by `ctx.skip(reason)`: the rule cannot run on this target (recorded as skipped). */
export class RuleSkip extends Error {
  override readonly name = 'RuleSkip';

  /** `missing`: the identity or capability the run lacked (counted in the report's coverage). */
  constructor(
    message: string,
    readonly missing?: string,
  ) {
    super(message);
  }
}

/** The invocation is wrong (bad flag value, unknown rule glob for --replay ...). Exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The target cannot be used: unreachable, not a chat server, credentials refused. Exit status 2. */
export class TargetError extends Error {
  override readonly name = 'TargetError';
}

/** A short, single-line description of anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
