/**
 * The HTML report is one self-contained page (no external resource, one inline script allowed by
 * its hash) that headless Chromium renders as a picture: the run's bar and one per endpoint, the
 * endpoint x rule x feature-level table in collapsible endpoints (failing ones open), each failure
 * with its failing exchange pretty-printed and the differing field highlighted, each skip with its
 * reason. A screenshot is taken.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { expect, renderReport, type Rule, runSuite } from '../conformance/index.js';
import { brokenApp } from './support/conformance.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const base = { endpoint: 'GET /server_settings', section: '9.2', writes: false } as const;
const RULES: Rule[] = [
  { ...base, id: 'html/passes', title: 'passes', run: async (ctx) => void expect.expectSuccess(await ctx.anonymous.get('/server_settings')) },
  { ...base, id: 'html/passes-too', title: 'passes too', run: async (ctx) => void expect.expectSuccess(await ctx.anonymous.get('/server_settings')) },
  {
    ...base,
    id: 'html/fails',
    title: 'fails <with markup> & quotes "here"',
    endpoint: 'GET /users/me',
    levels: { min: 1 },
    needs: ['user'],
    run: async (ctx) => {
      await ctx.anonymous.get('/server_settings', { setup: 'first' });
      const me = await ctx.as('user').get('/users/me');
      expect.expectEqual(me.body?.full_name, '</pre><script>alert(1)</script>', 'full_name', me);
    },
  },
  { ...base, id: 'html/future', title: 'future', endpoint: 'GET /users/me', levels: { min: 5000 }, run: async () => undefined },
];

function chromium(args: readonly string[], profile: string): Promise<string> {
  const common = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`];
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM!, [...common, ...args], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
}

t.test('the HTML report renders in headless Chromium as bars, collapsible endpoints with the table, and failures with the differing field highlighted', async (t) => {
  const { app, handler } = brokenApp();
  const result = await runSuite({ handler, rules: RULES, numRuns: 1, seed: 3 });
  app.close();
  const html = renderReport('html', result);
  t.notMatch(html, /\bsrc=|href="(?!#)|@import|url\(/i, 'no external resource');
  t.equal(html.match(/<script/g)?.length, 1, 'one script element: the page\'s own');
  t.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/=]+'">/);
  t.notMatch(html, /<\/pre><script>alert/, 'values from the target are escaped');
  if (!CHROMIUM) {
    t.comment('SKIP rendering check: chromium is not installed (apt-get install -y chromium)');
    t.skip('chromium is not installed (apt-get install -y chromium): the rendered DOM was not checked', () => undefined);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'conformance-html-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  const dom = await chromium(['--dump-dom', pathToFileURL(file).href], join(dir, 'profile'));
  t.match(dom, /<body data-script="ran">/, 'the inline script ran under the page\'s Content-Security-Policy');
  t.match(dom, /<p class="summary" id="summary" data-passed="2" data-failed="1" data-skipped="1"><span class="bar total" role="img" aria-label="2 passed, 1 failed, 1 skipped"/);

  const endpoints = dom.split('<details class="endpoint').slice(1).map((chunk) => ({
    name: /data-endpoint="([^"]+)"/.exec(chunk)?.[1],
    open: /^[^>]*\bopen=""/.test(chunk),
    bar: [...(/<span class="bar"[^>]*>(.*?)<\/span><span class="counts">/.exec(chunk)?.[1] ?? '').matchAll(/<span class="(\w+)" data-count="(\d+)" style="width:([\d.]+)%"><\/span>/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}%`),
    rows: [...chunk.matchAll(/<tr class="(\w+)" data-rule="([^"]+)" data-outcome="\w+"><td[^>]*>[^<]*<\/td><td>[^<]*<\/td><td>([^<]*)<\/td>/g)].map((m) => [m[2], m[1], m[3]]),
  }));
  t.same(endpoints, [
    { name: 'GET /server_settings', open: false, bar: ['passed 2 100.00%'], rows: [['html/passes', 'passed', 'all'], ['html/passes-too', 'passed', 'all']] },
    { name: 'GET /users/me', open: true, bar: ['failed 1 50.00%', 'skipped 1 50.00%'], rows: [['html/fails', 'failed', '≥ 1'], ['html/future', 'skipped', '≥ 5000']] },
  ], 'per endpoint: a bar, the table rows; the passing endpoint collapsed, the failing one open');

  const failure = /<section class="failure" id="rule-html-fails" data-rule="html\/fails">([\s\S]*?)<\/section>/.exec(dom)?.[1] ?? '';
  t.match(failure, /full_name: expected "&lt;\/pre&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/, 'the failure text is there, as text');
  t.match(failure, /<p class="check" data-kind="equal">Checked: equal at \.full_name: expected .*, received ".*", in the answer to request 2\/2<\/p>/);
  t.match(failure, /<pre class="request">GET http:\/\/localhost:9991\/api\/v1\/users\/me<\/pre>/);
  t.match(failure, /<pre class="response"><span class="status">HTTP 200<\/span>\n\{\n  <span class="j-key">"result"<\/span>: <span class="j-string">"success"<\/span>,/, 'the answer pretty-printed');
  const marked = [...failure.matchAll(/<span class="j-key">"(\w+)"<\/span>: <mark class="diff">/g)].map((m) => m[1]);
  t.same(marked, ['full_name'], 'exactly the differing field is highlighted');
  t.match(failure, /2 exchange\(s\) of the failing case, setup included[\s\S]*curl -sS -i 'http:\/\/localhost:9991\/api\/v1\/server_settings\?setup=first'[\s\S]*curl -sS -i[^\n]*'http:\/\/localhost:9991\/api\/v1\/users\/me'/);
  t.match(dom, /<li data-rule="html\/future"><code>html\/future<\/code>: needs feature level &gt;= 5000 \(target: 415\)<\/li>/);
  t.notMatch(dom, /<script>alert/, 'nothing from the target became a script element');

  const png = join(dir, 'report.png');
  await chromium([`--screenshot=${png}`, '--window-size=1200,1400', '--hide-scrollbars', pathToFileURL(file).href], join(dir, 'profile'));
  const image = readFileSync(png);
  t.ok(image.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'the screenshot is a PNG');
  t.ok(image.length > 5000, `the screenshot has content (${image.length} bytes)`);
  if (process.env.HTML_REPORT_SCREENSHOT) writeFileSync(process.env.HTML_REPORT_SCREENSHOT, image);
});
