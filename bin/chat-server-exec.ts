/**
 * `chat-server --exec CMD` and `--write-zuliprc DIR`: a command run against the started server
 * (its URL and a development user's credentials in the environment, as python-zulip-api and
 * zulip-js read them), and one zuliprc file per development user for bots that read one.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import type { World } from '../lib/state/world.js';

/**
 * What `--exec` adds to the command's environment: the URL, and the user's credentials as
 * `ZULIP_EMAIL`/`ZULIP_API_KEY`, or with zuliprc files as `ZULIP_CONFIG` (that user's file), since
 * python-zulip-api lets the two variables override any `config_file` a bot names.
 */
export function execEnvironment(url: string, user: { email: string; apiKey: string } | undefined, zuliprcDir: string | undefined): Record<string, string> {
  const credentials: Record<string, string> = !user ? {} : zuliprcDir === undefined ? { ZULIP_EMAIL: user.email, ZULIP_API_KEY: user.apiKey } : { ZULIP_CONFIG: join(zuliprcDir, zuliprcName(user.email)) };
  return { CHAT_SERVER_URL: url, ZULIP_SITE: url, ...credentials };
}

/**
 * Runs `command` through the shell with `env` added, forwarding SIGINT and SIGTERM to it; resolves
 * to its exit status (128 + the signal's number when a signal ended it, 127 when it could not start).
 */
export function runCommand(command: string, env: Readonly<Record<string, string>>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: 'inherit', env: { ...process.env, ...env } });
    const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    const done = (status: number) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(status);
    };
    child.on('error', () => done(127));
    child.on('exit', (code, signal) => done(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  });
}

/** `hamlet@zulip.com` -> `hamlet@zulip.com.zuliprc`. */
export const zuliprcName = (email: string): string => `${email.replace(/[^A-Za-z0-9@._+-]/g, '_')}.zuliprc`;

/**
 * Writes `DIR/<email>.zuliprc` (`[api]` email, key, site; readable by the owner only) for every
 * active user and bot of the world, system bots left out. Returns the number written.
 */
export function writeZuliprcs(dir: string, world: World, url: string): number {
  mkdirSync(dir, { recursive: true });
  let written = 0;
  for (const user of world.users.values()) {
    if (!user.isActive || user.isSystemBot) continue;
    const path = join(dir, zuliprcName(user.deliveryEmail));
    writeFileSync(path, `[api]\nemail=${user.deliveryEmail}\nkey=${user.apiKey}\nsite=${url}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
    written++;
  }
  return written;
}
