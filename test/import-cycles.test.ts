/**
 * No import circles in the shipped code (lib/, server/, conformance/, fixtures/, bin/), type-only
 * imports included, and the checker behind that claim does catch a circle: it is run on small
 * generated projects with and without one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { importGraph } from './support/import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHIPPED = ['lib/**/*.ts', 'server/**/*.ts', 'conformance/**/*.ts', 'fixtures/**/*.ts', 'bin/**/*.ts'];

/** A scratch project with these files and a tsconfig resolving `./x.js` to `x.ts`, as ours does. */
function scratchProject(t: Test, files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

t.test('lib/, server/, conformance/, fixtures/ and bin/ import no file that imports them back, types included', async (t) => {
  const graph = await importGraph(ROOT, SHIPPED);
  t.ok(graph.edges.size > 300, `the graph covers the sources (${graph.edges.size} files)`);
  t.same(graph.unresolved, [], 'every relative import resolves, so no edge is missing from the graph');
  t.same(graph.cycles.map((cycle) => cycle.join(' -> ')), []);
});

/** Scratch projects, and what the checker must find in each. */
const CASES: ReadonlyArray<{ title: string; files: Record<string, string>; cycles: string[][]; unresolved: string[] }> = [
  {
    title: 'the checker reports a circle made of type-only imports',
    files: {
      'a.ts': "import type { B } from './b.js';\nexport interface A { readonly b?: B }\n",
      'b.ts': "import type { A } from './a.js';\nexport interface B { readonly a?: A }\n",
    },
    cycles: [['a.ts', 'b.ts']],
    unresolved: [],
  },
  {
    title: 'the checker reports a longer circle through a re-export',
    files: {
      'a.ts': "import { c } from './c.js';\nexport const a = () => c;\n",
      'b.ts': "export { a } from './a.js';\n",
      'c.ts': "import { a } from './b.js';\nexport const c = () => a;\n",
    },
    cycles: [['a.ts', 'b.ts', 'c.ts']],
    unresolved: [],
  },
  {
    title: 'the checker reports no circle where imports run one way, and names an import it cannot resolve',
    files: {
      'a.ts': "import type { B } from './b.js';\nexport interface A { readonly b?: B }\n",
      'b.ts': "import { missing } from './gone.js';\nexport interface B { readonly n: number }\nexport const m = missing;\n",
    },
    cycles: [],
    unresolved: ['b.ts: ./gone.js'],
  },
];

for (const { title, files, cycles, unresolved } of CASES) {
  t.test(title, async (t) => {
    const graph = await importGraph(scratchProject(t, files), ['*.ts']);
    t.same(graph.cycles.map((cycle) => [...cycle].sort()), cycles);
    t.same(graph.unresolved, unresolved);
  });
}
