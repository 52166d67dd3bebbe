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

/** The event types that update each part of register (zerver/lib/events.py `apply_event`). */
const UPDATED_BY: ReadonlyMap<string, readonly string[]> = new Map([
  ['unread_msgs', ['message', 'update_message_flags', 'update_message', 'delete_message']],
  ['max_message_id', ['message', 'delete_message']],
  ['starred_messages', ['update_message_flags', 'delete_message']],
  ['recent_private_conversations', ['message', 'delete_message']],
  ['subscriptions', ['subscription', 'stream', 'message']],
  ['unsubscribed', ['subscription', 'stream']],
  ['never_subscribed', ['subscription', 'stream']],
  ['streams', ['stream', 'message']],
  ['realm_user_groups', ['user_group']],
  ['realm_users', ['realm_user']],
  ['realm_non_active_users', ['realm_user']],
  ['user_status', ['user_status']],
  ['user_settings', ['user_settings']],
  ['alert_words', ['alert_words']],
  ['muted_users', ['muted_users']],
  ['drafts', ['drafts']],
  ['saved_snippets', ['saved_snippets']],
  ['user_topics', ['user_topic']],
]);

/** Every number an event carries as a value (IDs; not digits inside strings). */
function numbersIn(value: unknown, out = new Set<number>()): Set<number> {
  if (typeof value === 'number') out.add(value);
  else if (Array.isArray(value)) for (const item of value) numbersIn(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) numbersIn(item, out);
  return out;
}

/** The ops that change each list of user or group IDs (other events about the entry do not concern it). */
const LIST_OPS: ReadonlyMap<string, readonly string[]> = new Map([
  ['members', ['add', 'add_members', 'remove_members']],
  ['direct_subgroup_ids', ['add', 'add_subgroups', 'remove_subgroups']],
  ['subscribers', ['add', 'remove', 'create', 'peer_add', 'peer_remove']],
]);

/** Parts whose ID lists hold message IDs: only an event naming the message concerns it. */
const MESSAGE_LISTS = new Set(['unread_msgs', 'starred_messages']);

/**
 * Events that concern the differing entry though none changed it (an event with a wrong or
 * missing field): of a type that updates its part, naming the ID in question (and, for a list
 * of users or groups, at least the entry's own ID).
 */
function eventsAbout(outcome: ObserverOutcome, divergence: Divergence): number[] {
  const types = UPDATED_BY.get(divergence.key) ?? [];
  const element = divergence.steps.find((step) => 'element' in step);
  const entry = divergence.steps.find((step) => 'entry' in step);
  const elementId = element && 'element' in element ? String(element.element) : undefined;
  const entryId = entry && 'entry' in entry ? /\d+/.exec(entry.entry)?.[0] : undefined;
  const naming = (ids: ReadonlyArray<string | undefined>) => (event: QueueEvent) => {
    const numbers = numbersIn(event);
    return ids.every((id) => id === undefined || numbers.has(Number(id)));
  };
  const candidates = outcome.events.flatMap((event, index) => (types.includes(event.type) ? [[event, index] as const] : []));
  const both = candidates.filter(([event]) => naming([entryId, elementId])(event));
  // An event about the entry may lack the very ID (a member left out): for lists of users or
  // groups, the entry's events of the ops that change that list count too.
  const field = [...divergence.steps].reverse().find((step) => 'key' in step);
  const ops = field && 'key' in field ? LIST_OPS.get(field.key) : undefined;
  const entryOnly =
    elementId !== undefined && !MESSAGE_LISTS.has(divergence.key)
      ? candidates.filter(([event]) => naming([entryId])(event) && (ops === undefined || ops.includes(String(event.op))))
      : [];
  return [...new Set([...both, ...entryOnly].map(([, index]) => index))].sort((a, b) => a - b);
}

/** Indices of the events after which the value at the divergence's path changed. */
function eventsChanging(outcome: ObserverOutcome, divergence: Divergence): number[] {
  const values = probeAfterEach(outcome.initial, outcome.events, outcome.view, (state) => valueAt(partsOf(state, divergence.key, outcome.scope)[divergence.part], divergence.steps));
  const changed: number[] = [];
  for (let i = 1; i < values.length; i++) if (differences(values[i - 1], values[i]).length > 0) changed.push(i - 1);
  return changed;
}

const shown = (value: unknown): string => (value === undefined ? '(absent)' : preview(plain(value), 300));

/** An ID's count in a list (an `element` step) as words. */
const presence = (count: unknown): string => (count === 0 ? 'absent' : count === 1 ? 'present' : `present ${String(count)} times`);

function divergenceText(outcome: ObserverOutcome, divergence: Divergence): string {
  const element = divergence.steps.some((step) => 'element' in step);
  const changing = eventsChanging(outcome, divergence);
  const last = changing.length === 0 ? -1 : (changing[changing.length - 1] as number);
  // Events after the last change that concern the entry: one of them should have changed it.
  const about = eventsAbout(outcome, divergence)
    .filter((index) => index > last)
    .slice(-3);
  const labels = (indices: readonly number[]) => indices.map((index) => eventLabel(outcome.events, index)).join(', ');
  const parts = [
    changing.length > 0 ? `changed by ${labels(changing)}` : about.length > 0 ? 'no event changed it' : 'no event changed it (an event is missing, or register answers what no event said)',
    ...(about.length > 0 ? [`though ${labels(about)} concerned it after that (a wrong or missing field)`] : []),
  ];
  const shownEvent = about.length > 0 ? about[about.length - 1] : changing.length > 0 ? last : undefined;
  const events = `${parts.join('; ')}${shownEvent === undefined ? '' : `; ${about.length > 0 ? 'that' : 'last'} event: ${preview(outcome.events[shownEvent], 400)}`}`;
  return [
    `  ${renderPath(divergence.key, divergence.steps)}${divergence.part === 'own' ? '' : divergence.part === 'foreign' ? ' (outside the run\'s objects)' : ' (a total)'}`,
    `    expected (fresh register): ${element ? presence(divergence.expected) : shown(divergence.expected)}`,
    `    received (register + events): ${element ? presence(divergence.received) : shown(divergence.received)}`,
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
