/**
 * The real server's Markdown cases we do not match, each with the reason. The list is printed by
 * test/markdown-cases.test.ts and documented in docs/deviations.md; a listed case that starts to
 * match fails the test, so the list only ever names real differences.
 */
export const SKIPPED_CASES: ReadonlyMap<string, string> = new Map([]);
