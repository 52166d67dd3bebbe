/**
 * Runs a share of the test files in this process. Starting a process per file costs about a
 * second and a half of CPU for node and tap's loaders, a third of the whole run with 130 files on
 * a two-core machine; a few shards share that cost. Files are dealt out by name, so every file
 * lands in exactly one shard and a new file needs no registration. A single file still runs on
 * its own with `npx tap dist/test/<name>.test.js`.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';

const TEST_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The compiled test files of `test/` (not the shards), sorted by name. */
export function testFiles(): string[] {
  return readdirSync(TEST_DIR)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
}

/** Imports the files whose position modulo `count` is `index`; their tests run in this process. */
export async function runShard(index: number, count: number): Promise<void> {
  const mine = testFiles().filter((_, i) => i % count === index);
  for (const name of mine) {
    t.comment(`file: test/${name.replace(/\.js$/, '.ts')}`);
    await import(pathToFileURL(`${TEST_DIR}${name}`).href);
  }
}
