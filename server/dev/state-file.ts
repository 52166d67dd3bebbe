/**
 * `--state FILE`: the world saved as a snapshot (lib/state/world-snapshot.ts). Loading refuses a file
 * that is not valid JSON or not a saved world with a clear error (so it is never overwritten by
 * a server that could not read it); saving writes a temporary file and renames it over the old
 * one, so a crash mid-write never leaves half a file.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { SnapshotError, checkSnapshot, snapshotWorld, type WorldSnapshot } from '../../lib/state/world-snapshot.js';
import type { World } from '../../lib/state/world.js';

/** The state file cannot be used; the message names the file and why. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

/** The snapshot saved in `path`, or undefined when there is no such file yet. */
export function loadStateFile(path: string): WorldSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new StateFileError(`cannot read the state file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text) as unknown;
  } catch (error) {
    throw new StateFileError(`the state file ${path} is not valid JSON (${(error as Error).message}); move it away or fix it, it was left as it is`);
  }
  try {
    return checkSnapshot(document);
  } catch (error) {
    if (error instanceof SnapshotError) throw new StateFileError(`the state file ${path} cannot be loaded: ${error.message}; it was left as it is`);
    throw error;
  }
}

/** Writes the world to `path` atomically (temporary file in the same folder, then rename). */
export function saveStateFile(path: string, world: World): void {
  const temporary = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(temporary, `${JSON.stringify(snapshotWorld(world))}\n`);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new StateFileError(`cannot save the state file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
