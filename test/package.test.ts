/**
 * The published package: `npm pack` ships LICENSE, the rule authors' guide, the reference pages the
 * README links (docs/) and the TypeScript sources every shipped source map points at, no script
 * that runs on a consumer's install, and a tarball whose two entry points import (as ESM, and from
 * CommonJS through `await import`) and type-check in a strict TypeScript consumer. Dependencies
 * are not downloaded: the scratch project links them from this checkout.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string>; scripts: Record<string, string> };

function exec(file: string, args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

t.test('npm pack ships the license, the guide, the reference pages, the sources of every source map and no consumer install script, and its entry points import and type-check', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'package-'));
  // --ignore-scripts: the build is this checkout's dist (prepack would rebuild it under other tests).
  const packed = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], ROOT);
  t.equal(packed.code, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = new Set(info!.files.map((file) => file.path));
  for (const path of ['LICENSE', 'README.md', 'conformance/README.md', 'docs/README.md', 'docs/endpoints.md', 'package.json', 'dist/server/index.js', 'dist/conformance/index.js', 'dist/bin/chat-server.js']) t.ok(files.has(path), `ships ${path}`);
  t.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0, January 2004[\s\S]*END OF TERMS AND CONDITIONS/);
  t.same([...files].filter((path) => path.startsWith('dist/test/') || path.startsWith('test/')), [], 'no tests');
  const dangling: string[] = [];
  for (const map of [...files].filter((path) => path.endsWith('.js.map'))) {
    const { sources } = JSON.parse(readFileSync(join(ROOT, map), 'utf8')) as { sources: string[] };
    for (const source of sources) if (!files.has(posix.normalize(posix.join(posix.dirname(map), source)))) dangling.push(`${map} -> ${source}`);
  }
  t.same(dangling, [], 'every source map points at a shipped source');
  const consumerScripts = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => manifest.scripts[name] !== undefined);
  t.same(consumerScripts, [], 'no script runs when a consumer installs the package (the build runs at prepack)');

  // A scratch project with the tarball unpacked where npm would put it, dependencies linked.
  const project = join(dir, 'project');
  const installed = join(project, 'node_modules', manifest.name);
  mkdirSync(installed, { recursive: true });
  const untar = await exec('tar', ['-xzf', join(dir, info!.filename), '-C', installed, '--strip-components=1'], dir);
  t.equal(untar.code, 0, untar.stderr);
  for (const name of Object.keys(manifest.dependencies)) {
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), link);
  }
  t.ok(readdirSync(installed).includes('LICENSE'));
  writeFileSync(join(project, 'package.json'), '{"name":"scratch","version":"1.0.0","private":true}\n');
  writeFileSync(
    join(project, 'esm.mjs'),
    `import { startServer } from '${manifest.name}';
import { runSuite, allRules } from '${manifest.name}/conformance';
const server = await startServer();
const settings = await (await fetch(server.url + '/api/v1/server_settings')).json();
await server.close();
console.log(JSON.stringify({ level: settings.zulip_feature_level, runSuite: typeof runSuite, rules: allRules().length > 0 }));
`,
  );
  writeFileSync(
    join(project, 'commonjs.cjs'),
    `(async () => {
  const { createApp } = await import('${manifest.name}');
  const { renderReport } = await import('${manifest.name}/conformance');
  console.log(JSON.stringify({ createApp: typeof createApp, renderReport: typeof renderReport }));
})();
`,
  );
  writeTypedConsumer(project);
  const [esm, cjs, version, typed] = await Promise.all([
    exec(process.execPath, ['esm.mjs'], project),
    exec(process.execPath, ['commonjs.cjs'], project),
    exec(process.execPath, [join(installed, 'dist/bin/chat-conformance.js'), '--version'], project),
    exec(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project),
  ]);
  t.same(JSON.parse(esm.stdout), { level: 415, runSuite: 'function', rules: true }, esm.stderr);
  t.same(JSON.parse(cjs.stdout), { createApp: 'function', renderReport: 'function' }, cjs.stderr);
  t.equal(version.stdout.trim(), (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  t.equal(typed.code, 0, `a strict TypeScript consumer type-checks against both entry points' shipped types:\n${typed.stdout}${typed.stderr}`);
});

/**
 * A strict TypeScript consumer (NodeNext, library files checked too) of both entry points. The
 * `@ts-expect-error` lines fail the check if the types were missing or resolved to `any`.
 */
function writeTypedConsumer(project: string): void {
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'));
  const compilerOptions = { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
  writeFileSync(
    join(project, 'consumer.ts'),
    `import { type ChatApp, createApp, makeRequest, type RunningServer, type WaitForEventOptions, waitForEvent } from '${manifest.name}';
import { allRules, renderReport, type Rule, runSuite, type SuiteResult } from '${manifest.name}/conformance';

export const app: ChatApp = createApp({ featureLevel: 400 });
export const answer: Promise<{ readonly status: number; readonly body: string }> = app.handle(makeRequest('GET', '/api/v1/server_settings'));
export const rules: readonly Rule[] = allRules();
const options: WaitForEventOptions = { timeoutMs: 100 };
export const next = waitForEvent(app, 11, (event) => event.type === 'message', options);
export async function check(server: RunningServer): Promise<string> {
  const result: SuiteResult = await runSuite({ baseUrl: server.url, numRuns: 1 });
  return renderReport('spec', result);
}
// @ts-expect-error the feature level is a number
createApp({ featureLevel: 'newest' });
// @ts-expect-error a rule has no such field
export const unknownField = rules[0]?.notAField;
`,
  );
}
