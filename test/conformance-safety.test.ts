/**
 * The conformance suite on a shared deployment: coverage in every report and --fail-on-skip,
 * realm-wide rules and user creation behind opt-ins (on by default only against the embedded
 * server), failed restores failing the run by name, the sole-owner rule never acting as the
 * cleanup identity, and interruptions that still clean up. A real deployment is played by the
 * reference server behind an in-process dispatcher (target kind `url`, no socket).
 */
import t from 'tap';
import { InProcessDispatcher, renderReport, REPORT_FORMATS, type Rule, runSuite, type SuiteResult, UsageError } from '../conformance/index.js';
import { main } from '../conformance/cli/main.js';
import { brokenApp, type Mutation } from './support/conformance.js';

const BASE = 'http://chat.example.test';

/** Runs the suite against a fresh reference server reached as a real deployment (kind `url`). */
async function runAsDeployment(options: Omit<Parameters<typeof runSuite>[0], 'handler' | 'baseUrl' | 'dispatcher' | 'app'>, mutate?: Mutation): Promise<SuiteResult> {
  const { app, handler } = brokenApp(mutate);
  const dispatcher = new InProcessDispatcher(handler);
  try {
    return await runSuite({ baseUrl: BASE, dispatcher, numRuns: 2, seed: 5, ...options });
  } finally {
    await dispatcher.close();
    app.close();
  }
}

async function runEmbedded(options: Omit<Parameters<typeof runSuite>[0], 'handler' | 'app'>): Promise<SuiteResult> {
  const { app, handler } = brokenApp();
  try {
    return await runSuite({ handler, numRuns: 2, seed: 5, ...options });
  } finally {
    app.close();
  }
}

const outcome = (result: SuiteResult, id: string) => result.results.find((rule) => rule.id === id);
const entry = (result: SuiteResult, name: string) => result.coverage.entries.find((item) => item.name === name);

const REALM_WIDE = 'linkifiers/create-returns-id-listed-last';
const NEEDS_USERS = 'deactivate-user/deactivated-user-unauthorized';
const LEVEL_SKIPPED = 'linkifiers/list-shape-url-format-before-176';

t.test('on a real deployment, realm-wide rules and user creation are skipped without opt-ins, and the coverage counts them', async (t) => {
  const result = await runAsDeployment({ only: [REALM_WIDE, NEEDS_USERS, LEVEL_SKIPPED] });
  t.equal(outcome(result, REALM_WIDE)?.skipCause, 'realm-writes');
  t.match(outcome(result, REALM_WIDE)?.skipReason, /--allow-realm-writes/);
  t.equal(outcome(result, NEEDS_USERS)?.skipCause, 'throwaway-user');
  t.match(outcome(result, NEEDS_USERS)?.skipReason, /--allow-user-creation/);
  t.equal(outcome(result, LEVEL_SKIPPED)?.skipCause, 'level');
  t.match(entry(result, 'realm-writes'), { available: false, skippedRules: 1 });
  t.match(entry(result, 'throwaway-user'), { available: false, skippedRules: 1 });
  t.match(entry(result, 'owner'), { kind: 'identity', available: true });
  t.match(result.coverage, { skippedForMissing: 2, skippedForLevel: 1 });
  t.equal(result.ok, true, 'skips alone do not fail a run');
  for (const format of REPORT_FORMATS) {
    const text = renderReport(format, result);
    t.match(text, /realm-writes/, `${format} names the realm-writes capability`);
    t.match(text, /throwaway-user/, `${format} names the throwaway-user capability`);
  }
  t.match(renderReport('spec', result), /capability realm-writes: missing \(not allowed: pass --allow-realm-writes\), 1 rule skipped/);
});

