/**
 * Per-endpoint parameter declarations, read in declaration order with the real server's
 * errors: a missing required parameter is REQUEST_VARIABLE_MISSING with `var_name`; a bad value
 * is BAD_REQUEST with pydantic's wording; two aliases at once are REQUEST_CONFUSING_VAR.
 */
import { badRequest, confusingArguments, missingArgument } from '../../lib/errors.js';
import type { Feature } from '../../lib/features/feature-levels.js';
import { JsonSyntaxError, parseJson } from '../../lib/input/json.js';
import { invalidValue, type Schema } from '../../lib/input/schema.js';
import { codePointLength } from '../../lib/input/topic-names.js';
import type { World } from '../../lib/state/world.js';
import type { RequestParams } from './form.js';

type Decode<T> = (raw: string, name: string) => T;

/** A feature-level bound of a parameter: outside it the parameter does not exist. */
interface LevelBound<T> {
  readonly feature: Feature;
  /** The value the endpoint sees where the parameter does not exist; without it, none. */
  readonly otherwise?: { readonly value: T } | undefined;
}

/** What an endpoint reads where a level-bound parameter does not exist: `{ otherwise: false }`. */
export interface Otherwise<T> {
  readonly otherwise: T;
}

/** Everything a declaration says besides how to decode. */
interface ParamOptions<T> {
  readonly isRequired?: boolean;
  /** Other accepted names; sending two of them is REQUEST_CONFUSING_VAR. */
  readonly aliases?: readonly string[];
  readonly defaultValue?: { readonly value: T } | undefined;
  /** Below this level the parameter does not exist. */
  readonly since?: LevelBound<T> | undefined;
  /** From this level on the parameter does not exist (renamed or removed). */
  readonly before?: LevelBound<T> | undefined;
}

const bound = <T>(feature: Feature, absent: Otherwise<T> | undefined): LevelBound<T> =>
  absent === undefined ? { feature } : { feature, otherwise: { value: absent.otherwise } };

/**
 * A parameter declaration. `Optional` is whether the value may be missing at a level where the
 * parameter exists (no `.required()` and no `.default()`); `Gated` is whether some level lacks
 * the parameter without saying what the endpoint then sees (`.availableFrom(F)` /
 * `.availableBefore(F)` without `{ otherwise }`). Either makes the value `T | undefined`.
 */
export class Param<T, Optional extends boolean = true, Gated extends boolean = false> {
  constructor(
    readonly decode: Decode<T>,
    readonly options: ParamOptions<T> = {},
  ) {}

  private with<O extends boolean, G extends boolean>(changes: ParamOptions<T>, decode: Decode<T> = this.decode): Param<T, O, G> {
    return new Param<T, O, G>(decode, { ...this.options, ...changes });
  }

  required(): Param<T, false, Gated> {
    return this.with({ isRequired: true, defaultValue: undefined });
  }

  default(value: T): Param<T, false, Gated> {
    return this.with({ isRequired: false, defaultValue: { value } });
  }

  /** Another accepted name; sending both is REQUEST_CONFUSING_VAR. */
  alias(name: string): Param<T, Optional, Gated> {
    return this.with({ aliases: [...(this.options.aliases ?? []), name] });
  }

  /**
   * Below this feature level the parameter does not exist (it is reported as ignored) and the
   * endpoint sees `absent.otherwise`, or no value when `absent` is not given.
   */
  availableFrom(feature: Feature): Param<T, Optional, true>;
  availableFrom(feature: Feature, absent: Otherwise<T>): Param<T, Optional, Gated>;
  availableFrom(feature: Feature, absent?: Otherwise<T>): Param<T, Optional, boolean> {
    return this.with({ since: bound(feature, absent) });
  }

  /**
   * From this feature level on the parameter does not exist (it was renamed or removed; it is
   * reported as ignored) and the endpoint sees `absent.otherwise`, or no value.
   */
  availableBefore(feature: Feature): Param<T, Optional, true>;
  availableBefore(feature: Feature, absent: Otherwise<T>): Param<T, Optional, Gated>;
  availableBefore(feature: Feature, absent?: Otherwise<T>): Param<T, Optional, boolean> {
    return this.with({ before: bound(feature, absent) });
  }

  /** Adds a check that runs on the decoded value. */
  check(test: (value: T, name: string) => void): Param<T, Optional, Gated> {
    const decode: Decode<T> = (raw, name) => {
      const value = this.decode(raw, name);
      test(value, name);
      return value;
    };
    return this.with({}, decode);
  }

  /** Converts the decoded value; defaults and `otherwise` values are converted too. */
  map<U>(convert: (value: T, name: string) => U): Param<U, Optional, Gated> {
    const decode: Decode<U> = (raw, name) => convert(this.decode(raw, name), name);
    const value = (held: { readonly value: T } | undefined) => (held === undefined ? undefined : { value: convert(held.value, '') });
    const level = (b: LevelBound<T> | undefined): LevelBound<U> | undefined => b && { feature: b.feature, otherwise: value(b.otherwise) };
    const { defaultValue, since, before } = this.options;
    return new Param<U, Optional, Gated>(decode, {
      ...this.options,
      defaultValue: value(defaultValue),
      since: level(since),
      before: level(before),
    });
  }
}

