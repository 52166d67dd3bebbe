/** Reading fixture text: JSON into the Map-based form the schema validates, with located errors. */
import { ApiError } from './errors.js';
import { type Fixture, fixtureSchema } from './fixture-schema.js';
import type { JsonValue } from './json.js';
import { REFUSED } from './schema.js';

export class FixtureError extends Error {
  override name = 'FixtureError';
}

/**
 * Fixtures are the operator's own files and can be large (a realm of 100,000 users), so they are
 * read with the engine's JSON parser rather than the strict request parser. Unlike request
 * parameters, `5.0` counts as 5.
 */
function readFixtureJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) throw new FixtureError(`fixture is not valid JSON: ${error.message}`);
    throw error;
  }
}

/** The schema's form of JSON: objects become Maps (own keys only, so `__proto__` stays data). */
function asJsonValue(value: unknown): JsonValue {
  if (value === null || typeof value !== 'object') return value as JsonValue;
  if (Array.isArray(value)) return value.map(asJsonValue);
  const map: Map<string, JsonValue> = new Map();
  for (const key of Object.keys(value)) map.set(key, asJsonValue((value as Record<string, unknown>)[key]));
  return map;
}

/**
 * Parses and validates fixture text; throws FixtureError with the location of the problem.
 * A valid fixture is checked in one pass over the parsed JSON, which it becomes (no copy); only an
 * invalid one is read again through the schema's located parser, for the message.
 */
export function parseFixture(text: string): Fixture {
  const read = fixtureSchema.readPlain?.(readFixtureJson(text));
  if (read !== undefined && read !== REFUSED) return read;
  try {
    return fixtureSchema.parse(asJsonValue(readFixtureJson(text)), 'fixture');
  } catch (error) {
    if (error instanceof ApiError) throw new FixtureError(error.message);
    throw error;
  }
}

export function parseTime(value: string | undefined, fallback: number, where: string): number {
  if (value === undefined) return fallback;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new FixtureError(`${where}: not a date: ${value}`);
  return ms;
}
