/**
 * The chat-conformance program run in-process (its `main`, no child process): captured stdout and
 * stderr, and an embedded server that may be deliberately broken; or as a real process.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type CliIo, main } from '../../conformance/cli/main.js';
import type { CreateAppOptions } from '../../server/index.js';
import { brokenApp, type Mutation } from './conformance.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** How many embedded servers the run started (0: it ended before touching a target). */
  readonly serversStarted: number;
}

export interface CliRunOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly mutate?: Mutation;
  readonly isTTY?: boolean;
  /** Called with each stdout write, in order. */
  readonly onStdout?: (text: string) => void;
  /** Further options of the embedded server (a tight API rate limit, ...). */
  readonly app?: CreateAppOptions;
  /** The working directory the program sees (a default config file is looked up there). */
  readonly cwd?: string;
}

export async function runCliInProcess(argv: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  let serversStarted = 0;
  const io: CliIo = {
    argv,
    env: options.env ?? {},
    version: '9.9.9-test',
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdout: {
      isTTY: options.isTTY ?? false,
      write: (text: string) => {
        stdout += text;
        options.onStdout?.(text);
      },
    },
    stderr: { isTTY: false, write: (text: string) => void (stderr += text) },
    embedded(featureLevel) {
      serversStarted++;
      const { app, handler } = brokenApp(options.mutate, featureLevel, options.app);
      return { handler, close: () => app.close() };
    },
  };
  const code = await main(io);
  return { code, stdout, stderr, serversStarted };
}

const BIN = fileURLToPath(new URL('../../bin/chat-conformance.js', import.meta.url));

/** The chat-conformance program as a real process: no credentials from the environment unless `env` gives them. */
export function runCliProcess(args: readonly string[], options: { env?: Readonly<Record<string, string>>; cwd?: string } = {}): Promise<Omit<CliRun, 'serversStarted'>> {
  const env = { ...process.env, ZULIP_EMAIL: '', ZULIP_API_KEY: '', HTTPS_PROXY: '', HTTP_PROXY: '', https_proxy: '', http_proxy: '', NO_PROXY: '', no_proxy: '', ...options.env };
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, ...(options.cwd ? { cwd: options.cwd } : {}), maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}
