/**
 * One bash process that runs documentation snippets one after another, as a reader pasting them
 * into one shell would: variables set by a snippet stay for the next ones. Every snippet runs
 * under `set -euo pipefail`, and every `curl` it calls is recorded (its response body) while its
 * output still flows where the snippet sends it, so the snippet text stays exactly as documented.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What one snippet did: the body of each curl it ran, in order. */
export interface SnippetRun {
  readonly responses: readonly string[];
}

const RECORD_SEPARATOR = '\x1e';
const DONE = '\x1fsnippet-done\n';

/**
 * Snippets arrive on fd 3, NUL-terminated; commands get /dev/null as standard input so no
 * command can swallow the next snippet. `pinned` variables are set back after each snippet
 * (a snippet may set them to the documented values, which the test replaces).
 */
const runner = (pinned: readonly string[]): string => `
set -euo pipefail
shopt -s inherit_errexit
exec 3<&0 </dev/null
curl() {
  local status=0
  command curl "$@" | tee -a "$CURL_LOG" || status=$?
  printf '\\036' >> "$CURL_LOG"
  return "$status"
}
while IFS= read -r -d '' snippet <&3; do
  eval "$snippet"
  ${pinned.map((name) => `${name}=$PINNED_${name}`).join('; ') || ':'}
  printf '\\n\\037snippet-done\\n'
done
`;

/** Whether `command --version` runs here (to skip, visibly, when a tool is missing). */
export const commandAvailable = (command: string): boolean => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;

export class ShellSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly logPath: string;
  private stdout = '';
  private stderr = '';
  private recorded = 0;
  private exited: { code: number | null } | undefined;
  private wake: (() => void) | undefined;

  /**
   * Starts bash in `cwd`. `env` is added to the environment; each name in `pinned` is also
   * restored to its `env` value after every snippet.
   */
  constructor(cwd: string, env: Readonly<Record<string, string>>, pinned: readonly string[] = []) {
    this.logPath = join(cwd, '.curl-responses');
    writeFileSync(this.logPath, '');
    const pins = Object.fromEntries(pinned.map((name) => [`PINNED_${name}`, env[name] ?? '']));
    this.child = spawn('bash', ['-c', runner(pinned)], { cwd, env: { ...process.env, ...env, ...pins, CURL_LOG: this.logPath } });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.note(() => (this.stdout += chunk)));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => this.note(() => (this.stderr += chunk)));
    this.child.on('exit', (code) => this.note(() => (this.exited = { code })));
  }

  private note(update: () => void): void {
    update();
    this.wake?.();
  }

  /** Runs one snippet to its end; rejects with bash's error output when the snippet fails. */
  async run(snippet: string): Promise<SnippetRun> {
    if (snippet.includes('\0')) throw new Error('a snippet cannot contain NUL');
    this.stdout = '';
    this.stderr = '';
    this.child.stdin.write(`${snippet}\0`);
    while (!this.stdout.includes(DONE)) {
      if (this.exited) {
        const answers = this.newRecords().join('\n') || '(none)';
        throw new Error(`bash exited with ${this.exited.code}: ${this.stderr.trim() || '(no error output)'}; curl answers before the failure: ${answers}`);
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return { responses: this.newRecords() };
  }

  /** The curl responses recorded since the last call. */
  private newRecords(): string[] {
    const records = readFileSync(this.logPath, 'utf8').split(RECORD_SEPARATOR).slice(0, -1);
    const fresh = records.slice(this.recorded);
    this.recorded = records.length;
    return fresh;
  }

  /** Ends the shell (closing its input ends the loop) and waits for it. */
  async close(): Promise<void> {
    this.child.stdin.end();
    while (!this.exited) await new Promise<void>((resolve) => (this.wake = resolve));
  }
}
