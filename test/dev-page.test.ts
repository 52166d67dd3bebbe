/**
 * The development page at `GET /`: one self-contained HTML document under a strict
 * Content-Security-Policy, rendered by headless Chromium against a running server: users with
 * their roles and keys, channels, messages shown as text (hostile markup stays text), event
 * queues, and a live log that shows a request made after the page loaded. A screenshot is taken.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { PAGE_BYTES } from '../server/dev/page/page.js';
import { api, devServer, registerQueue, sendMessage } from './support/dev-http.js';
import { Browser, CHROMIUM, HeadlessPage } from './support/headless-chromium.js';

const HOSTILE = '<img src=x onerror="document.title=\'owned\'"> **bold** & "quotes" </li><script>document.title="owned"</script>';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

t.test('GET / serves one small HTML document with inline style and script only, under a strict Content-Security-Policy', async (t) => {
  const server = await devServer(t);
  const page = await fetch(`${server.url}/`);
  const html = await page.text();
  t.equal(page.status, 200);
  t.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  const csp = page.headers.get('content-security-policy') ?? '';
  t.match(csp, /default-src 'none'/);
  t.match(csp, /script-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/, 'the one inline script, by hash');
  t.match(csp, /style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/, 'the one inline stylesheet, by hash');
  t.match(csp, /connect-src 'self'/);
  t.match(csp, /frame-ancestors 'none'/);
  t.notMatch(csp, /unsafe|\*/, 'nothing unsafe, no wildcard');
  t.equal(page.headers.get('x-content-type-options'), 'nosniff');
  t.notMatch(html, /\bsrc=|href="(?!data:,")|@import|url\(/i, 'no external resource');
  t.equal((html.match(/<script>/g) ?? []).length, 1);
  t.equal(Buffer.byteLength(html), PAGE_BYTES);
  t.ok(PAGE_BYTES < 24 * 1024, `small: ${PAGE_BYTES} bytes`);
  t.comment(`the page weighs ${PAGE_BYTES} bytes`);
  const docs = readFileSync(new URL('../../docs/dev-server.md', import.meta.url), 'utf8');
  t.match(docs, `**${PAGE_BYTES.toLocaleString('en-US')} bytes**`, 'docs/dev-server.md states the weight as it is');
  const head = await fetch(`${server.url}/`, { method: 'HEAD' });
  t.same([head.status, await head.text()], [200, '']);
});

t.test('the page renders the realm in headless Chromium and its log shows requests made after it loaded', async (t) => {
  if (!CHROMIUM) {
    t.comment('SKIP rendering check: chromium is not installed (apt-get install -y chromium)');
    t.skip('chromium is not installed (apt-get install -y chromium): the page was not rendered', () => undefined);
    return;
  }
  const server = await devServer(t);
  const messageId = await sendMessage(server, 'hamlet@zulip.com', HOSTILE, '<b>topic</b>');
  const queueId = await registerQueue(server, 'othello@zulip.com');
  const dir = mkdtempSync(join(tmpdir(), 'dev-page-'));
  const browser = await Browser.launch(join(dir, 'profile'));
  t.teardown(() => browser.close());
  const page = await HeadlessPage.open(browser);
  await page.goto(`${server.url}/`);

  const role = await page.waitFor<string>(`document.querySelector('#users tr[data-email="iago@zulip.com"] .role')?.textContent`);
  t.equal(role, 'administrator', 'a user row with its role');
  t.equal(await page.evaluate(`document.querySelector('#users tr[data-email="polonius@zulip.com"] .role').textContent`), 'guest');
  const iagoKey = server.world.usersByEmail.get('iago@zulip.com')!.apiKey;
  t.equal(await page.evaluate(`document.querySelector('#users tr[data-email="iago@zulip.com"] button.copy').dataset.key`), iagoKey, 'a copy button with the API key');
  t.match(await page.evaluate(`document.querySelector('#channels tr[data-name="Denmark"]').textContent`), /^#Denmark\s*public\s*\d+/, 'a channel');
  t.equal(await page.evaluate(`document.querySelector('#queues tr[data-queue-id="${queueId}"] td:nth-child(2)').textContent`), 'Othello, the Moor of Venice othello@zulip.com', 'a queue');

  const message = `document.querySelector('#messages li[data-message-id="${messageId}"]')`;
  t.equal(await page.evaluate(`${message}.querySelector('.text').textContent`), HOSTILE, 'the content, as text');
  t.match(await page.evaluate(`${message}.textContent`), /#Denmark > <b>topic<\/b>/, 'the topic, as text');
  t.same(await page.evaluate(`[document.querySelectorAll('main img, main script, main b').length, document.title]`), [0, 'Zulip Dev - chat-server'], 'no markup of the message became an element, no script ran');
  await page.evaluate(`${message}.querySelector('button.html').click()`);
  const frame = await page.evaluate<{ sandbox: string; srcdoc: string; reachable: boolean }>(
    `(() => { const f = ${message}.querySelector('iframe'); return { sandbox: f.getAttribute('sandbox'), srcdoc: f.srcdoc, reachable: f.contentDocument !== null }; })()`,
  );
  t.same(frame, { sandbox: '', srcdoc: server.world.messages.get(messageId)!.renderedContent, reachable: false }, 'the stored HTML, in a sandboxed frame the page cannot reach');

  await api(server, 'hamlet@zulip.com', 'GET', '/users/me/alert_words');
  const requestLine = await page.waitFor<string>(`[...document.querySelectorAll('#log li.log-request')].map((li) => li.textContent).find((text) => text.includes('/alert_words'))`);
  t.match(requestLine, /^\d\d:\d\d:\d\d GET \/api\/v1\/users\/me\/alert_words 200 hamlet@zulip\.com [\d.]+ms$/, 'a log line for a request made after the page loaded');
  await sendMessage(server, 'iago@zulip.com', 'live');
  t.match(await page.waitFor<string>(`[...document.querySelectorAll('#log li.log-event')].map((li) => li.textContent).find((text) => text.includes('event message'))`), /event message -> \d+ users?/, 'an event line');
  t.ok(await page.waitFor(`[...document.querySelectorAll('#messages .text')].some((node) => node.textContent === 'live')`), 'the panels follow the log');

  const png = await page.screenshot();
  const file = join(dir, 'dev-page.png');
  writeFileSync(file, png);
  t.ok(png.length > 1000, `a screenshot of ${png.length} bytes in ${file}`);
  t.same(png.subarray(0, 8), PNG_SIGNATURE, 'a PNG');
  t.same(page.events.messages.filter((text) => /Content Security Policy|Refused/i.test(text)), [], 'no CSP violation');
  t.same(page.events.requests.filter((url) => !url.startsWith(`${server.url}/`)), [], 'every request went to the server itself');
  t.ok(page.events.requests.some((url) => url.startsWith(`${server.url}/__dev/log`)), 'the log was polled');
});
