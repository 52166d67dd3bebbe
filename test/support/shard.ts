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

/**
 * Web globals a test file's dependencies may replace when loaded: zulip-js brings a package that
 * sets `FormData` to a Node stream implementation (zulip-js keeps its own reference to it), which
 * would break every later file building a multipart body with the standard one.
 */
const GUARDED_GLOBALS = ['FormData', 'Blob', 'fetch', 'Request', 'Response', 'Headers'] as const;

/** Runs the shard a shard file's name gives: `shard-3-of-8.test.js` is index 2 of 8. */
export async function runShardNamed(fileUrl: string): Promise<void> {
  const match = /shard-(\d+)-of-(\d+)\.test\.js$/.exec(fileUrl);
  if (!match) throw new Error(`not a shard file name: ${fileUrl}`);
  await runShard(Number(match[1]) - 1, Number(match[2]));
}

/** Imports the files whose position modulo `count` is `index`; their tests run in this process. */
export async function runShard(index: number, count: number): Promise<void> {
  const mine = testFiles().filter((_, i) => i % count === index);
  const globals = globalThis as unknown as Record<string, unknown>;
  const saved = new Map(GUARDED_GLOBALS.map((name) => [name, globals[name]]));
  for (const name of mine) {
    t.comment(`file: test/${name.replace(/\.js$/, '.ts')}`);
    await import(pathToFileURL(`${TEST_DIR}${name}`).href);
    for (const [global, value] of saved) globals[global] = value;
  }
}
