/**
 * Creating a report or reproduction folder with its missing parents. Node's own recursive mkdir
 * never returns where a parent exists but refuses new entries with ENOENT (anywhere under
 * `/proc`): it creates the parent again and again. Here each missing folder is made once, from
 * the nearest one that exists, so such a path fails at once with the system's error.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** Makes `dir` and its missing parents; throws the first system error (ENOENT, ENOTDIR, EACCES...). */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let current = resolve(dir); ; current = dirname(current)) {
    try {
      if (statSync(current).isDirectory()) break;
      throw Object.assign(new Error(`not a folder: ${current}`), { code: 'ENOTDIR' });
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
    }
    if (dirname(current) === current) break;
    missing.push(current);
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error;
    }
  }
}
