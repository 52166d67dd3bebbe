/**
 * Validators for JSON-encoded parameters, with the real server's (pydantic strict mode) error
 * texts. `path` is the parameter name followed by the location inside the value, each step
 * JSON-encoded in brackets: `to[1]`, `draft["type"]`.
 */
import { badRequest } from './errors.js';
import { JsonFloat, type JsonObject, type JsonValue } from './json.js';

export interface Schema<T> {
  parse(value: JsonValue, path: string): T;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

export const schema = <T>(parse: (value: JsonValue, path: string) => T): Schema<T> => ({ parse });

export const itemPath = (path: string, index: number): string => `${path}[${index}]`;
export const keyPath = (path: string, key: string): string => `${path}[${JSON.stringify(key)}]`;

const isObject = (value: JsonValue): value is JsonObject => value instanceof Map;

export const bool = schema<boolean>((value, path) => {
  if (typeof value !== 'boolean') throw badRequest(`${path} is not a boolean`);
  return value;
});

/** Any JSON integer literal; floats such as `5.0` are refused as pydantic's strict mode does. */
export const int = schema<number>((value, path) => {
  if (typeof value !== 'number') throw badRequest(`${path} is not an integer`);
  return value;
});

export const float = schema<number>((value, path) => {
  if (typeof value === 'number') return value;
  if (value instanceof JsonFloat) return value.value;
  throw badRequest(`${path} is not a float`);
});

export const str = schema<string>((value, path) => {
  if (typeof value !== 'string') throw badRequest(`${path} is not a string`);
  return value;
});

export function list<T>(item: Schema<T>): Schema<T[]> {
  return schema((value, path) => {
    if (!Array.isArray(value)) throw badRequest(`${path} is not a list`);
    return value.map((element, index) => item.parse(element, itemPath(path, index)));
  });
}

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return schema((value, path) => (value === null ? null : inner.parse(value, path)));
}

/** A fixed set of values declared as a Literal type: `Invalid <name>`. */
export function literal<T extends string | number>(...allowed: readonly T[]): Schema<T> {
  return schema((value, path) => {
    if (!(allowed as readonly JsonValue[]).includes(value)) throw badRequest(`Invalid ${path}`);
    return value as T;
  });
}

/** A set checked by a custom validator: pydantic prefixes its text with `Value error, `. */
export function oneOf<T extends string | number>(base: Schema<T>, allowed: readonly T[]): Schema<T> {
  return schema((value, path) => {
    const parsed = base.parse(value, path);
    if (!allowed.includes(parsed)) throw invalidValue(path, 'Not in the list of possible values');
    return parsed;
  });
}

export const invalidValue = (path: string, text: string) => badRequest(`Invalid ${path}: Value error, ${text}`);

/** Tries each branch in order; the first branch's error is reported when none matches. */
export function union<A, B>(first: Schema<A>, second: Schema<B>): Schema<A | B> {
  return schema((value, path) => {
    try {
      return first.parse(value, path);
    } catch (error) {
      try {
        return second.parse(value, path);
      } catch {
        throw error;
      }
    }
  });
}

export interface Field<T, Optional extends boolean> {
  readonly schema: Schema<T>;
  readonly optional: Optional;
}

export const required = <T>(s: Schema<T>): Field<T, false> => ({ schema: s, optional: false });
export const optional = <T>(s: Schema<T>): Field<T, true> => ({ schema: s, optional: true });

type Fields = Record<string, Field<unknown, boolean>>;
export type ObjectOf<F extends Fields> = {
  [K in keyof F as F[K] extends Field<unknown, false> ? K : never]: F[K] extends Field<infer T, boolean> ? T : never;
} & {
  [K in keyof F as F[K] extends Field<unknown, true> ? K : never]?: F[K] extends Field<infer T, boolean> ? T : never;
};

/**
 * A JSON object with declared keys. Unknown keys are refused (`extra: 'forbid'`, the default for
 * the real server's TypedDicts) or dropped.
 */
export function object<F extends Fields>(fields: F, options: { extra?: 'forbid' | 'ignore' } = {}): Schema<ObjectOf<F>> {
  const names = Object.keys(fields);
  return schema((value, path) => {
    if (!isObject(value)) throw badRequest(`${path} is not a dict`);
    // pydantic validates the declared fields in order first; unexpected keys are reported after.
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const field = fields[name] as Field<unknown, boolean>;
      const raw = value.get(name);
      if (raw === undefined) {
        if (!field.optional) throw badRequest(`${keyPath(path, name)} field is missing: Field required`);
        continue;
      }
      out[name] = field.schema.parse(raw, keyPath(path, name));
    }
    if (options.extra !== 'ignore') {
      for (const key of value.keys()) {
        if (!Object.hasOwn(fields, key)) throw badRequest(`Argument "${key}" at ${keyPath(path, key)} is unexpected`);
      }
    }
    return out as ObjectOf<F>;
  });
}

/** A JSON object whose keys are data: returned as a Map so no key can touch a prototype. */
export function mapOf<T>(inner: Schema<T>): Schema<Map<string, T>> {
  return schema((value, path) => {
    if (!isObject(value)) throw badRequest(`${path} is not a dict`);
    const out = new Map<string, T>();
    for (const [key, item] of value) out.set(key, inner.parse(item, keyPath(path, key)));
    return out;
  });
}

/** Adds a check after parsing; the check throws its own ApiError. */
export function refine<T>(inner: Schema<T>, check: (value: T, path: string) => void): Schema<T> {
  return schema((value, path) => {
    const parsed = inner.parse(value, path);
    check(parsed, path);
    return parsed;
  });
}
