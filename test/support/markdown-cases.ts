/**
 * The real server's Markdown test cases (test/fixtures/markdown/, vendored from zulip/zulip with
 * its licence note), read and run as its `test_markdown_fixtures` runs them: each regular case's
 * `input` rendered for the `zulip` realm (URL `http://zulip.testserver`, inline image previews on,
 * thumbnailing on) and compared with `expected_output` (the server's rendering; `marked_expected_output`
 * and `text_content` are the web client's and are not ours to match); a case with
 * `translate_emoticons` is sent by Othello with that setting on; `ignore`d cases are left out as
 * the real test leaves them out. The `linkify_tests` table is expanded the same way: the reference
 * with `%s` replaced by the link the URL becomes, or the reference itself when it has no `%s`.
 */
import { readFileSync } from 'node:fs';
import type { User } from '../../lib/entities/user.js';
import { render } from '../../lib/rendering/render.js';
import type { World } from '../../lib/state/world.js';
import { normaliseHtml } from './html-normalise.js';
import { testServer } from './harness.js';

interface RegularCase {
  readonly name: string;
  readonly input: string;
  readonly expected_output: string;
  readonly translate_emoticons?: boolean;
  readonly ignore?: boolean;
}

interface CaseFile {
  readonly regular_tests: readonly RegularCase[];
  readonly linkify_tests: ReadonlyArray<readonly [string, string, string]>;
}

export interface MarkdownCase {
  /** The case's name; linkify cases are named `linkify: <input>`. */
  readonly name: string;
  readonly input: string;
  readonly expected: string;
  readonly translateEmoticons: boolean;
}

/** The realm URL of the real server's test realm. */
export const TEST_REALM_URL = 'http://zulip.testserver';

const FILE = new URL('../../../test/fixtures/markdown/markdown_test_cases.json', import.meta.url);

/** The expected HTML of a linkify case, as the real test builds it. */
function linkifyExpected(reference: string, url: string): string {
  if (!reference.includes('%s')) return reference;
  const href = url.startsWith('http') ? url : url.includes('@') ? `mailto:${url}` : `http://${url}`;
  return reference.replace('%s', `<a href="${href}">${url}</a>`);
}

/** Every case the real test runs, in file order. */
export function loadMarkdownCases(): MarkdownCase[] {
  const data = JSON.parse(readFileSync(FILE, 'utf8')) as CaseFile;
  const regular = data.regular_tests
    .filter((test) => test.ignore !== true)
    .map((test) => ({ name: test.name, input: test.input, expected: test.expected_output, translateEmoticons: test.translate_emoticons === true }));
  const linkify = data.linkify_tests.map(([input, reference, url]) => ({
    name: `linkify: ${input}`,
    input,
    expected: linkifyExpected(reference, url),
    translateEmoticons: false,
  }));
  return [...regular, ...linkify];
}

/** A world set up as the real test's: the development realm at the test realm's URL. */
export function caseWorld(): { world: World; emoticonSender: User } {
  const server = testServer();
  server.world.realm.url = TEST_REALM_URL;
  const othello = server.world.users.get(server.id('othello@zulip.com')) as User;
  othello.settings.set('translate_emoticons', true);
  return { world: server.world, emoticonSender: othello };
}

export interface CaseOutcome {
  readonly actual: string;
  readonly matches: boolean;
}

/** Renders one case and compares it with the real server's output after normalisation. */
export function runCase(world: World, emoticonSender: User, testCase: MarkdownCase): CaseOutcome {
  const actual = render(world, testCase.input, testCase.translateEmoticons ? { sender: emoticonSender } : {});
  return { actual, matches: normaliseHtml(actual) === normaliseHtml(testCase.expected) };
}