t.test('--fail-on-skip fails a run with skips for missing capabilities, never for feature levels alone', async (t) => {
  const missing = await runAsDeployment({ only: [REALM_WIDE], failOnSkip: true });
  t.equal(missing.failedOnSkip, true);
  t.equal(missing.ok, false);
  t.match(renderReport('spec', missing), /--fail-on-skip: 1 rule\(s\) skipped/);
  t.match(renderReport('tap', missing), /\nBail out! --fail-on-skip/);
  const levelOnly = await runAsDeployment({ only: [LEVEL_SKIPPED], failOnSkip: true });
  t.equal(levelOnly.failedOnSkip, false);
  t.equal(levelOnly.ok, true);
});

t.test('with the opt-ins, a real deployment runs realm-wide rules and creates users only at the operator\'s domain', async (t) => {
  const created: string[] = [];
  const record: Mutation = async (request, next) => {
    if (request.method === 'POST' && request.path === '/api/v1/users') created.push(decodeURIComponent(new TextDecoder().decode(request.body)));
    return next(request);
  };
  const result = await runAsDeployment({ only: [REALM_WIDE, NEEDS_USERS], allowRealmWrites: true, allowUserCreation: true, throwawayEmailDomain: 'example.org' }, record);
  t.equal(outcome(result, REALM_WIDE)?.outcome, 'passed');
  t.equal(outcome(result, NEEDS_USERS)?.outcome, 'passed');
  t.ok(created.length > 0);
  for (const body of created) t.match(body, /email=conf-[a-z0-9]+-user\d+@example\.org/);
  await t.rejects(runAsDeployment({ only: [NEEDS_USERS], allowUserCreation: true }), UsageError, 'no domain, no user creation');
});

t.test('against the embedded server, realm-wide rules and user creation run by default', async (t) => {
  const result = await runEmbedded({ only: [REALM_WIDE, NEEDS_USERS] });
  t.same(result.results.map((rule) => rule.outcome), ['passed', 'passed']);
  t.match(entry(result, 'realm-writes'), { available: true, detail: 'embedded server: allowed by default' });
});

t.test('a restore that does not take fails the run and every report names what is left changed', async (t) => {
  // The target acknowledges the restore of the moderation request channel but keeps the run's channel.
  const ignoreRestore: Mutation = async (request, next) => {
    const body = new TextDecoder().decode(request.body);
    if (request.method === 'PATCH' && request.path === '/api/v1/realm' && body.includes('moderation_request_channel_id=-1')) {
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"result":"success","msg":""}\n' };
    }
    return next(request);
  };
  const { app, handler } = brokenApp(ignoreRestore);
  try {
    const result = await runSuite({ handler, numRuns: 2, seed: 5, only: ['report-message/invalid-report-type-bad-request'] });
    t.equal(outcome(result, 'report-message/invalid-report-type-bad-request')?.outcome, 'passed');
    t.equal(result.ok, false);
    t.match(result.leftChanged, [/moderation_request_channel_id is \d+ after the restore, expected -1/]);
    for (const format of REPORT_FORMATS) t.match(renderReport(format, result), /moderation_request_channel_id is \d+ after the restore/, format);
    t.match(renderReport('spec', result), /LEFT CHANGED ON THE TARGET: 1 cleanup\(s\) failed/);
  } finally {
    app.close();
  }
});

t.test('the sole-owner rule is skipped when the administrator cleanups act as is the owner itself', async (t) => {
  const { app, handler } = brokenApp();
  try {
    const dispatcher = new InProcessDispatcher(handler);
    const fetched = await handler({ method: 'POST', path: '/api/v1/dev_fetch_api_key', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new TextEncoder().encode('username=desdemona%40zulip.com'), signal: new AbortController().signal });
    const text = typeof fetched.body === 'string' ? fetched.body : new TextDecoder().decode(fetched.body);
    const key = (JSON.parse(text) as { api_key: string }).api_key;
    const result = await runSuite({ baseUrl: BASE, dispatcher, numRuns: 2, seed: 5, only: ['deactivate-user/sole-owner-refused'], credentials: { pairs: [{ email: 'desdemona@zulip.com', apiKey: key }], bootstrap: false } });
    await dispatcher.close();
    const sole = outcome(result, 'deactivate-user/sole-owner-refused');
    t.equal(sole?.outcome, 'skipped');
    t.match(sole?.skipReason, /administrator other than the owner/);
    t.equal(sole?.requests, 0, 'not even the owner list was fetched');
    t.equal(sole?.skipCause, 'admin');
    t.match(result.coverage.entries.find((item) => item.name === 'admin'), { available: true, detail: /desdemona@zulip\.com \(owner, flags\)/, skippedRules: 1 });
  } finally {
    app.close();
  }
});

