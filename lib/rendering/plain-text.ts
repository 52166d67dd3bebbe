/**
 * Messages whose rendering can wait until they are read (lib/state/history/lazy-rendering.ts):
 * plain text, one line of Latin letters, digits, single spaces and sentence punctuation. No
 * Markdown or chat syntax can start in it (no `*`, `_`, `` ` ``, `#`, `@`, `:`, `<`, `[`, `~`,
 * `|`, `$`, `&`, `/`, `\`, a leading digit or dash, a `.` inside a word), so it renders as one
 * paragraph of itself, except where a linkifier matches; and whatever linkifiers link keeps its
 * text, so its words are its source's words (what the search index reads before rendering).
 * It is rendered later with the linkifiers and realm URL of the moment it was stored, so its HTML
 * is what rendering it then would have given (test/plain-text.test.ts compares the two).
 */
import type { DeferredRendering } from '../state/history/lazy-rendering.js';
import type { World } from '../state/world.js';
import { markdownContext } from './render.js';
import { renderMarkdown } from './markdown/setup.js';

const LETTER = 'A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u024F';
/** A letter first; then letters, digits and punctuation, a `.` only before a space or the end, a space only before a non-space. */
const PLAIN = new RegExp(`^[${LETTER}](?:[${LETTER}0-9,'?!()-]|\\.(?= |$)| (?=[^ ]))*$`);

/** The longest content treated so (longer messages are rare and rendered at once). */
const MAX_PLAIN_LENGTH = 2000;

/** Whether `source` is plain text as described above. */
export const isPlainText = (source: string): boolean => source.length <= MAX_PLAIN_LENGTH && PLAIN.test(source);

/** Renders plain text later as the realm would render it now (its linkifiers and URL pinned). */
export function deferredRendering(world: World): DeferredRendering {
  const now = markdownContext(world);
  const context = { ...now, linkifiers: (now.linkifiers ?? []).map((rule) => ({ pattern: rule.pattern, urlTemplate: rule.urlTemplate })) };
  return { render: (content) => renderMarkdown(content, context) };
}
