/**
 * Loaded messages whose rendering waits until they are read (lib/rendering/deferred.ts): the
 * pinned rendering gives what rendering at once gives for any content without an `@`; a loaded
 * message keeps the HTML of the moment it was loaded whatever changes in the realm before it is
 * read; and search finds it by the words of its HTML, even one only the HTML has.
 */
import fc from 'fast-check';
import t from 'tap';
import { loadFixture } from '../fixtures/index.js';
import { canRenderLater, deferredRendering } from '../lib/rendering/deferred.js';
import { render } from '../lib/rendering/render.js';
import { testServer } from './support/harness.js';

/** Pieces of Markdown and chat syntax, world-dependent ones included (channels, custom emoji, linkifiers). */
const PIECES = ['**bold**', '*it*', '`code()`', '#**Verona**', '#**Verona>party**', '#**Nowhere**', ':green_tick:', ':smile:', ':nothing_such:',
  'zulip-mobile#123', '#D4567', 'https://example.com/a', '[link](https://example.com/b)', '$$\\alpha$$', '~~~\nfence\n~~~', '> quote', '- item',
  '1. first', '<time:2024-01-01T00:00:00Z>', 'word', 'Words here', ' ', '\n', '\n\n', '*hamletcharacters*', 'spoiler', '/me waves', '|a|b|\n|-|-|\n|1|2|'];
const markdown = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join(' '));

t.test('content without an @ or a topic link renders later as it renders at once in the same realm', async (t) => {
  const s = testServer();
  const later = deferredRendering(s.world);
  fc.assert(fc.property(markdown, (source) => !canRenderLater(source) || later.markup.render(source) === render(s.world, source)), { numRuns: 400 });
  t.notOk(canRenderLater('hi @**Iago**'), 'a possible mention is rendered at once');
  t.notOk(canRenderLater('see #**Verona>party**'), 'a topic link (its /with/ operand depends on the history so far) is rendered at once');
  t.ok(canRenderLater('see #**Verona** **now**'), 'a channel link alone can wait');
  s.app.close();
});

const LOADED = 'See #**Verona** :green_tick: and zulip-mobile#42, K42 **now**';

t.test('a loaded message read after the realm changed has the HTML of the moment it was loaded', async (t) => {
  const base = loadFixture();
  const entry = { sender: 'othello@zulip.com', type: 'stream' as const, to: ['Verona'], topic: 'markup', content: LOADED, sentAt: '2025-05-01T10:00:00Z' };
  const s = testServer({ fixture: { ...base, messages: [...(base.messages ?? []), entry] } });
  // No background search listing either, which would render it (and keep that HTML) before the changes.
  s.app.close();
  const before = render(s.world, LOADED);
  const iago = s.as('iago@zulip.com');
  const verona = s.world.streamByName('Verona')?.id ?? 0;
  t.equal((await iago.patch(`/streams/${verona}`, { new_name: 'Verona Beach' })).status, 200);
  t.equal((await iago.post('/realm/filters', { pattern: 'K(?P<id>[0-9]+)', url_template: 'https://k.example.com/{id}' })).status, 200);
  const emoji = [...s.world.realmEmoji.keys()][0] ?? 0;
  t.equal((await iago.delete(`/realm/emoji/green_tick`)).status, 200, `custom emoji ${emoji} deactivated`);
  t.not(render(s.world, LOADED), before, 'a rendering now would differ');
  const fetched = await s.as('othello@zulip.com').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'topic', operand: 'markup' }] });
  t.equal(fetched.body.messages[0]?.content, before, 'clients read the HTML it had when loaded');
});

t.test('search finds an unrendered loaded message by a word only its HTML has', async (t) => {
  const base = loadFixture();
  const entry = { sender: 'othello@zulip.com', type: 'stream' as const, to: ['Verona'], topic: 'greek', content: 'Letter $$\\alpha$$ here', sentAt: '2025-05-01T10:00:00Z' };
  const s = testServer({ fixture: { ...base, messages: [...(base.messages ?? []), entry] } });
  const found = await s.as('othello@zulip.com').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'search', operand: 'α' }] });
  t.same(found.body.messages.map((m: { subject: string }) => m.subject), ['greek'], 'found by the rendered letter');
  s.app.close();
});
