/**
 * The divergence report: for each observer whose replayed state differs from its fresh register,
 * each difference with its field path, the expected (fresh register) and received (register plus
 * events) values, and the events that changed that field during the replay (type, op and index in
 * the queue) or that none did; each event the state contradicted; then the actions performed.
 */
import type { IdentityName } from '../credentials/types.js';
import { preview } from '../expect/shape.js';
import type { Comparison, Divergence } from './compare.js';
import { partsOf } from './compare.js';
import { differences, plain, renderPath, valueAt } from './norm.js';
import type { Scope } from './normalize.js';
import { type EventProblem, probeAfterEach } from './replay.js';
import type { ClientView, QueueEvent, State } from './types.js';

export interface ObserverOutcome {
  readonly who: IdentityName;
  readonly userId: number;
  readonly view: ClientView;
  readonly initial: State;
  readonly events: readonly QueueEvent[];
  readonly scope: Scope;
  readonly comparison: Comparison;
  readonly problems: readonly EventProblem[];
}

/** Differences shown per observer (the rest are counted). */
const SHOWN = 4;

/** `#3 update_message (id 17)`: the event by its index in the queue, type and op. */
export function eventLabel(events: readonly QueueEvent[], index: number): string {
  const event = events[index];
  if (!event) return `#${index} (no such event)`;
  const op = typeof event.op === 'string' ? `/${event.op}` : typeof event.operation === 'string' ? `/${event.operation}` : '';
  const property = typeof event.property === 'string' ? ` ${event.property}` : typeof event.flag === 'string' ? ` ${event.flag}` : '';
  return `#${index} ${event.type}${op}${property} (event id ${event.id})`;
}

/** Indices of the events after which the value at the divergence's path changed. */
function eventsChanging(outcome: ObserverOutcome, divergence: Divergence): number[] {
  const values = probeAfterEach(outcome.initial, outcome.events, outcome.view, (state) => valueAt(partsOf(state, divergence.key, outcome.scope)[divergence.part], divergence.steps));
  const changed: number[] = [];
  for (let i = 1; i < values.length; i++) if (differences(values[i - 1], values[i]).length > 0) changed.push(i - 1);
  return changed;
}

const shown = (value: unknown): string => (value === undefined ? '(absent)' : preview(plain(value), 300));

function divergenceText(outcome: ObserverOutcome, divergence: Divergence): string {
  const changing = eventsChanging(outcome, divergence);
  const events =
    changing.length === 0
      ? 'no event changed it (an event is missing, or register answers what no event said)'
      : `changed by ${changing.map((index) => eventLabel(outcome.events, index)).join(', ')}; last: ${preview(outcome.events[changing[changing.length - 1] as number], 400)}`;
  return [
    `  ${renderPath(divergence.key, divergence.steps)}${divergence.part === 'own' ? '' : divergence.part === 'foreign' ? ' (outside the run\'s objects)' : ' (a total)'}`,
    `    expected (fresh register): ${shown(divergence.expected)}`,
    `    received (register + events): ${shown(divergence.received)}`,
    `    ${events}`,
  ].join('\n');
}

function problemText(outcome: ObserverOutcome, problem: EventProblem): string {
  return [
    `  event ${eventLabel(outcome.events, problem.eventIndex)}: ${problem.why}`,
    `    at ${problem.path}: the state has ${shown(problem.expected)}, the event says ${shown(problem.received)}`,
  ].join('\n');
}

export function renderReport(outcomes: readonly ObserverOutcome[], actions: readonly string[]): string {
  const parts: string[] = [];
  for (const outcome of outcomes) {
    const { divergences } = outcome.comparison;
    if (divergences.length === 0 && outcome.problems.length === 0) continue;
    parts.push(`${outcome.who} (user ${outcome.userId}): state from register + ${outcome.events.length} events differs from a fresh register`);
    for (const problem of outcome.problems.slice(0, SHOWN)) parts.push(problemText(outcome, problem));
    for (const divergence of divergences.slice(0, SHOWN)) parts.push(divergenceText(outcome, divergence));
    const more = divergences.length + outcome.problems.length - Math.min(divergences.length, SHOWN) - Math.min(outcome.problems.length, SHOWN);
    if (more > 0) parts.push(`  ... and ${more} more`);
  }
  parts.push('actions:', ...actions.map((line, index) => `  ${index + 1}. ${line}`));
  return `event convergence: ${parts.join('\n')}`;
}
