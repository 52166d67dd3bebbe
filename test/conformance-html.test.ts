/**
 * The HTML report is one self-contained page (no external resource) that a browser renders:
 * headless Chromium's DOM holds the endpoint x rule x feature-level table, each failure with its
 * reproduction and each skip with its reason.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
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
  {
    ...base,
    id: 'html/fails',
    title: 'fails <with markup> & quotes "here"',
    endpoint: 'GET /users/me',
    levels: { min: 1 },
    run: async (ctx) => {
      await ctx.anonymous.get('/server_settings', { setup: 'first' });
      expect.fail('</pre><script>alert(1)</script> is shown as text', await ctx.anonymous.get('/users/me'));
    },
  },
  { ...base, id: 'html/future', title: 'future', levels: { min: 5000 }, run: async () => undefined },
];

function dumpDom(file: string, profile: string): Promise<string> {
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--dump-dom', pathToFileURL(file).href];
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM!, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
}

t.test('the HTML report renders in headless Chromium with the matrix, failures with reproduction and skips with reasons', async (t) => {
  const { app, handler } = brokenApp();
  const result = await runSuite({ handler, rules: RULES, numRuns: 1, seed: 3 });
  app.close();
  const html = renderReport('html', result);
  t.notMatch(html, /\bsrc=|href="(?!#)|@import|url\(|<script/i, 'no external resource and no script');
  t.notMatch(html, /<\/pre><script>/, 'rule text is escaped');
  if (!CHROMIUM) {
    t.comment('SKIP rendering check: chromium is not installed (apt-get install -y chromium)');
    t.skip('chromium is not installed (apt-get install -y chromium): the rendered DOM was not checked', () => undefined);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'conformance-html-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  const dom = await dumpDom(file, join(dir, 'profile'));
  const rows = [...dom.matchAll(/<tr class="(\w+)" data-rule="([^"]+)" data-outcome="\w+"><td>([^<]*)<\/td><td[^>]*>[^<]*<\/td><td>[^<]*<\/td><td>([^<]*)<\/td>/g)].map((m) => [m[2], m[1], m[3], m[4]]);
  t.same(rows, [
    ['html/future', 'skipped', 'GET /server_settings', '≥ 5000'],
    ['html/passes', 'passed', 'GET /server_settings', 'all'],
    ['html/fails', 'failed', 'GET /users/me', '≥ 1'],
  ]);
  t.match(dom, /<p class="summary" id="summary" data-passed="1" data-failed="1" data-skipped="1">/);
  const failure = /<section class="failure" id="rule-html-fails" data-rule="html\/fails">([\s\S]*?)<\/section>/.exec(dom)?.[1] ?? '';
  t.match(failure, /&lt;\/pre&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; is shown as text/, 'the failure text is there, as text');
  t.match(failure, /2 exchange\(s\) of the failing case, setup included/);
  t.match(failure, /curl -sS -i 'http:\/\/localhost:9991\/api\/v1\/server_settings\?setup=first'[\s\S]*curl -sS -i 'http:\/\/localhost:9991\/api\/v1\/users\/me'/);
  t.match(dom, /<li data-rule="html\/future"><code>html\/future<\/code>: needs feature level &gt;= 5000 \(target: 415\)<\/li>/);
  t.notMatch(dom, /<script/, 'nothing became a script element');
});
