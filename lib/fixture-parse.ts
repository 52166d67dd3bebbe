/** Reading fixture text: JSON into the Map-based form the schema validates, with located errors. */
import { ApiError } from './errors.js';
import { type Fixture, fixtureSchema } from './fixture-schema.js';
import type { JsonValue } from './json.js';

export class FixtureError extends Error {
  override name = 'FixtureError';
}

/**
 * Fixtures are the operator's own files and can be large (a realm of 100,000 users), so they are
 * read with the engine's JSON parser rather than the strict request parser; objects still become
 * Maps (own keys only, so `__proto__` stays data). Unlike request parameters, `5.0` counts as 5.
 */
function readFixtureJson(text: string): JsonValue {
  return asJsonValue(JSON.parse(text));
}

function asJsonValue(value: unknown): JsonValue {
  if (value === null || typeof value !== 'object') return value as JsonValue;
  if (Array.isArray(value)) return value.map(asJsonValue);
  const map: Map<string, JsonValue> = new Map();
  for (const key of Object.keys(value)) map.set(key, asJsonValue((value as Record<string, unknown>)[key]));
  return map;
}

/** Parses and validates fixture text; throws FixtureError with the location of the problem. */
export function parseFixture(text: string): Fixture {
  let json;
  try {
    json = readFixtureJson(text);
  } catch (error) {
    if (error instanceof SyntaxError) throw new FixtureError(`fixture is not valid JSON: ${error.message}`);
    throw error;
  }
  try {
    return fixtureSchema.parse(json, 'fixture');
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
