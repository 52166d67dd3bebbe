/**
 * Rooms a newcomer can scan: no folder of lib/ or server/ holds more than 15 entries at its top,
 * so a folder that grows past that is split by concept rather than left to sprawl.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAX_ENTRIES = 15;

/** Every folder under `dir`, itself included, with the number of entries at its top. */
function folderSizes(dir: string): Array<[string, number]> {
  const entries = readdirSync(dir, { withFileTypes: true });
  const nested = entries.filter((entry) => entry.isDirectory()).flatMap((entry) => folderSizes(join(dir, entry.name)));
  return [[relative(ROOT, dir), entries.length], ...nested];
}

t.test(`no folder of lib/ or server/ has more than ${MAX_ENTRIES} entries at its top`, async (t) => {
  const folders = [...folderSizes(join(ROOT, 'lib')), ...folderSizes(join(ROOT, 'server'))];
  t.ok(folders.length > 20, `the folders were read (${folders.length})`);
  t.same(folders.filter(([, size]) => size > MAX_ENTRIES).map(([folder, size]) => `${folder}: ${size}`), []);
});
