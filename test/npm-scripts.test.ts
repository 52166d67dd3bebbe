/**
 * The first `npm start` and `npm run conformance` compile the sources, and say so instead of
 * staying silent for a minute; once dist/ is there they start at once, without a word.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

function sh(command: string, cwd: string): Promise<{ code: number; stderr: string; stdout: string }> {
  return new Promise((resolve) => execFile('sh', ['-c', command], { cwd }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr })));
}

for (const [script, program] of [['prestart', 'chat-server'], ['preconformance', 'chat-conformance']] as const) {
  t.test(`${script} says it is compiling when dist/ has no ${program}, and is silent otherwise`, async (t) => {
    const command = scripts[script] ?? '';
    const [check, compile] = command.split(' || ');
    t.equal(compile, 'tsc -p .', 'the compile step follows the check');
    const fresh = await sh(check!, mkdtempSync(join(tmpdir(), 'npm-scripts-')));
    t.not(fresh.code, 0, 'a checkout without dist/ goes on to compile');
    t.match(fresh.stderr, new RegExp(`^${program}: compiling the TypeScript sources to dist/ \\(first run only; about a minute\\)\\.\\.\\.\\n$`));
    const built = await sh(check!, ROOT);
    t.same(built, { code: 0, stdout: '', stderr: '' }, 'a built checkout starts at once');
  });
}
