/**
 * fast-check inside rules: each property runs with a seed derived from the run seed, the rule id
 * and its position, so `--seed` reproduces a run and `--replay SEED:PATH` re-runs exactly one
 * shrunk counterexample. After a failure the counterexample is run once more to capture its HTTP
 * exchanges for the report (and to tell a reproducible failure from a flaky one).
 */
import fc from 'fast-check';
import type { Exchange, Transcript } from './client/exchange.js';
import { RuleFailure } from './errors.js';
import type { PropertyFailureInfo } from './results.js';
import type { PropertyOptions, PropertySettings } from './rules/types.js';
import { formatReplay, propertySeed } from './seeds.js';

/** A property of the rule failed; carries the counterexample and its exchanges. */
export class PropertyFailure extends RuleFailure {
  constructor(
    message: string,
    readonly property: PropertyFailureInfo,
    readonly exchanges: readonly Exchange[],
    override readonly cause: unknown,
    /** What the rule sent before this property started (outside earlier properties): the case's setup. */
    readonly setup: readonly Exchange[] = [],
  ) {
    super(message);
  }
}

function errorMessage(error: unknown): string {
  if (error === null || error === undefined) return 'the property returned false';
  return error instanceof Error ? error.message : String(error);
}

/** `label: value` for each generated value (labels from the options, else from a `a x b` name). */
export function labelValues(name: string, values: readonly unknown[], labels?: readonly string[]): string[] {
  const fromName = name.split(' x ').map((part) => part.trim());
  const names = labels ?? (fromName.length === values.length ? fromName : values.length === 1 ? [name] : []);
  return values.map((value, i) => `${names[i] ?? `value ${i + 1}`}: ${fc.stringify(value)}`);
}

/** Runs the properties of one rule, numbering them in call order. */
export class PropertyRunner {
  private count = 0;
  /** Exchanges the rule sent outside its properties so far (its setup), and where the last property ended. */
  private readonly setup: Exchange[] = [];
  private lastEnd = 1;

  constructor(
    private readonly ruleId: string,
    private readonly settings: PropertySettings,
    private readonly transcript: Transcript,
    private readonly note: (message: string) => void,
  ) {}

  async run<Ts>(name: string, property: fc.IAsyncProperty<Ts>, options: PropertyOptions = {}): Promise<void> {
    const index = ++this.count;
    const replay = this.settings.replay;
    if (replay && replay.propertyIndex !== index) {
      this.note(`property ${index} "${name}" not run: replaying property ${replay.propertyIndex}`);
      return;
    }
    this.setup.push(...this.transcript.since(this.lastEnd));
    try {
      await this.check(name, index, property, options);
    } finally {
      this.lastEnd = this.transcript.mark();
    }
  }

  /** The exchanges the rule sent outside its properties so far, oldest first (its setup and after). */
  outsideProperties(): Exchange[] {
    return [...this.setup, ...this.transcript.since(this.lastEnd)];
  }

  private async check<Ts>(name: string, index: number, property: fc.IAsyncProperty<Ts>, options: PropertyOptions): Promise<void> {
    const replay = this.settings.replay;
    const seed = replay ? replay.seed : propertySeed(this.settings.seed, this.ruleId, index);
    const numRuns = Math.max(1, Math.min(this.settings.numRuns, options.maxRuns ?? Number.POSITIVE_INFINITY));
    const details = await fc.check(property, replay ? { seed, path: replay.path, endOnFailure: true, numRuns } : { seed, numRuns });
    if (!details.failed) return;
    const path = details.counterexamplePath ?? replay?.path ?? '';
    // Run the shrunk counterexample alone, recording only its exchanges.
    const mark = this.transcript.mark();
    const again = await fc.check(property, { seed, path, endOnFailure: true, numRuns });
    const exchanges = this.transcript.since(mark);
    // Model-based sequences (fc.commands) cannot always be replayed from a path alone; then the
    // first run's error is the one to report, and the failure counts as not reproduced.
    const replayable = !(again.failed && /Unable to replay/.test(errorMessage(again.errorInstance)));
    const reproduced = again.failed && replayable;
    const cause = reproduced ? again.errorInstance : details.errorInstance;
    const info: PropertyFailureInfo = {
      name,
      index,
      seed,
      path,
      counterexample: fc.stringify(details.counterexample),
      labelledValues: labelValues(name, Array.isArray(details.counterexample) ? details.counterexample : [details.counterexample], options.labels),
      numRuns: details.numRuns,
      numShrinks: details.numShrinks,
      replay: formatReplay({ seed, propertyIndex: index, path }),
      reproduced,
    };
    const summary = `property "${name}" failed after ${details.numRuns} run${details.numRuns === 1 ? '' : 's'} (${details.numShrinks} shrinks)`;
    throw new PropertyFailure(`${summary}: ${errorMessage(cause)}`, info, exchanges, cause, [...this.setup]);
  }
}
