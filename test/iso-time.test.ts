/** Fixture times read by character code (lib/fixture/iso-time.ts) are what `Date.parse` reads, for any text near their forms. */
import fc from 'fast-check';
import t from 'tap';
import { parseIsoTime } from '../lib/fixture/iso-time.js';

const pad = (value: number, width: number): string => String(value).padStart(width, '0');
/** Both forms, with fields a little out of range at times (month 13, day 31 of February, hour 24, second 60). */
const isoLike = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 25 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 60 }),
    ms: fc.option(fc.integer({ min: 0, max: 999 })),
  })
  .map(({ year, month, day, hour, minute, second, ms }) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${ms === null ? '' : `.${pad(ms, 3)}`}Z`);
/** One character of such a text replaced, so near misses of the forms are tried too. */
const mutated = fc.tuple(isoLike, fc.nat(), fc.constantFrom(...'0123456789-:.TZ +x')).map(([text, at, char]) => text.slice(0, at % text.length) + char + text.slice((at % text.length) + 1));

t.test('a fixture time reads as Date.parse reads it, in range or not, well formed or not', async (t) => {
  const same = (text: string) => Object.is(parseIsoTime(text), Date.parse(text));
  fc.assert(fc.property(fc.oneof(isoLike, mutated, fc.string({ maxLength: 26 })), same), { numRuns: 5000 });
  for (const text of ['2024-02-29T23:59:59.999Z', '1970-01-01T00:00:00Z', '0000-03-01T00:00:00Z', '2023-02-31T00:00:00Z', '2023-01-01T24:00:00Z', '2025-05-01T10:00:00+00:00', '']) {
    t.ok(same(text), text);
  }
});
