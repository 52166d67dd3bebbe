/**
 * The README's "Try it with curl" blocks work as printed: each block runs, in order, in one bash
 * (`set -euo pipefail`) against a development server, every curl in it answers success, and
 * the server's state changes as the text around the block says.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { type RunningServer, startServer } from '../server/index.js';
import { checkStepsCoverBlocks, runBlocks, shBlocks, type SnippetStep } from './support/doc-snippets.js';
import { commandAvailable, ShellSession } from './support/shell-session.js';

type Json = Record<string, unknown>;

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The section's text: from its heading to the next heading of level 1 to 3. */
function section(title: string): string {
  const start = readme.indexOf(`\n${title}\n`);
  if (start < 0) throw new Error(`README has no "${title}" section`);
  const rest = readme.slice(start + title.length + 2);
  const end = rest.search(/^#{1,3} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

const blocks = shBlocks(section('### Try it with curl'));

/** What the blocks leave behind for later checks, as a reader's shell variables would. */
interface Seen {
  denmarkId?: number;
  messageId?: number;
  botKey?: string;
}

interface Step extends SnippetStep {
  check(t: Test, server: RunningServer, responses: readonly Json[], seen: Seen): void;
}

const iago = (server: RunningServer) => server.world.usersByEmail.get('iago@zulip.com')!;
const curlBot = (server: RunningServer) => [...server.world.users.values()].find((user) => user.fullName === 'Curl Bot');
const curlDot = (server: RunningServer) => [...server.world.realmEmoji.values()].find((emoji) => emoji.name === 'curl_dot');

const STEPS: readonly Step[] = [
  {
    block: /^SITE=/m,
    says: 'the setup names npm start\'s URL and iago\'s real credentials',
    check(t, server) {
      const value = (name: string) => new RegExp(`^${name}=(\\S+)`, 'm').exec(blocks[0]!)?.[1];
      t.equal(value('SITE'), 'http://127.0.0.1:9991');
      t.equal(value('EMAIL'), 'iago@zulip.com');
      t.equal(value('KEY'), iago(server).apiKey);
    },
  },
  {
    block: /GET -G "\$SITE\/api\/v1\/streams"/,
    says: 'listing channels shows Denmark',
    check(t, _server, [list]) {
      t.ok((list!.streams as Json[]).some((s) => s.name === 'Denmark'));
    },
  },
  {
    block: /get_stream_id/,
    says: 'Denmark is found by name, then fetched by ID',
    check(t, server, [found, fetched], seen) {
      seen.denmarkId = server.world.streamByName('Denmark')!.id;
      t.equal(found!.stream_id, seen.denmarkId);
      t.match(fetched!.stream, { stream_id: seen.denmarkId, name: 'Denmark' });
    },
  },
  {
    block: /PATCH "\$SITE\/api\/v1\/streams\//,
    says: 'Denmark is renamed Danmark, with the new description',
    check(t, server, _responses, seen) {
      t.equal(server.world.streamByName('Denmark'), undefined);
      t.match(server.world.streamByName('Danmark'), { id: seen.denmarkId, description: 'Everything about Danish design' });
    },
  },
  {
    block: /POST "\$SITE\/api\/v1\/messages"/,
    says: 'the message is sent to Danmark and read back through the narrow',
    check(t, server, [sent, read], seen) {
      seen.messageId = sent!.id as number;
      t.match(server.world.messages.get(seen.messageId), { senderId: iago(server).id, content: 'Hello from **curl**' });
      t.same((read!.messages as Json[]).map((m) => [m.id, m.display_recipient, m.subject]), [[seen.messageId, 'Danmark', 'chairs']]);
    },
  },
  {
    block: /\/reactions"/,
    says: 'iago\'s octopus reaction is stored on the message',
    check(t, server, _responses, seen) {
      const reactions = server.world.messages.get(seen.messageId!)!.reactions;
      t.match(reactions, [{ userId: iago(server).id, emojiName: 'octopus', reactionType: 'unicode_emoji' }]);
    },
  },
  {
    block: /POST "\$SITE\/api\/v1\/bots"/,
    says: 'the bot is created, owned by iago, and listed',
    check(t, server, [created, list], seen) {
      const bot = curlBot(server);
      t.match(bot, { isBot: true, isActive: true, botOwnerId: iago(server).id, id: created!.user_id });
      seen.botKey = bot?.apiKey;
      t.ok((list!.bots as Json[]).some((b) => b.full_name === 'Curl Bot'));
    },
  },
  {
    block: /api_key\/regenerate/,
    says: 'the bot gets a new key, then is deactivated',
    check(t, server, [regenerated], seen) {
      const bot = curlBot(server)!;
      t.not(regenerated!.api_key, seen.botKey);
      t.equal(bot.apiKey, regenerated!.api_key);
      t.equal(bot.isActive, false);
    },
  },
  {
    block: /POST "\$SITE\/api\/v1\/realm\/emoji\//,
    says: 'the PNG is uploaded as curl_dot and listed',
    check(t, server, [, list]) {
      t.match(curlDot(server), { deactivated: false, authorId: iago(server).id, contentType: 'image/png' });
      t.ok(Object.values(list!.emoji as Json).some((e) => (e as Json).name === 'curl_dot'));
    },
  },
  {
    block: /DELETE "\$SITE\/api\/v1\/realm\/emoji\//,
    says: 'curl_dot is deleted',
    check(t, server) {
      t.equal(curlDot(server)?.deactivated, true);
    },
  },
  {
    block: /__dev\/reset/,
    says: 'the reset brings back the development realm',
    check(t, server) {
      t.ok(server.world.streamByName('Denmark'));
      t.equal(curlBot(server), undefined);
      t.equal(curlDot(server), undefined);
    },
  },
];

t.test('every README curl block matches exactly one checked step, and every step has its block', async (t) => {
  checkStepsCoverBlocks(t, blocks, STEPS);
});

t.test('the README curl blocks run as printed against the development server', { skip: commandAvailable('curl') ? false : 'curl is not installed' }, async (t) => {
  const server = await startServer({ logger: () => undefined });
  const dir = mkdtempSync(join(tmpdir(), 'readme-curl-'));
  const iagoUser = iago(server);
  const shell = new ShellSession(dir, { SITE: server.url, EMAIL: iagoUser.deliveryEmail, KEY: iagoUser.apiKey }, ['SITE']);
  t.teardown(async () => {
    await shell.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const seen: Seen = {};
  await runBlocks(t, shell, blocks, STEPS, (t, step, bodies) => {
    const responses = bodies.map((body) => JSON.parse(body) as Json);
    const failed = responses.filter((response) => response.result !== 'success');
    t.same(failed, [], 'every curl answered "result":"success"');
    if (failed.length === 0) step.check(t, server, responses, seen);
  });
});
