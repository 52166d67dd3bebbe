/**
 * Where reports go: `--reporter NAME` (stdout) or `--reporter NAME=FILE`, repeatable, plus the
 * older `--output FILE` for the one reporter given without a file. Files are opened before the
 * run, so a path that cannot be written (its folder must exist) ends the run with status 2 before
 * any request is sent.
 */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { makeDirectory } from '../report/directory.js';
import { isReportFormat, type ReportFormat } from '../report/index.js';

export interface ReportChoice {
  readonly format: ReportFormat;
  /** Absent: standard output. */
  readonly path?: string;
}

/** Parses one `--reporter` value: `spec`, `junit=report.xml`. */
export function parseReportChoice(text: string): ReportChoice {
  const equals = text.indexOf('=');
  const format = equals === -1 ? text : text.slice(0, equals);
  const path = equals === -1 ? undefined : text.slice(equals + 1);
  if (!isReportFormat(format)) throw new UsageError(`--reporter: unknown format '${format}' (expected spec, tap, json, junit or html)`);
  if (path === '') throw new UsageError(`--reporter ${text}: the file name is missing`);
  return path === undefined ? { format } : { format, path };
}

export interface ReportOutput {
  readonly format: ReportFormat;
  /** Absent: standard output. */
  readonly path?: string;
  write(text: string): void;
  close(): void;
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

function fileOutput(format: ReportFormat, path: string): ReportOutput {
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (error) {
    throw new UsageError(`cannot write the ${format} report to ${path}: ${describeFsError(error)}`);
  }
  let open = true;
  return {
    format,
    path,
    write: (text) => void writeSync(fd, text),
    close: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/**
 * Opens every destination. `fallback` is the format used when no `--reporter` was given. At most
 * one report may go to stdout (two would interleave).
 */
export function openOutputs(
  choices: readonly ReportChoice[],
  output: string | undefined,
  fallback: ReportFormat,
  stdout: { write(text: string): unknown },
): ReportOutput[] {
  let resolved = choices.length > 0 ? [...choices] : [{ format: fallback }];
  if (output !== undefined) {
    const unplaced = resolved.filter((choice) => choice.path === undefined);
    if (unplaced.length !== 1) throw new UsageError('--output names the file of the one reporter given without =FILE; use --reporter NAME=FILE for each');
    resolved = resolved.map((choice) => (choice.path === undefined ? { format: choice.format, path: output } : choice));
  }
  if (resolved.filter((choice) => choice.path === undefined).length > 1) {
    throw new UsageError('only one reporter can write to stdout; give the others a file (--reporter junit=report.xml)');
  }
  const paths = resolved.flatMap((choice) => (choice.path === undefined ? [] : [choice.path]));
  const duplicate = paths.find((path, i) => paths.indexOf(path) !== i);
  if (duplicate !== undefined) throw new UsageError(`two reporters write to ${duplicate}`);
  const opened: ReportOutput[] = [];
  try {
    for (const choice of resolved) {
      opened.push(choice.path === undefined ? { format: choice.format, write: (text) => void stdout.write(text), close: () => undefined } : fileOutput(choice.format, choice.path));
    }
  } catch (error) {
    for (const done of opened) done.close();
    throw error;
  }
  return opened;
}

/** Creates `--repro-dir` (and checks that it can be written) before the run. */
export function prepareDirectory(dir: string, flag: string): void {
  try {
    makeDirectory(dir);
    const probe = join(dir, '.chat-conformance-probe');
    closeSync(openSync(probe, 'w'));
    rmSync(probe, { force: true });
  } catch (error) {
    throw new UsageError(`${flag} ${dir}: cannot write there: ${describeFsError(error)}`);
  }
}

/** Whether colours apply to a report on `stream`: --no-color and NO_COLOR win, FORCE_COLOR forces. */
export function colorWanted(flag: boolean | undefined, env: Readonly<Record<string, string | undefined>>, isTTY: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return isTTY === true;
}
