import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import t from 'tap';
import { DEV_REALM_PATH } from '../fixtures/index.js';
import { ManualClock } from '../lib/state/clock.js';
import { buildWorld, FixtureError, parseFixture } from '../lib/fixture/build.js';
import { fixtureSchema } from '../lib/fixture/schema.js';
import type { JsonValue } from '../lib/input/json.js';
import { REFUSED } from '../lib/input/schema.js';
import { channelDescriptionHtml } from '../lib/queries/channels/channels.js';
import { renderMarkdown } from '../lib/rendering/markdown/index.js';

const DEV_TEXT = readFileSync(DEV_REALM_PATH, 'utf8');
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const devJson = (): Record<string, Json> => JSON.parse(DEV_TEXT) as Record<string, Json>;
const build = (text: string) => buildWorld(parseFixture(text), { clock: new ManualClock(Date.UTC(2025, 0, 1)) });

/** The located parser's input: objects as Maps, as the fixture reader gives it. */
function asJsonValue(value: unknown): JsonValue {
  if (value === null || typeof value !== 'object') return value as JsonValue;
  if (Array.isArray(value)) return value.map(asJsonValue);
  return new Map(Object.keys(value).map((key) => [key, asJsonValue((value as Record<string, unknown>)[key])]));
}

/** What the located parser makes of `text`: the fixture, or its error text. */
function located(text: string): { value: unknown } | { error: string } {
  try {
    return { value: fixtureSchema.parse(asJsonValue(JSON.parse(text)), 'fixture') };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Every place in a JSON value: the path of keys and indexes to it. */
function pathsOf(value: Json, path: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [path];
  const children = Array.isArray(value) ? value.map((inner, i) => pathsOf(inner, [...path, i])) : Object.entries(value).map(([key, inner]) => pathsOf(inner, [...path, key]));
  return [path, ...children.flat()];
}

type Change = { kind: 'replace'; value: Json } | { kind: 'remove' } | { kind: 'add'; key: string; value: Json };

/** The fixture with one change at `path` (a replacement, a removal, or a new key in an object there). */
function changed(path: ReadonlyArray<string | number>, change: Change): string {
  const root = devJson();
  let parent: Json = root;
  for (const step of path.slice(0, -1)) parent = (parent as Record<string, Json>)[step] as Json;
  const last = path.at(-1);
  const container = parent as Record<string | number, Json>;
  if (change.kind === 'add') {
    const target = last === undefined ? root : container[last];
    // Defined rather than assigned, so that `__proto__` becomes an own key as JSON.parse makes it.
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) Object.defineProperty(target, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
  } else if (last === undefined) return JSON.stringify(change.kind === 'replace' ? change.value : null);
  else if (change.kind === 'replace') container[last] = change.value;
  else if (Array.isArray(container)) container.splice(last as number, 1);
  else delete container[last];
  return JSON.stringify(root);
}

t.test('a valid fixture is read in one pass into the same value the located parser gives', async (t) => {
  t.same(parseFixture(DEV_TEXT), (located(DEV_TEXT) as { value: unknown }).value);
});

t.test('the one-pass reader accepts exactly what the located parser accepts, with the same value', async (t) => {
  const paths = pathsOf(devJson());
  const json: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  // Values of the right kind as well as wrong ones, so that both answers are exercised.
  const value = fc.oneof(json, fc.constantFrom<Json>(0, 400, 'x', true, null, [], {}, ['hamlet@zulip.com'], { 'role:nobody': 1 }));
  const change: fc.Arbitrary<Change> = fc.oneof(
    value.map((v) => ({ kind: 'replace' as const, value: v })),
    fc.constant({ kind: 'remove' as const }),
    fc.tuple(fc.constantFrom('id', 'email', 'extra', '__proto__', 'constructor'), value).map(([key, v]) => ({ kind: 'add' as const, key, value: v })),
  );
  fc.assert(
    fc.property(fc.constantFrom(...paths), change, (path, one) => {
      const text = changed(path, one);
      const slow = located(text);
      const fast = fixtureSchema.readPlain?.(JSON.parse(text));
      if ('error' in slow) return fast === REFUSED;
      return fast !== REFUSED && isDeepStrictEqual(fast, slow.value);
    }),
    { numRuns: 300 },
  );
});

t.test('an invalid fixture is refused with the place of the problem', async (t) => {
  const cases: Array<[string, (f: Record<string, Json>) => void, string]> = [
    ['a wrong type', (f) => ((f.users as Array<Record<string, Json>>)[3]!.email = 5), 'fixture["users"][3]["email"] is not a string'],
    ['an unknown field', (f) => ((f.channels as Array<Record<string, Json>>)[1]!.colour = 'red'), 'Argument "colour" at fixture["channels"][1]["colour"] is unexpected'],
    ['a missing field', (f) => delete (f.channels as Array<Record<string, Json>>)[0]!.subscribers, 'fixture["channels"][0]["subscribers"] field is missing: Field required'],
    ['a role out of the list', (f) => ((f.users as Array<Record<string, Json>>)[0]!.role = 500), 'Invalid fixture["users"][0]["role"]'],
    ['a setting default of the wrong kind', (f) => (f.userSettingsDefaults = { enter_sends: [] }), 'fixture["userSettingsDefaults"]["enter_sends"] is not a boolean'],
    ['a duplicate user ID', (f) => ((f.users as Array<Record<string, Json>>)[2]!.id = (f.users as Array<Record<string, Json>>)[1]!.id as number), 'fixture.users[2]: duplicate user ID'],
    ['an email taken in another case', (f) => ((f.bots as Array<Record<string, Json>>)[0]!.email = 'Hamlet@Zulip.com'), 'fixture.bots[0]: duplicate email Hamlet@Zulip.com'],
    ['an API key of the wrong shape', (f) => ((f.users as Array<Record<string, Json>>)[4]!.apiKey = 'short'), 'fixture.users[4]: apiKey must be 32 letters or digits'],
    ['an unreadable join date', (f) => ((f.users as Array<Record<string, Json>>)[5]!.dateJoined = 'soon'), 'fixture.users[5].dateJoined: not a date: soon'],
    ['a bot owner who is not a user', (f) => ((f.bots as Array<Record<string, Json>>)[0]!.owner = 'nobody@zulip.com'), 'fixture.bots[0]: no user with email nobody@zulip.com'],
    ['a subscriber who is not a user', (f) => ((f.channels as Array<Record<string, Json>>)[2]!.subscribers = ['nobody@zulip.com']), 'fixture.channels[2]: no user with email nobody@zulip.com'],
  ];
  for (const [what, change, message] of cases) {
    const fixture = devJson();
    change(fixture);
    t.throws(() => build(JSON.stringify(fixture)), { name: 'FixtureError', message: new RegExp(`^${message.replace(/[[\]().]/g, '\\$&')}`) }, what);
  }
  t.throws(() => parseFixture('{"realm": '), FixtureError, 'text that is not JSON');
});

t.test('fixture users are built whole: bots keep their owner and visibility, members their role groups', async (t) => {
  const world = build(DEV_TEXT);
  const bot = world.usersByEmail.get('default-bot@zulip.com');
  t.equal(bot?.botOwnerId, world.usersByEmail.get('desdemona@zulip.com')?.id);
  t.equal(bot?.settings.get('email_address_visibility'), 1);
  const hamlet = world.usersByEmail.get('hamlet@zulip.com');
  t.not(hamlet?.settings.get('email_address_visibility'), 1, 'humans keep the realm default');
  const members = world.groups.get(world.systemGroupId('role:members'))?.members;
  t.ok(hamlet && members?.has(hamlet.id));
  const notification = [...world.users.values()].find((user) => user.isSystemBot);
  t.ok(notification && !members?.has(notification.id), 'system bots are in no role group');
});

t.test("a fixture channel's description is rendered on first use as it would have been at load", async (t) => {
  const world = build(DEV_TEXT);
  const denmark = world.streamByName('Denmark');
  t.equal(denmark?.renderedDescription, null, 'not rendered at load');
  t.equal(denmark && channelDescriptionHtml(denmark), renderMarkdown(denmark?.description ?? ''));
  t.equal(denmark?.renderedDescription, renderMarkdown(denmark?.description ?? ''), 'kept once rendered');
});

t.test('lower-casing changes the length of no character but U+0130 (what name lookups skip by)', async (t) => {
  const changing: number[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const text = String.fromCodePoint(code);
    if (text.toLowerCase().length !== text.length) changing.push(code);
  }
  t.same(changing, [0x130]);
});
