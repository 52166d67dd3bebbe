/**
 * `--state FILE`: the world saved as a snapshot (lib/state/world-snapshot.ts). At start the file
 * is checked whole (every problem listed with its JSON path; the file is then left as it is) and
 * its folder must accept a new file, so a server that could never save says so before it serves.
 * Saving writes a temporary file beside it, flushes it to disk, renames it over the old one and
 * flushes the folder: a crash or power cut at any moment leaves the old file or the new one,
 * never half of one. The file holds API keys and passwords, so it is readable by its owner only.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SnapshotError, checkSnapshot, snapshotWorld, type WorldSnapshot } from '../../lib/state/world-snapshot.js';
import type { World } from '../../lib/state/world.js';

/** The state file cannot be used; the message names the file and why. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

const FILE_MODE = 0o600;
const temporaryOf = (path: string): string => `${path}.tmp`;
const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);

const HINTS: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is not a folder',
  ENOSPC: 'the disk is full',
  EISDIR: 'it is a folder',
};

function cannot(what: string, path: string, error: unknown): StateFileError {
  const code = codeOf(error);
  return new StateFileError(`cannot ${what} the state file ${path}: ${code}${HINTS[code] ? ` (${HINTS[code]})` : ''}`);
}

/**
 * Checks that the file can be saved: it is not a folder, and its folder takes a new file (made
 * and removed again, under the name saving uses).
 */
export function checkStateFileWritable(path: string): void {
  try {
    if (statSync(path).isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw cannot('write', path, error);
  }
  const probe = temporaryOf(path);
  try {
    closeSync(openSync(probe, 'w', FILE_MODE));
    rmSync(probe, { force: true });
  } catch (error) {
    throw cannot('write', path, error);
  }
}

/** The snapshot saved in `path` (checked whole), or undefined when there is no such file yet. */
export function loadStateFile(path: string): WorldSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw cannot('read', path, error);
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
    if (!(error instanceof SnapshotError)) throw error;
    const problems = error.problems;
    const listed = problems.length === 1 ? problems[0] : `${problems.length} problems:\n${problems.map((problem) => `  ${problem}`).join('\n')}\n`;
    throw new StateFileError(`the state file ${path} cannot be loaded, it was left as it is: ${listed}`);
  }
}

/** The text saved for `world`, or a StateFileError when the world cannot be saved. */
function stateText(path: string, world: World): string {
  try {
    return `${JSON.stringify(snapshotWorld(world))}\n`;
  } catch (error) {
    if (error instanceof SnapshotError) throw new StateFileError(`cannot save the state file ${path}: ${error.message}`);
    // V8's longest string (about 512 MiB): a world this large does not fit one JSON document.
    if (error instanceof RangeError) throw new StateFileError(`cannot save the state file ${path}: the world is too large for one JSON document (${error.message})`);
    throw error;
  }
}

/** Flushes the folder, so that the rename itself survives a power cut (not possible everywhere). */
function syncFolder(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dirname(path), 'r');
    fsyncSync(fd);
  } catch {
    // Some systems cannot open or flush a folder; the rename is then as durable as they make it.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes the world to `path` atomically and durably, before returning (used on stop). */
export function saveStateFile(path: string, world: World): void {
  const text = stateText(path, world);
  const temporary = temporaryOf(path);
  try {
    const fd = openSync(temporary, 'w', FILE_MODE);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw cannot('save', path, error);
  }
  syncFolder(path);
}

/**
 * As saveStateFile, but only the snapshot is taken before returning the promise: the writing
 * happens while the server goes on answering (later changes are for the next save).
 */
export async function saveStateFileInBackground(path: string, world: World): Promise<void> {
  const text = stateText(path, world);
  const temporary = temporaryOf(path);
  try {
    const file = await open(temporary, 'w', FILE_MODE);
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw cannot('save', path, error);
  }
  syncFolder(path);
}
