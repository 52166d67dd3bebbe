/**
 * What the `chat-conformance` program gets from its host: arguments, environment, output streams,
 * signals and the embedded server. The bin wires the process; tests pass their own.
 */
import type { ProgressStream } from '../report/progress.js';
import type { InProcessHandler } from '../targets/in-process.js';

export interface EmbeddedServer {
  readonly handler: InProcessHandler;
  close(): void;
}

export interface CliIo {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: ProgressStream;
  readonly stderr: ProgressStream;
  /** Starts the embedded reference server emulating `featureLevel` (default: its newest). */
  readonly embedded: (featureLevel: number | undefined) => EmbeddedServer;
  /** Where a default config file is looked up and relative paths are read from (default: the process's). */
  readonly cwd?: string;
  /** What `--version` prints (the package's version). */
  readonly version?: string;
  /**
   * Subscribes to SIGINT/SIGTERM for the duration of a run (the bin wires the process's signals;
   * tests call the listener); returns the unsubscribe function.
   */
  readonly onSignal?: (listener: (signal: 'SIGINT' | 'SIGTERM') => void) => () => void;
}
