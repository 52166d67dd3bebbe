/**
 * The comparable form of a state: JSON values, with lists a client keeps by identity turned into
 * `Keyed` maps (entries labelled `channel 12`, `user 8`), so a difference is named by what it is
 * about rather than by a position, and user-chosen names (topics) never become object keys.
 */
export class Keyed {
  constructor(readonly entries: ReadonlyMap<string, unknown>) {}

  static of<T>(items: Iterable<T>, label: (item: T) => string, value: (item: T) => unknown = (item) => item): Keyed {
    const entries = new Map<string, unknown>();
    for (const item of items) {
      const key = label(item);
      // A label seen twice keeps both (a duplicated entry is a difference of its own).
      entries.set(entries.has(key) ? `${key} (again)` : key, value(item));
    }
    return new Keyed(entries);
  }
}

/**
 * One step into a comparable value. `element` looks at a list of IDs as a set: its value is how
 * many times the list holds that ID.
 */
export type Step = { readonly key: string } | { readonly index: number } | { readonly entry: string } | { readonly element: number };

export function renderPath(root: string, steps: readonly Step[]): string {
  let out = root;
  for (const step of steps) {
    if ('key' in step) out += `.${step.key}`;
    else if ('index' in step) out += `[${step.index}]`;
    else if ('element' in step) out += ` (ID ${step.element})`;
    else out += `[${step.entry}]`;
  }
  return out;
}

/** The part of `value` at `steps` (undefined where it does not exist). */
export function valueAt(value: unknown, steps: readonly Step[]): unknown {
  let current = value;
  for (const step of steps) {
    // An ID is absent (0 times) from a list that does not exist.
    if ('element' in step) current = Array.isArray(current) ? current.filter((x) => x === step.element).length : 0;
    else if (current instanceof Keyed && 'entry' in step) current = current.entries.get(step.entry);
    else if (Array.isArray(current) && 'index' in step) current = current[step.index];
    else if (current !== null && typeof current === 'object' && !(current instanceof Keyed) && 'key' in step && Object.prototype.hasOwnProperty.call(current, step.key)) {
      current = (current as Record<string, unknown>)[step.key];
    } else current = undefined;
  }
  return current;
}

export interface Difference {
  readonly steps: readonly Step[];
  /** From the fresh register (undefined: absent there). */
  readonly expected: unknown;
  /** From the replayed state (undefined: absent there). */
  readonly received: unknown;
}

const isIdList = (value: unknown): value is number[] => Array.isArray(value) && value.every((x) => typeof x === 'number');

const isPlain = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Keyed);

/** Every place where `expected` and `received` differ (the innermost ones), in a stable order. */
export function differences(expected: unknown, received: unknown, steps: readonly Step[] = []): Difference[] {
  if (expected instanceof Keyed && received instanceof Keyed) {
    const keys = [...new Set([...expected.entries.keys(), ...received.entries.keys()])];
    return keys.flatMap((entry) => differences(expected.entries.get(entry), received.entries.get(entry), [...steps, { entry }]));
  }
  if (isIdList(expected) && isIdList(received) && (expected.length > 0 || received.length > 0)) {
    // A list of IDs is a set: name each ID one side has (more often) than the other.
    const count = (list: readonly number[], id: number) => list.filter((x) => x === id).length;
    const ids = [...new Set([...expected, ...received])].sort((a, b) => a - b);
    return ids.filter((id) => count(expected, id) !== count(received, id)).map((id) => ({ steps: [...steps, { element: id }], expected: count(expected, id), received: count(received, id) }));
  }
  if (Array.isArray(expected) && Array.isArray(received)) {
    if (expected.length !== received.length) return [{ steps, expected, received }];
    return expected.flatMap((item, index) => differences(item, received[index], [...steps, { index }]));
  }
  if (isPlain(expected) && isPlain(received)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(received)])];
    return keys.flatMap((key) =>
      differences(
        Object.prototype.hasOwnProperty.call(expected, key) ? expected[key] : undefined,
        Object.prototype.hasOwnProperty.call(received, key) ? received[key] : undefined,
        [...steps, { key }],
      ),
    );
  }
  if (expected === received) return [];
  if (typeof expected === 'number' && typeof received === 'number' && Number.isNaN(expected) && Number.isNaN(received)) return [];
  return [{ steps, expected, received }];
}

/** A comparable value as plain JSON, for messages (`Keyed` as a list of `[label, value]` pairs). */
export function plain(value: unknown): unknown {
  if (value instanceof Keyed) return [...value.entries].map(([key, item]) => [key, plain(item)]);
  if (Array.isArray(value)) return value.map(plain);
  if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}
