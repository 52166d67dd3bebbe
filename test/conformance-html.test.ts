/**
 * The HTML report is one self-contained page (no external resource, one inline script allowed by
 * its hash) that headless Chromium renders as a picture: the run's bar and one per endpoint, the
 * endpoint x rule x feature-level table in collapsible endpoints (failing ones open), each failure
 * with its failing exchange pretty-printed and the differing field highlighted, each skip with its
 * reason. A screenshot is taken (set HTML_REPORT_SCREENSHOT=FILE to keep it).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { expect, renderReport, type Rule, runSuite } from '../conformance/index.js';
import { brokenApp } from './support/conformance.js';
import { Browser, CHROMIUM, HeadlessPage } from './support/headless-chromium.js';

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
  const browser = await Browser.launch(join(dir, 'profile'));
  t.teardown(() => browser.close());
  const page = await HeadlessPage.open(browser, 1200, 900);
  await page.goto(pathToFileURL(file).href);
  t.equal(await page.evaluate(`document.body.dataset.script`), 'ran', 'the inline script ran under the page\'s Content-Security-Policy');
  t.same(page.events.requests.filter((url) => !url.startsWith('file:')), [], 'the page requested nothing');
  t.same(page.events.messages.filter((message) => /Content.Security.Policy|Refused/i.test(message)), [], 'nothing was refused by the policy');
  t.same(await page.evaluate(`[...document.querySelectorAll('#summary .bar span')].map((s) => s.className + ' ' + s.dataset.count)`), ['passed 2', 'failed 1', 'skipped 1'], 'the run as a bar');

  const endpoints = await page.evaluate<unknown[]>(`[...document.querySelectorAll('details.endpoint')].map((d) => ({
    name: d.dataset.endpoint,
    open: d.open,
    tableShown: d.querySelector('table.matrix').checkVisibility(),
    bar: [...d.querySelectorAll('summary .bar span')].map((s) => s.className + ' ' + Math.round(s.getBoundingClientRect().width / d.querySelector('summary .bar').clientWidth * 100) + '%'),
    rows: [...d.querySelectorAll('table.matrix tbody tr')].map((r) => [r.dataset.rule, r.dataset.outcome, r.cells[2].textContent]),
  }))`);
  t.same(endpoints, [
    { name: 'GET /server_settings', open: false, tableShown: false, bar: ['passed 100%'], rows: [['html/passes', 'passed', 'all'], ['html/passes-too', 'passed', 'all']] },
    { name: 'GET /users/me', open: true, tableShown: true, bar: ['failed 50%', 'skipped 50%'], rows: [['html/fails', 'failed', '≥ 1'], ['html/future', 'skipped', '≥ 5000']] },
  ], 'per endpoint: a bar drawn in proportion and the table rows; the passing endpoint collapsed, the failing one open');

  const failure = 'document.querySelector(\'section.failure[data-rule="html/fails"]\')';
  t.match(await page.evaluate(`${failure}.querySelector('.failure-text').textContent`), 'full_name: expected "</pre><script>alert(1)</script>", got "Iago"', 'the failure text, as text');
  t.match(await page.evaluate(`${failure}.querySelector('.check').textContent`), /^Checked: equal at \.full_name: expected .*, received "Iago", in the answer to request 2\/2$/);
  t.equal(await page.evaluate(`${failure}.querySelector('.request').textContent`), 'GET http://localhost:9991/api/v1/users/me');
  t.match(await page.evaluate(`${failure}.querySelector('.response').textContent`), /^HTTP 200\n\{\n  "result": "success",\n  "msg": "",\n/, 'the answer pretty-printed');
  const marked = await page.evaluate(`[...${failure}.querySelectorAll('mark.diff')].map((m) => [m.previousElementSibling.textContent, m.textContent, getComputedStyle(m).backgroundColor])`);
  t.same(marked, [['"full_name"', '"Iago"', 'rgb(255, 213, 79)']], 'exactly the differing field is highlighted');
  t.match(await page.evaluate(`${failure}.querySelector('.reproduction').textContent`), /curl -sS -i 'http:\/\/localhost:9991\/api\/v1\/server_settings\?setup=first'[\s\S]*curl -sS -i[^\n]*'http:\/\/localhost:9991\/api\/v1\/users\/me'/);
  t.equal(await page.evaluate(`document.querySelector('#skips li[data-rule="html/future"]').textContent`), 'html/future: needs feature level >= 5000 (target: 415)');
  t.equal(await page.evaluate(`document.querySelectorAll('script').length`), 1, 'nothing from the target became a script element');

  await page.evaluate(`document.querySelector('details.endpoint:not([open]) > summary').click()`);
  t.equal(await page.evaluate(`document.querySelector('details[data-endpoint="GET /server_settings"]').open`), true, 'a click expands a collapsed endpoint');
  await page.evaluate(`document.querySelector('button[data-action="failures"]').click()`);
  t.same(await page.evaluate(`[...document.querySelectorAll('tr[data-rule]')].filter((r) => r.checkVisibility()).map((r) => r.dataset.rule)`), ['html/fails'], '"Failures only" leaves the failing row');
  await page.evaluate(`document.querySelector('button[data-action="failures"]').click()`);

  const png = await page.screenshot();
  t.ok(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'the screenshot is a PNG');
  t.ok(png.length > 5000, `the screenshot has content (${png.length} bytes)`);
  if (process.env.HTML_REPORT_SCREENSHOT) writeFileSync(process.env.HTML_REPORT_SCREENSHOT, png);
});
