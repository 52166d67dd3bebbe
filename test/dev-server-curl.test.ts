/**
 * The curl blocks of docs/dev-server.md's "Steering it" section work as printed: each runs, in
 * order, in one bash (`set -euo pipefail`) against a development server, and does what the text
 * around it says (faults registered and cleared, the clock advanced, queues expired, the state
 * exported to a file and imported back).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { type RunningServer, startServer } from '../server/index.js';
import { registerQueue } from './support/dev-http.js';
import { checkStepsCoverBlocks, runBlocks, shBlocks, type SnippetStep } from './support/doc-snippets.js';
import { commandAvailable, ShellSession } from './support/shell-session.js';

type Json = Record<string, unknown>;

const page = readFileSync(new URL('../../docs/dev-server.md', import.meta.url), 'utf8');
const section = page.slice(page.indexOf('\n### Steering it\n'), page.indexOf('\n## Limits, backpressure and shutdown\n'));
const blocks = shBlocks(section);

interface Step extends SnippetStep {
  check(t: Test, server: RunningServer, responses: readonly string[], dir: string): void | Promise<void>;
}

const json = (text: string | undefined): Json => JSON.parse(text ?? '{}') as Json;
const allSucceeded = (t: Test, responses: readonly string[]) => t.same(responses.map((text) => json(text).result), responses.map(() => 'success'), 'every curl answered "result":"success"');

const STEPS: readonly Step[] = [
  {
    block: /^SITE=/m,
    says: "the setup names npm start's URL",
    check: (t) => t.equal(/^SITE=(\S+)/m.exec(blocks[0]!)?.[1], 'http://127.0.0.1:9991'),
  },
  {
    block: /Prefer: code=500/,
    says: 'three faults are registered, and Prefer: code=500 injects a 500 for one request',
    check(t, _server, responses) {
      allSucceeded(t, responses.slice(0, 3));
      t.same(responses.slice(0, 3).map((text) => (json(text).fault as Json).status), [503, 429, null]);
      t.match(responses[3], /^HTTP\/1\.1 500 [\s\S]*^x-injected-fault: prefer\r?$/im);
    },
  },
  {
    block: /DELETE "\$SITE\/__dev\/faults"/,
    says: 'the faults are listed, then cleared',
    check(t, _server, responses) {
      allSucceeded(t, responses);
      t.equal((json(responses[0]).faults as Json[]).length, 3);
      t.equal(json(responses[1]).cleared, 3);
    },
  },
  {
    block: /__dev\/clock\/advance/,
    says: 'the clock reads real time, then an hour ahead',
    check(t, _server, responses) {
      allSucceeded(t, responses);
      t.same([json(responses[0]).advanced_ms, json(responses[1]).advanced_ms], [0, 3_600_000]);
    },
  },
  {
    block: /__dev\/queues\/restart/,
    says: 'both queues get a restart and a web reload, and the server generation moves on',
    check(t, server, responses) {
      allSucceeded(t, responses);
      t.same(json(responses[0]).queues, 2);
      t.equal(json(responses[0]).server_generation, server.app.serverGeneration);
    },
  },
  {
    block: /__dev\/queues\/expire/,
    says: "the queues are listed, hamlet's expired, then the rest",
    check(t, _server, responses) {
      allSucceeded(t, responses);
      const listed = json(responses[0]).queues as Array<{ queue_id: string; email: string }>;
      t.equal(listed.length, 2);
      t.same(json(responses[1]).expired, listed.filter((queue) => queue.email === 'hamlet@zulip.com').map((queue) => queue.queue_id));
      t.same(json(responses[2]).expired, listed.filter((queue) => queue.email !== 'hamlet@zulip.com').map((queue) => queue.queue_id));
    },
  },
  {
    block: /__dev\/state/,
    says: 'the state is saved to state.json and imported back',
    check(t, server, responses, dir) {
      t.ok(existsSync(join(dir, 'state.json')));
      t.match(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')), { format: 'chat-api-reference/world', version: 2 });
      t.match(json(responses[1]), { result: 'success', messages: server.world.messages.size });
    },
  },
];

t.test('every curl block of the section matches exactly one checked step, and every step has its block', async (t) => {
  checkStepsCoverBlocks(t, blocks, STEPS);
});

t.test('the curl blocks of the steering section run as printed against a development server', { skip: commandAvailable('curl') ? false : 'curl is not installed' }, async (t) => {
  const server = await startServer({ logger: () => undefined });
  const dir = mkdtempSync(join(tmpdir(), 'dev-server-curl-'));
  const shell = new ShellSession(dir, { SITE: server.url }, ['SITE']);
  t.teardown(async () => {
    await shell.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await registerQueue(server, 'hamlet@zulip.com');
  await registerQueue(server, 'iago@zulip.com');
  await runBlocks(t, shell, blocks, STEPS, (t, step, responses) => step.check(t, server, responses, dir));
});
