/**
 * `chat-conformance.toml` / `chat-conformance.json`: every command-line option, set in a file.
 * Keys are the long option names without `--` (`base-url`, `num-runs`, `reporter`); repeatable
 * options take a list; flags take true or false (`bootstrap = false` is `--no-bootstrap`). The file
 * is turned into command-line arguments, so its values are checked exactly as typed options are,
 * and an option given on the command line replaces the file's value (a list included).
 *
 * TOML is read with smol-toml: a small, dependency-free, spec-compliant parser (TOML 1.0, tested
 * against the official suite) whose errors carry line and column, which a hand-written reader of
 * TOML's strings, arrays and escapes would not match.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command, Option } from 'commander';
import { parse as parseToml, TomlError } from 'smol-toml';
import { UsageError } from '../errors.js';

/** Looked up in the working directory when no `--config` is given, in this order. */
export const DEFAULT_CONFIG_NAMES = ['chat-conformance.toml', 'chat-conformance.json'] as const;

/** Options that make no sense in a file. */
const NOT_IN_FILE = new Set(['config', 'help', 'version']);

/** The config file to read: `--config FILE`, else the default name found in `cwd`, else none. */
export function configPath(given: string | false | undefined, cwd: string): string | undefined {
  if (given === false) return undefined;
  if (given !== undefined) return resolve(cwd, given);
  const found = DEFAULT_CONFIG_NAMES.map((name) => join(cwd, name)).filter((path) => existsSync(path));
  if (found.length > 1) throw new UsageError(`both ${DEFAULT_CONFIG_NAMES.join(' and ')} are in ${cwd}: keep one, or choose with --config FILE`);
  return found[0];
}

/** The file's settings as a plain record (TOML or JSON by the file name). */
export function readConfig(path: string): ReadonlyMap<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--config: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let data: unknown;
  try {
    data = path.endsWith('.json') ? JSON.parse(text) : parseToml(text);
  } catch (error) {
    const where = error instanceof TomlError ? ` (line ${error.line}, column ${error.column})` : '';
    throw new UsageError(`${path} is not valid ${path.endsWith('.json') ? 'JSON' : 'TOML'}${where}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${path}: expected a table of options (key = value)`);
  return new Map(Object.entries(data));
}

/** The file's option key for a commander option: `--base-url` is `base-url`, `--no-bootstrap` is `bootstrap`. */
const keyOf = (option: Option): string => (option.long ?? '').replace(/^--(no-)?/, '');

export interface ConfigArguments {
  /** Command-line arguments per option (commander's attribute name), in the file's order. */
  readonly byOption: ReadonlyMap<string, readonly string[]>;
}

function scalar(value: unknown, key: string, path: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new UsageError(`${path}: ${key} must be a string or a number`);
}

/**
 * Turns the file's settings into arguments for `program`'s options. Unknown keys, lists for
 * options that take one value and non-boolean flags are refused, naming the file and the key.
 */
export function configArguments(settings: ReadonlyMap<string, unknown>, program: Command, repeatable: ReadonlySet<string>, path: string): ConfigArguments {
  const options = new Map<string, Option[]>();
  for (const option of program.options) {
    const key = keyOf(option);
    if (!NOT_IN_FILE.has(key)) options.set(key, [...(options.get(key) ?? []), option]);
  }
  const byOption = new Map<string, string[]>();
  for (const [key, value] of settings) {
    const candidates = options.get(key);
    if (!candidates) {
      const known = [...options.keys()].sort().join(', ');
      throw new UsageError(`${path}: unknown key '${key}' (keys are the long options without --: ${known})`);
    }
    const takesValue = candidates.find((option) => option.required || option.optional);
    if (!takesValue) {
      if (typeof value !== 'boolean') throw new UsageError(`${path}: ${key} must be true or false`);
      const option = candidates.find((candidate) => candidate.negate === !value);
      if (option) byOption.set(option.attributeName(), [option.long!]);
      continue;
    }
    const name = takesValue.attributeName();
    const values = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && !repeatable.has(key)) throw new UsageError(`${path}: ${key} takes one value, not a list`);
    byOption.set(name, values.flatMap((item) => [takesValue.long!, scalar(item, key, path)]));
  }
  return { byOption };
}
