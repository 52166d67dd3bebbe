/**
 * Validators for JSON-encoded parameters, with the real server's (pydantic strict mode) error
 * texts. `path` is the parameter name followed by the location inside the value, each step
 * JSON-encoded in brackets: `to[1]`, `draft["type"]`.
 */
import { badRequest } from '../errors.js';
import { JsonFloat, type JsonObject, type JsonValue } from './json.js';
import { MAX_LIST_ITEMS, tooManyItems } from './limits.js';

/** What a plain reader answers for a value its schema refuses. */
export const REFUSED: unique symbol = Symbol('refused');

/** See `Schema.readPlain`. */
export type PlainReader<T> = (value: unknown) => T | typeof REFUSED;

export interface Schema<T> {
  parse(value: JsonValue, path: string): T;
  /**
   * The same validation over a plain `JSON.parse` result, for bulk input read often (realm
   * fixtures of 100,000 users): it answers the value itself when it is valid (lists and objects
   * checked in place, with `mapOf` objects replaced by Maps inside them, so the value given is
   * changed) and REFUSED otherwise, without saying where: `parse` then locates the problem. It
   * accepts nothing `parse` refuses. Absent when the schema has a check of its own (`schema`,
   * `refine`, `oneOf`); an object or list containing such a schema has none either.
   */
  readonly readPlain?: PlainReader<T>;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

export const schema = <T>(parse: (value: JsonValue, path: string) => T): Schema<T> => ({ parse });

const withPlain = <T>(parse: (value: JsonValue, path: string) => T, readPlain: PlainReader<T> | undefined): Schema<T> =>
  readPlain ? { parse, readPlain } : { parse };

/** A plain JSON object: what `JSON.parse` makes of `{...}` (its keys are all own data properties). */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const itemPath = (path: string, index: number): string => `${path}[${index}]`;
export const keyPath = (path: string, key: string): string => `${path}[${JSON.stringify(key)}]`;

const isObject = (value: JsonValue): value is JsonObject => value instanceof Map;

export const bool = withPlain<boolean>(
  (value, path) => {
    if (typeof value !== 'boolean') throw badRequest(`${path} is not a boolean`);
    return value;
  },
  (value) => (typeof value === 'boolean' ? value : REFUSED),
);

/** Any JSON integer literal; floats such as `5.0` are refused as pydantic's strict mode does. */
export const int = withPlain<number>(
  (value, path) => {
    if (typeof value !== 'number') throw badRequest(`${path} is not an integer`);
    return value;
  },
  (value) => (typeof value === 'number' ? value : REFUSED),
);

export const float = schema<number>((value, path) => {
  if (typeof value === 'number') return value;
  if (value instanceof JsonFloat) return value.value;
  throw badRequest(`${path} is not a float`);
});

export const str = withPlain<string>(
  (value, path) => {
    if (typeof value !== 'string') throw badRequest(`${path} is not a string`);
    return value;
  },
  (value) => (typeof value === 'string' ? value : REFUSED),
);

/**
 * A JSON list of `item`, at most `maxItems` long (lib/input/limits.ts): a longer one is refused
 * before its items are read.
 */
export function list<T>(item: Schema<T>, maxItems: number = MAX_LIST_ITEMS): Schema<T[]> {
  const readItem = item.readPlain;
  return withPlain(
    (value, path) => {
      if (!Array.isArray(value)) throw badRequest(`${path} is not a list`);
      if (value.length > maxItems) throw tooManyItems(path, maxItems);
      return value.map((element, index) => item.parse(element, itemPath(path, index)));
    },
    readItem &&
      ((value) => {
        if (!Array.isArray(value) || value.length > maxItems) return REFUSED;
        const items = value as unknown[];
        for (let i = 0; i < items.length; i++) {
          const read = readItem(items[i]);
          if (read === REFUSED) return REFUSED;
          if (read !== items[i]) items[i] = read;
        }
        return items as T[];
      }),
  );
}

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  const readInner = inner.readPlain;
  return withPlain(
    (value, path) => (value === null ? null : inner.parse(value, path)),
    readInner && ((value) => (value === null ? null : readInner(value))),
  );
}

/** A fixed set of values declared as a Literal type: `Invalid <name>`. */
export function literal<T extends string | number>(...allowed: readonly T[]): Schema<T> {
  return withPlain(
    (value, path) => {
      if (!(allowed as readonly JsonValue[]).includes(value)) throw badRequest(`Invalid ${path}`);
      return value as T;
    },
    (value) => ((allowed as readonly unknown[]).includes(value) ? (value as T) : REFUSED),
  );
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
  const [readFirst, readSecond] = [first.readPlain, second.readPlain];
  return withPlain<A | B>(
    (value, path) => {
      try {
        return first.parse(value, path);
      } catch (error) {
        try {
          return second.parse(value, path);
        } catch {
          throw error;
        }
      }
    },
    readFirst &&
      readSecond &&
      ((value) => {
        const read = readFirst(value);
        return read === REFUSED ? readSecond(value) : read;
      }),
  );
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
  return withPlain((value, path) => {
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
  }, plainObjectReader<ObjectOf<F>>(fields, options.extra ?? 'forbid'));
}

/** `object`'s plain reader: the declared fields checked in place, unknown keys refused or removed. */
function plainObjectReader<T>(fields: Fields, extra: 'forbid' | 'ignore'): PlainReader<T> | undefined {
  const declared: Array<[string, PlainReader<unknown>, boolean]> = [];
  for (const [name, field] of Object.entries(fields)) {
    if (!field.schema.readPlain) return undefined;
    declared.push([name, field.schema.readPlain, field.optional]);
  }
  return (value) => {
    if (!isPlainObject(value)) return REFUSED;
    let present = 0;
    for (const [name, read, optional] of declared) {
      if (!Object.hasOwn(value, name)) {
        if (!optional) return REFUSED;
        continue;
      }
      present++;
      const raw = value[name];
      const parsed = read(raw);
      if (parsed === REFUSED) return REFUSED;
      if (parsed !== raw) value[name] = parsed;
    }
    // More keys than declared ones present means an unknown key. Counted with for-in, which
    // allocates nothing; an enumerable key inherited from a polluted prototype counts too, so the
    // value is refused here and `parse` decides.
    let keys = 0;
    for (const _ in value) keys++;
    if (keys !== present) {
      if (extra === 'forbid') return REFUSED;
      for (const key of Object.keys(value)) if (!Object.hasOwn(fields, key)) delete value[key];
    }
    return value as T;
  };
}

/** A JSON object whose keys are data: returned as a Map so no key can touch a prototype. */
export function mapOf<T>(inner: Schema<T>): Schema<Map<string, T>> {
  const readInner = inner.readPlain;
  return withPlain(
    (value, path) => {
      if (!isObject(value)) throw badRequest(`${path} is not a dict`);
      const out = new Map<string, T>();
      for (const [key, item] of value) out.set(key, inner.parse(item, keyPath(path, key)));
      return out;
    },
    readInner &&
      ((value) => {
        if (!isPlainObject(value)) return REFUSED;
        const out = new Map<string, T>();
        for (const key of Object.keys(value)) {
          const read = readInner(value[key]);
          if (read === REFUSED) return REFUSED;
          out.set(key, read);
        }
        return out;
      }),
  );
}

/** Adds a check after parsing; the check throws its own ApiError. */
export function refine<T>(inner: Schema<T>, check: (value: T, path: string) => void): Schema<T> {
  return schema((value, path) => {
    const parsed = inner.parse(value, path);
    check(parsed, path);
    return parsed;
  });
}
