/**
 * Per-endpoint parameter declarations, read in declaration order with the real server's
 * errors: a missing required parameter is REQUEST_VARIABLE_MISSING with `var_name`; a bad value
 * is BAD_REQUEST with pydantic's wording; two aliases at once are REQUEST_CONFUSING_VAR.
 */
import { badRequest, confusingArguments, missingArgument } from '../lib/errors.js';
import type { Feature } from '../lib/features.js';
import { JsonSyntaxError, parseJson } from '../lib/json.js';
import { invalidValue, type Schema } from '../lib/schema.js';
import type { World } from '../lib/world.js';
import type { RequestParams } from './form.js';

type Decode<T> = (raw: string, name: string) => T;

export class Param<T, Optional extends boolean = true> {
  constructor(
    readonly decode: Decode<T>,
    readonly isRequired: boolean = false,
    readonly aliases: readonly string[] = [],
    readonly defaultValue: { value: T } | undefined = undefined,
    readonly since: Feature | undefined = undefined,
    /** From this level on the parameter no longer exists (renamed or removed). */
    readonly until: Feature | undefined = undefined,
  ) {}

  required(): Param<T, false> {
    return new Param<T, false>(this.decode, true, this.aliases, undefined, this.since, this.until);
  }

  default(value: T): Param<T, false> {
    return new Param<T, false>(this.decode, false, this.aliases, { value }, this.since, this.until);
  }

  /** Another accepted name; sending both is REQUEST_CONFUSING_VAR. */
  alias(name: string): Param<T, Optional> {
    return new Param<T, Optional>(this.decode, this.isRequired, [...this.aliases, name], this.defaultValue, this.since, this.until);
  }

  /** Below this feature level the parameter does not exist (it is reported as ignored). */
  availableFrom(feature: Feature): Param<T, Optional> {
    return new Param<T, Optional>(this.decode, this.isRequired, this.aliases, this.defaultValue, feature, this.until);
  }

  /** From this level on the parameter does not exist (it is reported as ignored). */
  availableUntil(feature: Feature): Param<T, Optional> {
    return new Param<T, Optional>(this.decode, this.isRequired, this.aliases, this.defaultValue, this.since, feature);
  }

  /** Adds a check that runs on the decoded value. */
  check(test: (value: T, name: string) => void): Param<T, Optional> {
    const decode: Decode<T> = (raw, name) => {
      const value = this.decode(raw, name);
      test(value, name);
      return value;
    };
    return new Param<T, Optional>(decode, this.isRequired, this.aliases, this.defaultValue, this.since, this.until);
  }

  map<U>(convert: (value: T, name: string) => U): Param<U, Optional> {
    const decode: Decode<U> = (raw, name) => convert(this.decode(raw, name), name);
    const defaultValue = this.defaultValue === undefined ? undefined : { value: convert(this.defaultValue.value, '') };
    return new Param<U, Optional>(decode, this.isRequired, this.aliases, defaultValue, this.since, this.until);
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

const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** A plain string parameter: the raw form value, never JSON-decoded. */
export function str(options: StrOptions = {}): Param<string> {
  return new Param<string>((raw, name) => {
    const value = options.strip ? raw.trim() : raw;
    if (options.nonBlank && value === '') throw badRequest(`${name} cannot be blank`);
    if (options.maxLength !== undefined && codePoints(value) > options.maxLength) {
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

export type ParamSpecs = Record<string, Param<unknown, boolean>>;

export type ParamValues<S extends ParamSpecs> = {
  [K in keyof S]: S[K] extends Param<infer T, infer Optional> ? (Optional extends true ? T | undefined : T) : never;
};

/**
 * Reads every declared parameter in order. Returns the values and the names consumed, so the
 * caller can report the rest in `ignored_parameters_unsupported`.
 */
export function readDeclared<S extends ParamSpecs>(
  world: World,
  specs: S,
  params: RequestParams,
): { values: ParamValues<S>; consumed: Set<string> } {
  const values: Record<string, unknown> = {};
  const consumed = new Set<string>();
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.since && !world.has(spec.since)) continue;
    if (spec.until && world.has(spec.until)) continue;
    let found: { name: string; raw: string } | undefined;
    for (const candidate of [name, ...spec.aliases]) {
      const raw = params.body.get(candidate) ?? params.query.get(candidate);
      if (raw === undefined) continue;
      if (found) throw confusingArguments(found.name, candidate);
      found = { name: candidate, raw };
    }
    if (!found) {
      if (spec.isRequired) throw missingArgument(name);
      if (spec.defaultValue) values[name] = spec.defaultValue.value;
      continue;
    }
    consumed.add(found.name);
    values[name] = spec.decode(found.raw, found.name);
  }
  return { values: values as ParamValues<S>, consumed };
}
