/**
 * The deviation table, the deviations page (docs/deviations.md) and the server agree: every known
 * deviation is listed once on that page with the side this server takes, and `--strict-docs`
 * passes against this server.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { DEVIATIONS } from '../conformance/deviations.js';
import { runSuite } from '../conformance/index.js';
import { brokenApp } from './support/conformance.js';

const page = readFileSync(new URL('../../docs/deviations.md', import.meta.url), 'utf8');
/** The rows of the page's deviation table: from its header to the first line that is not a row. */
const lines = page.split('\n');
const header = lines.findIndex((line) => line.startsWith('| Deviation | Point |'));
const end = lines.findIndex((line, i) => i > header && !line.startsWith('|'));
const rows = lines.slice(header + 2, end);

t.test('the deviations page lists every deviation once, with the side this server takes', async (t) => {
  for (const deviation of DEVIATIONS) {
    const listed = rows.filter((line) => line.startsWith(`| \`${deviation.id}\` |`));
    t.equal(listed.length, 1, `${deviation.id} is listed once`);
    const side = listed[0]?.split('|')[3]?.trim() ?? '';
    t.ok(side.startsWith(`${deviation.reference}:`), `${deviation.id}: the page says '${side.split(':')[0]}', the table '${deviation.reference}'`);
  }
  t.same(
    rows.map((line) => /^\| `([a-z0-9-]+)`/.exec(line)?.[1]).filter((id) => !DEVIATIONS.some((d) => d.id === id)),
    [],
    'no row on the page without a table entry',
  );
});

t.test('--strict-docs passes against this server at the newest level', async (t) => {
  const { app, handler } = brokenApp();
  try {
    const result = await runSuite({ handler, numRuns: 3, seed: 7, strictDocs: true });
    t.same(result.results.filter((r) => r.outcome === 'failed').map((r) => `${r.id}: ${r.failure?.message ?? ''}`), []);
  } finally {
    app.close();
  }
});

t.test('--strict-docs fails a target that shows the real side of a deviation this server keeps to the description', async (t) => {
  const { app, handler } = brokenApp(async (request, next) => {
    const reply = await next(request);
    // The real server's code for an unknown navigation view.
    if (reply.status === 404 && reply.body.includes('"code":"NOT_FOUND"')) return { ...reply, body: reply.body.replace('"NOT_FOUND"', '"BAD_REQUEST"') };
    return reply;
  });
  try {
    const result = await runSuite({ handler, numRuns: 3, seed: 7, strictDocs: true, only: ['navigation-views/*'] });
    t.ok(result.results.some((r) => r.outcome === 'failed' && /navigation-view-not-found-code/.test(r.failure?.message ?? '')));
  } finally {
    app.close();
  }
});
