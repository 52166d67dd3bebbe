/**
 * The chat-conformance program run in-process (its `main`, no child process): captured stdout and
 * stderr, and an embedded server that may be deliberately broken.
 */
import { type CliIo, main } from '../../conformance/cli/main.js';
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
}

export async function runCliInProcess(argv: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  let serversStarted = 0;
  const io: CliIo = {
    argv,
    env: options.env ?? {},
    version: '9.9.9-test',
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
      const { app, handler } = brokenApp(options.mutate, featureLevel);
      return { handler, close: () => app.close() };
    },
  };
  const code = await main(io);
  return { code, stdout, stderr, serversStarted };
}