export interface StrOptions {
  /** Strip surrounding whitespace before other checks. */
  readonly strip?: boolean;
  /** Length limit in code points, checked after stripping. */
  readonly maxLength?: number;
  /** Refuse an empty value (after stripping): `<name> cannot be blank`. */
  readonly nonBlank?: boolean;
}

/** A plain string parameter: the raw form value, never JSON-decoded. */
export function str(options: StrOptions = {}): Param<string> {
  return new Param<string>((raw, name) => {
    const value = options.strip ? raw.trim() : raw;
    if (options.nonBlank && value === '') throw badRequest(`${name} cannot be blank`);
    if (options.maxLength !== undefined && codePointLength(value) > options.maxLength) {
      throw badRequest(`${name} is too long (limit: ${options.maxLength} characters)`);
    }
    return value;
  });
}

/** A plain string from a Literal set: `Invalid <name>` otherwise. */
export function literalStr<T extends string>(...allowed: readonly T[]): Param<T> {
  return new Param<T>((raw, name) => {
    if (!(allowed as readonly string[]).includes(raw)) throw badRequest(`Invalid ${name}`);
    return raw as T;
  });
}

/** A plain string checked by a custom validator: `Invalid <name>: Value error, ...`. */
export function choiceStr<T extends string>(...allowed: readonly T[]): Param<T> {
  return new Param<T>((raw, name) => {
    if (!(allowed as readonly string[]).includes(raw)) throw invalidValue(name, 'Not in the list of possible values');
    return raw as T;
  });
}

/** A JSON-encoded parameter validated by `schema`. */
export function json<T>(schema: Schema<T>): Param<T> {
  return new Param<T>((raw, name) => {
    let value;
    try {
      value = parseJson(raw);
    } catch (error) {
      if (error instanceof JsonSyntaxError) throw badRequest(`${name} is not valid JSON`);
      throw error;
    }
    return schema.parse(value, name);
  });
}

export type ParamSpecs = Record<string, Param<unknown, boolean, boolean>>;

export type ParamValues<S extends ParamSpecs> = {
  [K in keyof S]: S[K] extends Param<infer T, infer Optional, infer Gated>
    ? Optional extends true
      ? T | undefined
      : Gated extends true
        ? T | undefined
        : T
    : never;
};

const NO_ALIASES: readonly string[] = [];
/** What `readDeclared` reports consumed when no declared parameter was sent; never written to. */
const NOTHING_CONSUMED: ReadonlySet<string> = new Set();
/** Each declaration's entries, listed once rather than on every request. */
const declarations = new WeakMap<ParamSpecs, ReadonlyArray<readonly [string, Param<unknown, boolean, boolean>]>>();

function entriesOf(specs: ParamSpecs): ReadonlyArray<readonly [string, Param<unknown, boolean, boolean>]> {
  let entries = declarations.get(specs);
  if (!entries) {
    entries = Object.entries(specs);
    declarations.set(specs, entries);
  }
  return entries;
}

/** The bound that excludes the parameter at the emulated level, if any. */
function excludingBound(world: World, spec: Param<unknown, boolean, boolean>): LevelBound<unknown> | undefined {
  const { since, before } = spec.options;
  if (since && !world.has(since.feature)) return since;
  if (before && world.has(before.feature)) return before;
  return undefined;
}

/**
 * Reads every declared parameter in order. Returns the values and the names consumed, so the
 * caller can report the rest in `ignored_parameters_unsupported`.
 */
export function readDeclared<S extends ParamSpecs>(
  world: World,
  specs: S,
  params: RequestParams,
): { values: ParamValues<S>; consumed: ReadonlySet<string> } {
  const values: Record<string, unknown> = {};
  // A request without parameters (most GETs) only needs the defaults: no lookups.
  const sentNothing = params.body.size === 0 && params.query.size === 0;
  let consumed: Set<string> | undefined;
  for (const [name, spec] of entriesOf(specs)) {
    const excluded = excludingBound(world, spec);
    if (excluded) {
      if (excluded.otherwise) values[name] = excluded.otherwise.value;
      continue;
    }
    let foundName: string | undefined;
    let foundRaw = '';
    if (!sentNothing) {
      // The name, then its aliases, in order; a second one sent is an error naming both.
      const aliases = spec.options.aliases ?? NO_ALIASES;
      for (let i = -1; i < aliases.length; i++) {
        const candidate = i === -1 ? name : (aliases[i] as string);
        const raw = params.body.get(candidate) ?? params.query.get(candidate);
        if (raw === undefined) continue;
        if (foundName !== undefined) throw confusingArguments(foundName, candidate);
        foundName = candidate;
        foundRaw = raw;
      }
    }
    if (foundName === undefined) {
      if (spec.options.isRequired) throw missingArgument(name);
      if (spec.options.defaultValue) values[name] = spec.options.defaultValue.value;
      continue;
    }
    consumed ??= new Set<string>();
    consumed.add(foundName);
    values[name] = spec.decode(foundRaw, foundName);
  }
  return { values: values as ParamValues<S>, consumed: consumed ?? NOTHING_CONSUMED };
}
