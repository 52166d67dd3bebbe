#!/usr/bin/env node
/**
 * `chat-conformance`: the conformance suite's command line. Everything lives in conformance/
 * (which never imports the server); this file only wires the embedded reference server in, for
 * runs without --base-url. Run with --help for the options.
 */
import { main } from '../conformance/cli/main.js';
import { createApp } from '../server/index.js';
import { makeRequest } from '../server/app/request.js';
import { packageVersion } from './package-version.js';

// A reader that stops early (`| head`) closes the pipe: end quietly instead of with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await main({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  version: packageVersion(),
  onSignal(listener) {
    let received = 0;
    const handle = (signal: 'SIGINT' | 'SIGTERM') => {
      // The first signal lets the run clean up; a second one means "now".
      if (++received > 1) process.exit(signal === 'SIGINT' ? 130 : 143);
      listener(signal);
    };
    const onInt = () => handle('SIGINT');
    const onTerm = () => handle('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    return () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
  },
  embedded(featureLevel) {
    const app = createApp({
      ...(featureLevel === undefined ? {} : { featureLevel }),
      logger: (message, error) => process.stderr.write(`embedded server: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
    });
    return {
      handler: async (request) =>
        app.handle(makeRequest(request.method, request.path, { headers: { ...request.headers }, body: request.body, signal: request.signal })),
      close: () => app.close(),
    };
  },
});