const waiting = (cleaned: string[]): Rule => ({
  id: 'safety/waits-until-stopped',
  title: 'waits until the run is stopped',
  endpoint: '*',
  section: '1',
  writes: true,
  run: async (ctx) => {
    ctx.cleanup('note the cleanup', async () => void cleaned.push('rule'));
    ctx.cleanup('run-level cleanup', async () => void cleaned.push('run'), { scope: 'run' });
    await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
  },
});
const later: Rule = { id: 'safety/yet-to-run', title: 'later', endpoint: '*', section: '1', writes: false, run: async () => undefined };

t.test('an interruption stops the running rule, runs its and the run\'s cleanups, and reports the rest as not run', async (t) => {
  const cleaned: string[] = [];
  const interrupt = new AbortController();
  const result = await runEmbedded({ rules: [waiting(cleaned), later], interrupt: interrupt.signal, listener: { onRuleStart: () => void setTimeout(() => interrupt.abort('SIGTERM'), 20) } });
  t.same(cleaned, ['rule', 'run']);
  t.equal(result.interrupted, 'SIGTERM');
  t.equal(result.ok, false);
  t.match(outcome(result, 'safety/waits-until-stopped'), { outcome: 'skipped', skipCause: 'interrupted', skipReason: /interrupted by SIGTERM while running/ });
  t.match(outcome(result, 'safety/yet-to-run'), { outcome: 'skipped', skipReason: 'not run: interrupted by SIGTERM' });
  t.match(renderReport('spec', result), /interrupted by SIGTERM: the remaining rules were not run \(cleanups ran\); this report is partial/);
});

t.test('SIGINT during a CLI run writes a partial report after the cleanups and exits 130 (SIGTERM: 143)', async (t) => {
  for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    const { app, handler } = brokenApp();
    let send: ((signal: 'SIGINT' | 'SIGTERM') => void) | undefined;
    let stdout = '';
    let stderr = '';
    const code = await main({
      argv: ['--reporter', 'tap', '--num-runs', '1', '--only', 'users/*'],
      env: {},
      stdout: { write: (text: string) => { stdout += text; if (/\nok 1 /.test(stdout)) send?.(signal); return true; } },
      stderr: { write: (text: string) => void (stderr += text) },
      embedded: () => ({ handler, close: () => app.close() }),
      onSignal: (listener) => {
        send = listener;
        return () => (send = undefined);
      },
    } as Parameters<typeof main>[0]);
    t.equal(code, status, signal);
    t.match(stdout, new RegExp(`# SKIP not run: interrupted by ${signal}`));
    t.match(stdout, new RegExp(`# interrupted by ${signal}: the remaining rules were not run`));
    t.match(stderr, new RegExp(`${signal}: stopping after cleanups`));
  }
});

