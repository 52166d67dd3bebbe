/**
 * Dependencies point one way. Inside lib/ every import (type-only ones included) goes to the same
 * layer or one below it, in the order docs/architecture.md draws; across the top folders, server/
 * builds on lib/, lib/ never reaches the HTTP side, and conformance/ stands alone. A lib/ folder
 * that no layer names fails too, so a new room is placed on purpose.
 */
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { importGraph } from './support/import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The layers of lib/, bottom first; a file may import its own layer and those below. Folders in
 * one layer may import each other (the cycle test keeps the files from going round).
 */
const LIB_LAYERS: ReadonlyArray<readonly string[]> = [
  ['errors.ts', 'features', 'data'], // what everything may throw, gate on or look up
  ['entities'], // the records, with the rules that need nothing but the record
  ['state'], // the world: its maps, clock, ID and key allocation, the hub it announces changes through
  ['settings'], // setting tables and defaults, read off the world
  ['input'], // request values parsed and checked, some against the world (names, emoji, group settings)
  ['patterns', 'uploads'], // RE2 checks, linkifier patterns and URI templates; upload names and tokens
  ['rendering'], // markdown to HTML as the realm would store it, HTML diffs, generated links
  ['queries', 'narrow'], // reads and API shapes; the narrow builder and search that message fetches use
  ['events'], // event queues: per-client filtering and shaping of what the hub sent
  ['actions'], // the only writers: check, then change, then emit
  ['fixture'], // building a world from a realm fixture, through the actions
];

/** Which top folders each top folder may import (its own always). `bin/` may import every one. */
const TOP_FOLDERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['lib', []],
  ['fixtures', ['lib']],
  ['server', ['lib', 'fixtures']],
  ['conformance', []],
  ['bin', ['lib', 'fixtures', 'server', 'conformance']],
]);

/** Packages lib/ may use: the model does no I/O, so of node's modules only crypto (IDs, keys). */
const LIB_NODE_MODULES = new Set(['node:crypto']);

const graph = await importGraph(ROOT, [...TOP_FOLDERS.keys()].map((folder) => `${folder}/**/*.ts`));

/** The layer of a lib/ file: its position in LIB_LAYERS by its first path segment under lib/. */
function layerOf(file: string): number {
  const room = file.split('/')[1] ?? '';
  return LIB_LAYERS.findIndex((layer) => layer.includes(room));
}

t.test('every lib/ file belongs to a layer', async (t) => {
  const libFiles = [...graph.edges.keys()].filter((file) => file.startsWith('lib/'));
  t.ok(libFiles.length > 200, `lib/ was read (${libFiles.length} files)`);
  t.same(libFiles.filter((file) => layerOf(file) < 0), []);
});

/** Imports from a lib/ file to a lib/ file in a higher layer. */
function upwardImports(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const upward: string[] = [];
  for (const [file, targets] of edges) {
    if (!file.startsWith('lib/')) continue;
    for (const target of targets) if (target.startsWith('lib/') && layerOf(target) > layerOf(file)) upward.push(`${file} -> ${target}`);
  }
  return upward;
}

/** Imports from one top folder into another that TOP_FOLDERS does not allow it. */
function crossingImports(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const crossing: string[] = [];
  for (const [file, targets] of edges) {
    const from = file.split('/')[0]!;
    const allowed = TOP_FOLDERS.get(from) ?? [];
    for (const target of targets) {
      const to = target.split('/')[0]!;
      if (to !== from && !allowed.includes(to)) crossing.push(`${file} -> ${target}`);
    }
  }
  return crossing;
}

t.test('every import inside lib/ goes to the same layer or one below it', async (t) => {
  t.same(upwardImports(graph.edges), []);
});

t.test('top folders import only what they build on: lib/ and conformance/ stand alone', async (t) => {
  t.same(crossingImports(graph.edges), []);
});

t.test("lib/ does no I/O: of node's modules it imports only crypto", async (t) => {
  const io: string[] = [];
  for (const [file, requests] of graph.packages) {
    if (!file.startsWith('lib/')) continue;
    for (const request of requests) if (request.startsWith('node:') && !LIB_NODE_MODULES.has(request)) io.push(`${file} -> ${request}`);
  }
  t.same(io, []);
});

t.test('the checks name an upward or crossing import, and pass downward and same-layer ones', async (t) => {
  const edges = new Map([
    ['lib/state/world.ts', ['lib/events/queues.ts', 'lib/entities/user.ts']],
    ['lib/narrow/lookups.ts', ['lib/queries/users/users.ts']],
    ['lib/queries/messages/message-fetch.ts', ['lib/narrow/search.ts', 'server/app/app.ts']],
    ['conformance/runner.ts', ['lib/errors.ts']],
    ['server/app/app.ts', ['lib/errors.ts']],
  ]);
  t.same(upwardImports(edges), ['lib/state/world.ts -> lib/events/queues.ts']);
  t.same(crossingImports(edges), ['lib/queries/messages/message-fetch.ts -> server/app/app.ts', 'conformance/runner.ts -> lib/errors.ts']);
});
