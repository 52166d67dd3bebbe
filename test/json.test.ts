import fc from 'fast-check';
import t from 'tap';
import { JsonFloat, JsonSyntaxError, parseJson, type JsonValue } from '../lib/input/json.js';
import { bool, int, list, object, optional, required, str } from '../lib/input/schema.js';
import { ApiError } from '../lib/errors.js';

/** Converts our representation back to plain JS for comparison with JSON.parse. */
function plain(value: JsonValue): unknown {
  if (value instanceof JsonFloat) return value.value;
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

t.test('parseJson agrees with JSON.parse on any valid JSON text', async (t) => {
  fc.assert(
    fc.property(fc.json(), (text) => {
      t.same(plain(parseJson(text)), JSON.parse(text));
    }),
    { numRuns: 300 },
  );
});

t.test('parseJson only ever fails with JsonSyntaxError', async (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      try {
        parseJson(text);
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
      }
    }),
    { numRuns: 500 },
  );
  t.pass();
});

t.test('integers and floats stay distinct, as pydantic strict mode needs', async (t) => {
  t.equal(parseJson('5'), 5);
  t.ok(parseJson('5.0') instanceof JsonFloat);
  t.ok(parseJson('1e3') instanceof JsonFloat);
  t.ok(parseJson('NaN') instanceof JsonFloat, 'Python accepts NaN');
});

t.test('objects become Maps, so __proto__ is an ordinary key', async (t) => {
  const value = parseJson('{"__proto__": {"polluted": true}, "constructor": 1}');
  t.ok(value instanceof Map);
  t.same([...(value as Map<string, JsonValue>).keys()], ['__proto__', 'constructor']);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});

t.test('very deep nesting is refused as invalid instead of overflowing the stack', async (t) => {
  let thrown: unknown;
  try {
    parseJson('['.repeat(100_000) + ']'.repeat(100_000));
  } catch (error) {
    thrown = error;
  }
  t.ok(thrown instanceof JsonSyntaxError);
});

t.test('validators name the location of the first error', async (t) => {
  const schema = object({ name: required(str), tags: optional(list(int)), on: optional(bool) });
  const fail = (text: string) => {
    try {
      schema.parse(parseJson(text), 'x');
      return undefined;
    } catch (error) {
      return (error as ApiError).message;
    }
  };
  t.equal(fail('[]'), 'x is not a dict');
  t.equal(fail('{}'), 'x["name"] field is missing: Field required');
  t.equal(fail('{"name": 1}'), 'x["name"] is not a string');
  t.equal(fail('{"name": "a", "tags": [1, "b"]}'), 'x["tags"][1] is not an integer');
  t.equal(fail('{"name": "a", "extra": 1}'), 'Argument "extra" at x["extra"] is unexpected');
  t.equal(fail('{"name": "a", "on": 1}'), 'x["on"] is not a boolean');
  t.equal(fail('{"name": "a"}'), undefined);
});
