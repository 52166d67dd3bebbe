/**
 * A small validator library for response shapes (the project writes its own; no schema library).
 * Validators collect every problem with its path (`body.user.role: expected one of 100, 200, ...,
 * got 500`) so one failure message shows all that is wrong. `v.object` checks own keys only, so
 * keys such as `__proto__` are ordinary data.
 */

export interface Validator<T> {
  /** Human description of the expected value, used in messages ("integer", "one of 1, 2"). */
  readonly description: string;
  /** Appends the problems found at `path`; true when `value` conforms. */
  check(value: unknown, path: string, problems: string[]): boolean;
  /** Phantom field carrying the validated type. */
  readonly __type?: T;
}

/** Marks an object key as optional (`v.optional(v.string())`). */
export interface Optional<T> {
  readonly optional: Validator<T>;
}

export type Infer<V> = V extends Validator<infer T> ? T : V extends Optional<infer U> ? U : never;
type Field = Validator<unknown> | Optional<unknown>;
type Shape = Readonly<Record<string, Field>>;
type Flatten<T> = { [K in keyof T]: T[K] };
export type InferObject<S extends Shape> = Flatten<
  { [K in keyof S as S[K] extends Optional<unknown> ? never : K]: Infer<S[K]> } & {
    [K in keyof S as S[K] extends Optional<unknown> ? K : never]?: Infer<S[K]>;
  }
>;

const has = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** A short rendering of a value for messages. */
export function preview(value: unknown, max = 80): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

function leaf<T>(description: string, test: (value: unknown) => boolean): Validator<T> {
  return {
    description,
    check(value, path, problems) {
      if (test(value)) return true;
      problems.push(`${path}: expected ${description}, got ${preview(value)}`);
      return false;
    },
  };
}

export interface ObjectOptions {
  /** Report keys not in the shape (default false: servers may add fields in later versions). */
  readonly exact?: boolean;
  /** Keys that must not be present. */
  readonly forbidden?: readonly string[];
}

export const v = {
  string: (options: { nonEmpty?: boolean; pattern?: RegExp } = {}): Validator<string> =>
    leaf(
      options.pattern ? `string matching ${String(options.pattern)}` : options.nonEmpty ? 'non-empty string' : 'string',
      (x) => typeof x === 'string' && (!options.nonEmpty || x !== '') && (!options.pattern || options.pattern.test(x)),
    ),
  int: (options: { min?: number; max?: number } = {}): Validator<number> =>
    leaf(
      `integer${options.min !== undefined ? ` >= ${options.min}` : ''}${options.max !== undefined ? ` <= ${options.max}` : ''}`,
      (x) => Number.isInteger(x) && (options.min === undefined || (x as number) >= options.min) && (options.max === undefined || (x as number) <= options.max),
    ),
  number: (): Validator<number> => leaf('number', (x) => typeof x === 'number' && Number.isFinite(x)),
  bool: (): Validator<boolean> => leaf('boolean', (x) => typeof x === 'boolean'),
  null: (): Validator<null> => leaf('null', (x) => x === null),
  unknown: (): Validator<unknown> => leaf('anything', () => true),
  literal: <const L extends readonly (string | number | boolean | null)[]>(...values: L): Validator<L[number]> =>
    leaf(values.length === 1 ? preview(values[0]) : `one of ${values.map((x) => preview(x)).join(', ')}`, (x) => values.includes(x as L[number])),

  optional: <T>(validator: Validator<T>): Optional<T> => ({ optional: validator }),

  nullable: <T>(validator: Validator<T>): Validator<T | null> => ({
    description: `${validator.description} or null`,
    check: (value, path, problems) => value === null || validator.check(value, path, problems),
  }),

  array: <T>(item: Validator<T>, options: { minLength?: number } = {}): Validator<T[]> => ({
    description: `array of ${item.description}`,
    check(value, path, problems) {
      if (!Array.isArray(value)) {
        problems.push(`${path}: expected array, got ${preview(value)}`);
        return false;
      }
      let ok = true;
      if (options.minLength !== undefined && value.length < options.minLength) {
        problems.push(`${path}: expected at least ${options.minLength} elements, got ${value.length}`);
        ok = false;
      }
      value.forEach((element, index) => {
        ok = item.check(element, `${path}[${index}]`, problems) && ok;
      });
      return ok;
    },
  }),

  object: <S extends Shape>(shape: S, options: ObjectOptions = {}): Validator<InferObject<S>> => ({
    description: 'object',
    check(value, path, problems) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        problems.push(`${path}: expected object, got ${preview(value)}`);
        return false;
      }
      let ok = true;
      for (const [key, field] of Object.entries(shape)) {
        const optional = 'optional' in field;
        const validator = optional ? (field as Optional<unknown>).optional : (field as Validator<unknown>);
        if (!has(value, key)) {
          if (!optional) {
            problems.push(`${path}: missing key '${key}'`);
            ok = false;
          }
          continue;
        }
        ok = validator.check((value as Record<string, unknown>)[key], `${path}.${key}`, problems) && ok;
      }
      for (const key of options.forbidden ?? []) {
        if (has(value, key)) {
          problems.push(`${path}: unexpected key '${key}'`);
          ok = false;
        }
      }
      if (options.exact) {
        for (const key of Object.keys(value)) {
          if (!has(shape, key)) {
            problems.push(`${path}: unexpected key '${key}'`);
            ok = false;
          }
        }
      }
      return ok;
    },
  }),

  /** An object used as a map: every own value must match; keys optionally match a pattern. */
  record: <T>(valueValidator: Validator<T>, options: { keyPattern?: RegExp } = {}): Validator<Readonly<Record<string, T>>> => ({
    description: `map of ${valueValidator.description}`,
    check(value, path, problems) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        problems.push(`${path}: expected object, got ${preview(value)}`);
        return false;
      }
      let ok = true;
      for (const [key, element] of Object.entries(value)) {
        if (options.keyPattern && !options.keyPattern.test(key)) {
          problems.push(`${path}: key ${preview(key)} does not match ${String(options.keyPattern)}`);
          ok = false;
        }
        ok = valueValidator.check(element, `${path}[${preview(key)}]`, problems) && ok;
      }
      return ok;
    },
  }),

  union: <V extends readonly Validator<unknown>[]>(...validators: V): Validator<Infer<V[number]>> => ({
    description: validators.map((x) => x.description).join(' or '),
    check(value, path, problems) {
      if (validators.some((x) => x.check(value, path, []))) return true;
      problems.push(`${path}: expected ${validators.map((x) => x.description).join(' or ')}, got ${preview(value)}`);
      return false;
    },
  }),

  /** `validator`, and then `test` (only run when the value has the right shape). */
  refine: <T>(validator: Validator<T>, description: string, test: (value: T) => boolean): Validator<T> => ({
    description: `${validator.description} (${description})`,
    check(value, path, problems) {
      if (!validator.check(value, path, problems)) return false;
      if (test(value as T)) return true;
      problems.push(`${path}: expected ${description}, got ${preview(value)}`);
      return false;
    },
  }),
};

/** Every problem of `value` against `validator`, each prefixed with its path under `root`. */
export function validate(value: unknown, validator: Validator<unknown>, root = 'body'): string[] {
  const problems: string[] = [];
  validator.check(value, root, problems);
  return problems;
}
