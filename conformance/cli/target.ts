/** The target a CLI run talks to: the embedded server (in-process), or `--base-url` with its connection options. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { makeTarget } from '../index.js';
import { HeaderDispatcher, parseHeaders } from '../targets/connection.js';
import type { Target } from '../targets/target.js';
import type { CliIo } from './io.js';
import type { CliOptions } from './options.js';

function readCa(file: string, cwd: string): string {
  try {
    return readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(`--ca-file: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** Opens the target; `close` releases it and stops the embedded server. */
export function openTarget(options: CliOptions, io: CliIo): { target: Target; close: () => Promise<void> } {
  const headers = parseHeaders(options.headers);
  if (options.baseUrl !== undefined) {
    const cwd = io.cwd ?? process.cwd();
    const target = makeTarget({
      baseUrl: options.baseUrl,
      connection: {
        headers,
        env: io.env,
        ...(options.proxy === undefined ? {} : { proxy: options.proxy }),
        ...(options.caFile === undefined ? {} : { ca: readCa(options.caFile, cwd) }),
        ...(options.insecure ? { insecure: true } : {}),
      },
    });
    return { target, close: () => target.close() };
  }
  const embedded = io.embedded(options.serverFeatureLevel);
  const inner = makeTarget({ handler: embedded.handler });
  const target = Object.keys(headers).length === 0 ? inner : { ...inner, dispatcher: new HeaderDispatcher(inner.dispatcher, headers) };
  return {
    target,
    close: async () => {
      await target.dispatcher.close();
      embedded.close();
    },
  };
}
