/**
 * Documentation curl blocks checked as printed: the `sh` blocks of a page's section, each matched
 * by exactly one checked step, run in order in one ShellSession (test/support/shell-session.ts).
 */
import type { Test } from 'tap';
import type { ShellSession } from './shell-session.js';

/** A block's check: `block` picks its block out of the section, `says` is what the text around it promises. */
export interface SnippetStep {
  readonly block: RegExp;
  readonly says: string;
}

/** The `sh` code blocks of a Markdown text, in order. */
export const shBlocks = (markdown: string): string[] => [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

/** How many times a block calls curl. */
export const curlCalls = (block: string): number => block.match(/(?:^|[\s($|])curl /g)?.length ?? 0;

/** Every block matches exactly one step, and every step its one block. */
export function checkStepsCoverBlocks(t: Test, blocks: readonly string[], steps: readonly SnippetStep[]): void {
  t.ok(blocks.length > 0, 'the section has sh blocks');
  for (const block of blocks) t.equal(steps.filter((step) => step.block.test(block)).length, 1, block.split('\n')[0]!);
  for (const step of steps) t.equal(blocks.filter((block) => step.block.test(block)).length, 1, step.says);
}

/** Runs the blocks in order, each as a subtest named by its step: every curl recorded, then `check` with the bodies. */
export async function runBlocks<S extends SnippetStep>(t: Test, shell: ShellSession, blocks: readonly string[], steps: readonly S[], check: (t: Test, step: S, responses: readonly string[]) => void | Promise<void>): Promise<void> {
  for (const block of blocks) {
    const step = steps.find((s) => s.block.test(block));
    if (!step) continue; // reported by checkStepsCoverBlocks
    await t.test(step.says, async (t) => {
      const run = await shell.run(block);
      t.equal(run.responses.length, curlCalls(block), 'every curl call was recorded');
      await check(t, step, run.responses);
    });
  }
}
