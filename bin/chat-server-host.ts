/**
 * `chat-server --host`: a name that does not resolve, or an address this machine does not have,
 * is a usage error with a sentence, not a stack trace; a resolver that does not answer is given
 * up on after a few seconds instead of leaving the server starting forever.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** How long a name may take to resolve before chat-server gives up. */
export const HOST_LOOKUP_TIMEOUT_MS = 10_000;

const LOOKUP_FAILURES: Readonly<Record<string, string>> = {
  ENOTFOUND: 'no such host name',
  EAI_NONAME: 'no such host name',
  EAI_AGAIN: 'the name resolver did not answer; try again or give an address',
  EAI_FAIL: 'the name resolver failed',
  ENODATA: 'the name has no address',
};

const LISTEN_FAILURES: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is taken',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'not an address of this machine',
  EAFNOSUPPORT: 'this machine does not support that kind of address',
  EINVAL: 'not an address to listen on',
  ...LOOKUP_FAILURES,
};

/** Why `host` cannot be used, or undefined when it resolves (IP addresses always do). */
export async function hostProblem(host: string, timeoutMs = HOST_LOOKUP_TIMEOUT_MS): Promise<string | undefined> {
  if (isIP(host) !== 0) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`--host ${host}: the name did not resolve within ${timeoutMs / 1000} s`), timeoutMs);
  });
  const resolved = lookup(host).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => `--host ${host}: cannot resolve it (${error.code ?? error.message}${error.code && LOOKUP_FAILURES[error.code] ? `: ${LOOKUP_FAILURES[error.code]}` : ''})`,
  );
  try {
    return await Promise.race([resolved, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The sentence for an error from listening on host:port, or undefined for an error that is not about them. */
export function listenProblem(error: unknown, host: string, port: number): string | undefined {
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (code === undefined || !(syscall === 'listen' || syscall === 'bind' || syscall === 'getaddrinfo' || code in LISTEN_FAILURES)) return undefined;
  const hint = LISTEN_FAILURES[code];
  return `cannot listen on ${host}:${port}: ${code}${hint ? ` (${hint})` : ''}`;
}