t.test('rules that need no channel of their own share one run channel, archived at the end; a target that cannot archive gets it named', async (t) => {
  const created: string[] = [];
  const archived: string[] = [];
  const record = (refuseArchive: boolean): Mutation => async (request, next) => {
    const body = decodeURIComponent(new TextDecoder().decode(request.body));
    if (request.method === 'POST' && request.path === '/api/v1/users/me/subscriptions') created.push(...(body.match(/conf-[a-z0-9]+-run-channel-\d+/g) ?? []));
    if (request.method === 'DELETE' && request.path.startsWith('/api/v1/streams/')) {
      if (refuseArchive) return { status: 404, headers: { 'content-type': 'application/json' }, body: '{"result":"error","code":"BAD_REQUEST","msg":"Invalid channel ID"}\n' };
      archived.push(request.path);
    }
    return next(request);
  };
  const only = ['report-message/invalid-report-type-bad-request', 'report-message/other-requires-description'];
  const { app, handler } = brokenApp(record(false));
  try {
    const result = await runSuite({ handler, numRuns: 2, seed: 5, only });
    t.same(result.results.map((rule) => rule.outcome), ['passed', 'passed']);
    t.equal(new Set(created).size, 1, 'one run channel for both rules');
    t.ok(archived.length >= 3, 'the run channel and each rule\'s moderation channel are archived');
    t.same(result.warnings.filter((line) => /not archived/.test(line)), []);
  } finally {
    app.close();
  }
  const refusing = brokenApp(record(true));
  try {
    const result = await runSuite({ handler: refusing.handler, numRuns: 2, seed: 5, only: [only[0]!] });
    t.match(result.warnings, [/channel conf-[a-z0-9]+-run-channel-\d+ not archived \(DELETE \/streams\/\{id\} answered HTTP 404\): the run's identities left it, it stays active/]);
    t.match(result.results[0]?.notes, [/channel conf-[a-z0-9]+-moderation-\d+ not archived/]);
  } finally {
    refusing.app.close();
  }
});

t.test('--list marks realm-wide rules, and --list --json gives each rule\'s realmWide flag and needs', async (t) => {
  const run = async (argv: string[]) => {
    let stdout = '';
    const code = await main({ argv, env: {}, stdout: { write: (text: string) => void (stdout += text) }, stderr: { write: () => undefined }, embedded: () => { throw new Error('not needed'); } } as Parameters<typeof main>[0]);
    return { code, stdout };
  };
  const text = await run(['--list', '--only', 'linkifiers/*']);
  t.match(text.stdout, new RegExp(`${REALM_WIDE.replace('/', '\\/')} +section [^\n]+realm-wide `));
  const json = await run(['--list', '--json', '--feature-level', '415', '--only', `${REALM_WIDE},${NEEDS_USERS}`]);
  const listing = JSON.parse(json.stdout) as { rules: Array<{ id: string; realmWide: boolean; needs: string[] }> };
  t.same(listing.rules.map((rule) => [rule.id, rule.realmWide, rule.needs]), [[NEEDS_USERS, false, ['admin', 'throwaway-user']], [REALM_WIDE, true, ['admin']]]);
});

t.test('--allow-user-creation against a real target without --throwaway-email-domain is bad usage (exit 2), before any request', async (t) => {
  let stderr = '';
  const code = await main({
    argv: ['--base-url', 'http://127.0.0.1:9', '--allow-user-creation'],
    env: {},
    stdout: { write: () => undefined },
    stderr: { write: (text: string) => void (stderr += text) },
    embedded: () => {
      throw new Error('not needed');
    },
  } as Parameters<typeof main>[0]);
  t.equal(code, 2);
  t.match(stderr, /--allow-user-creation needs --throwaway-email-domain DOMAIN/);
});

t.test('a realm-wide rule that needs throwaway users creates none when realm-wide writes are not allowed', async (t) => {
  let creations = 0;
  const count: Mutation = async (request, next) => {
    if (request.method === 'POST' && request.path === '/api/v1/users') creations++;
    return next(request);
  };
  const id = 'user-settings-defaults/only-new-users-get-defaults';
  const result = await runAsDeployment({ only: [id], allowUserCreation: true, throwawayEmailDomain: 'example.org' }, count);
  t.match(outcome(result, id), { outcome: 'skipped', skipCause: 'realm-writes' });
  t.equal(creations, 0);
  t.match(entry(result, 'throwaway-user'), { available: true, detail: 'allowed; no rule needed one' });
});
