/**
 * Plain text (lib/rendering/plain-text.ts), whose rendering a loaded realm leaves until it is
 * read: it renders as one paragraph of itself where no linkifier matches; whatever linkifiers
 * do, its rendered text has its source's words (what the search index reads before rendering);
 * and a message seeded so renders with the linkifiers of the moment it was loaded.
 */
import fc from 'fast-check';
import t from 'tap';
import { loadFixture } from '../fixtures/index.js';
import { htmlText, lexeme } from '../lib/narrow/search.js';
import { isPlainText } from '../lib/rendering/plain-text.js';
import { render } from '../lib/rendering/render.js';
import { testServer } from './support/harness.js';

/** Characters plain text may hold, mostly, and some it may not, so both sides of the line are tried. */
const SAFE = [...'abcKLMéßÆ0129 ,\'?!()-.'];
const UNSAFE = [...'*_`#@:<[~|$&/\\\n>=+'];
const character = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SAFE) }, { weight: 1, arbitrary: fc.constantFrom(...UNSAFE) });
const scrambled = fc.array(character, { minLength: 1, maxLength: 40 }).map((chars) => chars.join(''));
/** Sentences: words of letters, digits and inner punctuation, commas between some, an ending mark. */
const word = fc.tuple(fc.constantFrom(...'abcKLMéßÆ'), fc.array(fc.constantFrom(...SAFE.filter((c) => c !== ' ' && c !== '.')), { maxLength: 8 })).map(([first, rest]) => first + rest.join(''));
const sentence = fc
  .tuple(fc.array(fc.tuple(word, fc.constantFrom(' ', ', ', '. ')), { minLength: 1, maxLength: 12 }), fc.constantFrom('', '.', '?', '!'))
  .map(([parts, end]) => parts.map(([w, gap]) => w + gap).join('').trimEnd().replace(/[,.]$/, '') + end);
const plainText = fc.oneof(sentence, scrambled).filter(isPlainText);

const words = (value: string): string[] => [...value.matchAll(/[\p{L}\p{N}]+/gu)].map(([word]) => lexeme(word));

t.test('plain text renders as one paragraph of itself where no linkifier matches', async (t) => {
  const s = testServer();
  for (const id of [...s.world.linkifiers.keys()]) s.world.linkifiers.delete(id);
  fc.assert(fc.property(plainText, (source) => render(s.world, source) === `<p>${source}</p>`), { numRuns: 1000 });
  t.ok(isPlainText("Lunch at noon, isn't it? (Ask Zoë) Well-known!"), 'sentences are plain');
});

t.test('Markdown and chat syntax is not plain text', async (t) => {
  const syntax = ['*a*', 'a **b**', 'a _b_', 'a `b`', 'a :smile:', 'a @**Iago**', 'a #**Verona**', 'see example.com', 'e.g. this', '1. a',
    '- a', '> a', 'a\nb', 'a  ', ' a', 'a  b', '<time:2024-01-01T00:00:00Z>', '$$x$$', '~~a~~', 'a|b', 'a &amp;', 'http://x.org', 'a/b', '/me waves', 'a\\b', 'a ☺'];
  t.same(syntax.filter(isPlainText), []);
});

t.test('the rendered text of plain text has its words, whatever linkifiers link', async (t) => {
  const s = testServer();
  for (const [pattern, template] of [['K(?P<id>[0-9]+)', 'https://k.example.com/{id}'], ['abc', 'https://abc.example.com'], ['a b', 'https://ab.example.com']]) {
    const reply = await s.as('iago@zulip.com').post('/realm/filters', { pattern, url_template: template });
    t.equal(reply.status, 200, `linkifier ${pattern} added`);
  }
  fc.assert(fc.property(plainText, (source) => JSON.stringify(words(htmlText(render(s.world, source)))) === JSON.stringify(words(source))), { numRuns: 500 });
  t.match(render(s.world, 'see K12 now'), /<a href="https:\/\/k\.example\.com\/12">K12<\/a>/, 'the linkifiers did link');
});

t.test('a seeded plain message renders later with the linkifiers it was loaded with', async (t) => {
  const base = loadFixture();
  const entry = { sender: 'othello@zulip.com', type: 'stream' as const, to: ['Verona'], topic: 'plain', content: 'Ticket K42 is done', sentAt: '2025-05-01T10:00:00Z' };
  const s = testServer({ fixture: { ...base, messages: [...(base.messages ?? []), entry] } });
  const before = render(s.world, entry.content);
  await s.as('iago@zulip.com').post('/realm/filters', { pattern: 'K(?P<id>[0-9]+)', url_template: 'https://k.example.com/{id}' });
  const message = [...s.world.messages.values()].find((m) => m.content === entry.content);
  t.equal(message?.renderedContent, before, 'the HTML it would have had when loaded');
  t.not(render(s.world, entry.content), before, 'while a new rendering would link the ticket');
  const fetched = await s.as('othello@zulip.com').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'topic', operand: 'plain' }] });
  t.equal(fetched.body.messages[0]?.content, before, 'and clients read that HTML');
});
