/**
 * The project's import graph as dpdm reads it from the TypeScript sources: every `import`,
 * `import type`, `export ... from` and `import()` is an edge (types included: a type in the wrong
 * file is as much a circle as a value). Paths are relative to the root, with `/` separators.
 */
import { parseCircular, parseDependencyTree } from 'dpdm';
import { join } from 'node:path';

export interface ImportGraph {
  /** Each source file and the project files it imports. */
  readonly edges: ReadonlyMap<string, readonly string[]>;
  /** Each source file and the packages it imports, as written (`node:crypto`, `markdown-it`). */
  readonly packages: ReadonlyMap<string, readonly string[]>;
  /** Relative imports that resolve to no file: a graph missing them could hide a circle. */
  readonly unresolved: readonly string[];
  /** Import circles, each as the files along it (empty when there is none). */
  readonly cycles: readonly (readonly string[])[];
}

/** Reads the graph of the files `globs` match under `root`, resolving as `root/tsconfig.json` says. */
export async function importGraph(root: string, globs: readonly string[]): Promise<ImportGraph> {
  const tree = await parseDependencyTree([...globs], {
    cwd: root,
    context: root,
    tsconfig: join(root, 'tsconfig.json'),
    transform: false,
    skipDynamicImports: false,
  });
  const edges = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const [file, dependencies] of Object.entries(tree)) {
    if (dependencies === null) continue;
    const files: string[] = [];
    const named: string[] = [];
    for (const dependency of dependencies) {
      if (!dependency.request.startsWith('.')) named.push(dependency.request);
      else if (dependency.id === null) unresolved.push(`${file}: ${dependency.request}`);
      else files.push(dependency.id);
    }
    edges.set(file, files);
    packages.set(file, named);
  }
  return { edges, packages, unresolved, cycles: parseCircular(tree) };
}
