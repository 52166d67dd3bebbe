/**
 * The chat-server program run as a real process: `run` for a command that exits, `start` for a
 * server (resolved once its banner gives the URL).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/chat-server.js', import.meta.url));
/** The package folder (where `npm start` runs). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const HAMLET_KEY = (JSON.parse(readFileSync(fileURLToPath(new URL('../../../fixtures/dev-realm.json', import.meta.url)), 'utf8')) as { users: Array<{ email: string; apiKey: string }> }).users.find(
  (user) => user.email === 'hamlet@zulip.com',
)!.apiKey;
/** Basic credentials of hamlet in the development realm. */
export const HAMLET_AUTH = `Basic ${Buffer.from(`hamlet@zulip.com:${HAMLET_KEY}`).toString('base64')}`;

export interface Finished {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function run(args: readonly string[], timeoutMs = 60_000): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: timeoutMs }, (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }));
  });
}

export interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  output(): string;
  readonly exited: Promise<number | null>;
}

/** Starts `command args` (chat-server on a free port by default) and resolves with its URL once the banner is out. */
export function start(args: readonly string[], command: readonly string[] = [process.execPath, BIN, '--port', '0'], cwd?: string): Promise<Running> {
  const [file, ...leading] = command as [string, ...string[]];
  const child = spawn(file, [...leading, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ child, url, output: () => output, exited });
    });
    void exited.then((code) => reject(new Error(`${file} exited with ${code}: ${output}`)));
  });
}

/** Sends a channel message as hamlet; resolves with its ID. */
export async function sendAsHamlet(url: string, content: string): Promise<number> {
  const reply = await fetch(`${url}/api/v1/messages`, {
    method: 'POST',
    headers: { authorization: HAMLET_AUTH, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'stream', to: 'Denmark', topic: 'durability', content }),
  });
  return ((await reply.json()) as { id: number }).id;
}

/** The content of a message as hamlet reads it (undefined when it does not exist). */
export async function contentAsHamlet(url: string, id: number): Promise<string | undefined> {
  const reply = await fetch(`${url}/api/v1/messages/${id}`, { headers: { authorization: HAMLET_AUTH } });
  return ((await reply.json()) as { message?: { content?: string } }).message?.content;
}
