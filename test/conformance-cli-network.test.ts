/**
 * chat-conformance reaching a target the way staging servers are reached, as real processes: HTTPS
 * with a self-signed certificate (refused, then trusted with --ca-file or --insecure), through an
 * HTTP proxy (--proxy, HTTPS_PROXY, NO_PROXY), and with -H headers on every request that never
 * show in a report when they look like credentials.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startHttp } from './support/conformance.js';
import { runCliInProcess, runCliProcess } from './support/conformance-cli.js';
import { connectProxy, hasOpenssl, selfSignedCertificate, tlsFront } from './support/network-doubles.js';

const RULES = ['--only', 'server-settings/*', '--num-runs', '1', '--seed', '3', '--reporter', 'tap'];
const SECRET = 'proxy-token-5f1c9e';

if (!hasOpenssl()) {
  t.skip('openssl is not installed: no certificate to test TLS with', () => undefined);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-tls-'));
  const { key, cert, certPath } = selfSignedCertificate(dir);
  const seen: string[] = [];
  const plain = await startHttp(async (request, next) => {
    seen.push(request.headers.get('x-auth-token') ?? '(none)');
    return next(request);
  });
  const https = await tlsFront(key, cert, Number(new URL(plain.url).port));
  const proxy = await connectProxy();
  t.teardown(async () => {
    await proxy.close();
    await https.close();
    await plain.close();
  });
  const target = ['--base-url', https.url, ...RULES];
  const tunnelled = () => proxy.tunnels.filter((to) => to === https.url.replace('https://', ''));

  t.test('a self-signed certificate is refused until --ca-file trusts it or --insecure skips the check', async (t) => {
    const [refused, trusted, insecure] = await Promise.all([runCliProcess(target), runCliProcess([...target, '--ca-file', certPath]), runCliProcess([...target, '--insecure'])]);
    t.equal(refused.code, 2, 'an unverifiable target is unusable');
    t.match(refused.stderr, /cannot reach https:\/\/127\.0\.0\.1:\d+.*(self.signed|certificate)/i);
    t.equal(trusted.code, 0, trusted.stderr);
    t.match(trusted.stdout, /# passed 6, failed 0, skipped 0/);
    t.equal(insecure.code, 0, insecure.stderr);
  });

  t.test('-H headers reach the target on every request and a credential-like value is never printed', async (t) => {
    seen.length = 0;
    const report = join(dir, 'report.json');
    const run = await runCliProcess([...target, '--insecure', '-H', `X-Auth-Token: ${SECRET}`, '-H', 'X-Team: blue', '--reporter', `json=${report}`]);
    t.equal(run.code, 0, run.stderr);
    t.ok(seen.length > 5, `requests were seen (${seen.length})`);
    t.same(seen.filter((value) => value !== SECRET), [], 'every request carried the header');
    const json = readFileSync(report, 'utf8');
    t.notOk(`${run.stdout}${run.stderr}${json}`.includes(SECRET), 'the token is in no output');
    const failing = await runCliProcess([...target, '--insecure', '-H', `X-Auth-Token: ${SECRET}`, '-H', 'X-Team: blue', '--timeout', '1']);
    t.equal(failing.code, 1, 'rules out of time fail');
    t.match(failing.stdout, /replay: "chat-conformance --base-url https:[^"]* -H 'X-Auth-Token: <redacted>' -H 'X-Team: blue' --insecure /, 'the replay command names the headers, the token redacted');
    t.notOk(`${failing.stdout}${failing.stderr}`.includes(SECRET), 'the token is in no output of a failing run');
  });

  t.test('--proxy and HTTPS_PROXY tunnel every request through the proxy; NO_PROXY bypasses it', async (t) => {
    const viaFlag = await runCliProcess([...target, '--ca-file', certPath, '--proxy', proxy.url]);
    t.equal(viaFlag.code, 0, viaFlag.stderr);
    const afterFlag = tunnelled().length;
    t.ok(afterFlag >= 1, 'the run went through the proxy');
    const viaEnv = await runCliProcess([...target, '--ca-file', certPath], { env: { HTTPS_PROXY: proxy.url } });
    t.equal(viaEnv.code, 0, viaEnv.stderr);
    const afterEnv = tunnelled().length;
    t.ok(afterEnv > afterFlag, 'HTTPS_PROXY is honoured');
    const bypassed = await runCliProcess([...target, '--ca-file', certPath], { env: { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
    t.equal(bypassed.code, 0, bypassed.stderr);
    t.equal(tunnelled().length, afterEnv, 'NO_PROXY sends it directly');
  });
}

t.test('connection options need a URL target and a readable CA file', async (t) => {
  const [proxyEmbedded, badCa, badHeader] = await Promise.all([
    runCliInProcess(['--proxy', 'http://127.0.0.1:9', ...RULES]),
    runCliInProcess(['--base-url', 'https://127.0.0.1:9', '--ca-file', join(tmpdir(), 'no-such-ca.pem'), ...RULES]),
    runCliInProcess(['-H', 'no colon here', ...RULES]),
  ]);
  t.equal(proxyEmbedded.code, 2);
  t.match(proxyEmbedded.stderr, /--proxy applies to a target reached over the network/);
  t.equal(badCa.code, 2);
  t.match(badCa.stderr, /--ca-file: cannot read .*ENOENT/);
  t.equal(badHeader.code, 2);
  t.match(badHeader.stderr, /--header: expected 'Name: value'/);
});
