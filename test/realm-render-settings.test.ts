/**
 * The realm's rendering settings (`inline_image_preview`, `inline_url_embed_preview`,
 * `default_code_block_language`) as the real server applies them: to messages sent after the
 * change, never to messages already stored (the real server does not re-render them).
 */
import t from 'tap';
import { bad, errorOf, type Params, testServer, type TestServer } from './support/harness.js';
import { sendToChannel } from './support/messages.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

const setRealm = async (s: TestServer, params: Params): Promise<void> => {
  const reply = await s.as(IAGO).patch('/realm', params);
  if (reply.status !== 200) throw new Error(`PATCH /realm ${JSON.stringify(params)}: ${reply.text}`);
};

/** Sends `content` to Verona and answers the HTML stored for it. */
async function sent(s: TestServer, content: string): Promise<{ id: number; html: string }> {
  const id = await sendToChannel(s, HAMLET, 'Verona', 'rendering', content);
  return { id, html: await stored(s, id) };
}

const stored = async (s: TestServer, id: number): Promise<string> => (await s.as(HAMLET).get(`/messages/${id}`)).body.message.content as string;

const fence = (language: string, body = "console.log('Hello World');") => `\`\`\`${language}\n${body}\n\`\`\`\n`;

t.test('inline_image_preview off: new image links get no message_inline_image; on again restores it; stored messages keep theirs', async (t) => {
  const s = testServer();
  const image = 'https://example.com/photo.png';
  const before = await sent(s, image);
  t.match(before.html, /<div class="message_inline_image"><a href="https:\/\/example\.com\/photo\.png">/);

  await setRealm(s, { inline_image_preview: false });
  const off = await sent(s, image);
  t.equal(off.html, '<p><a href="https://example.com/photo.png">https://example.com/photo.png</a></p>');
  t.equal(await stored(s, before.id), before.html, 'the earlier message is not re-rendered');

  await setRealm(s, { inline_image_preview: true });
  t.equal((await sent(s, image)).html, before.html);
  t.equal(await stored(s, off.id), off.html, 'the message sent while off keeps its rendering');
});

t.test('inline_url_embed_preview on leaves a new message as first rendered: previews come later from fetching, which this server does not do', async (t) => {
  const s = testServer();
  const link = 'https://example.com/article';
  const before = (await sent(s, link)).html;
  await setRealm(s, { inline_url_embed_preview: true });
  t.equal((await sent(s, link)).html, before);
  t.equal((await s.as(HAMLET).post('/register', { fetch_event_types: ['realm'] })).body.realm_inline_url_embed_preview, true);
});

/** [default language, fence language written, fence language it must render as] (test_default_code_block_language). */
const defaults: Array<[string, string, string]> = [
  ['javascript', '', 'js'],
  ['javascript', 'python', 'python'],
  ['python', '', 'python'],
  ['python', 'none', 'none'],
  ['quote', '', 'quote'],
  ['math', '', 'math'],
];

for (const [language, written, renderedAs] of defaults) {
  t.test(`default_code_block_language ${language}: a new \`\`\`${written} fence renders as \`\`\`${renderedAs}`, async (t) => {
    const s = testServer();
    const expected = (await sent(s, fence(renderedAs))).html;
    const unset = await sent(s, fence(written));
    await setRealm(s, { default_code_block_language: language });
    t.equal((await sent(s, fence(written))).html, expected);
    t.equal(await stored(s, unset.id), unset.html, 'the message sent before the change is not re-rendered');
    await setRealm(s, { default_code_block_language: '' });
    t.equal((await sent(s, fence(written))).html, unset.html, 'clearing the default restores the rendering');
  });
}

t.test('default_code_block_language reaches fences inside quote fences but not inside spoilers', async (t) => {
  const s = testServer();
  const nested = `\`\`\`\`quote\n\n${fence('js')}\n${fence('')}\`\`\`\``;
  const spoiler = `\`\`\`\`spoiler Header\n${fence('')}\`\`\`\``;
  const spoilerBefore = (await sent(s, spoiler)).html;
  await setRealm(s, { default_code_block_language: 'javascript' });
  const blocks = (await sent(s, nested)).html.match(/<div class="codehilite"[^>]*>/g);
  t.same(blocks, ['<div class="codehilite" data-code-language="JavaScript">', '<div class="codehilite" data-code-language="JavaScript">']);
  t.equal((await sent(s, spoiler)).html, spoilerBefore, 'a spoiler looks for fences without the default');
});

t.test('a default language Pygments does not know is written in lower case, as every fence language is', async (t) => {
  const s = testServer();
  await setRealm(s, { default_code_block_language: 'MyLang' });
  t.match((await sent(s, fence(''))).html, /^<div class="codehilite" data-code-language="mylang">/);
  t.match((await sent(s, fence('OtherLang'))).html, /^<div class="codehilite" data-code-language="otherlang">/);
});

t.test('PATCH /realm default_code_block_language answers "updated" only when it changes; before level 195 it echoed the language (null for none)', async (t) => {
  const s = testServer();
  t.equal((await s.as(HAMLET).post('/register', { fetch_event_types: ['realm'] })).body.realm_default_code_block_language, '');
  t.same((await s.as(IAGO).patch('/realm', { default_code_block_language: 'rust' })).body, { result: 'success', msg: '', default_code_block_language: 'updated' });
  t.same((await s.as(IAGO).patch('/realm', { default_code_block_language: 'rust' })).body, { result: 'success', msg: '' });

  const old = testServer({ featureLevel: 194 });
  t.equal((await old.as(HAMLET).post('/register', { fetch_event_types: ['realm'] })).body.realm_default_code_block_language, null);
  t.same((await old.as(IAGO).patch('/realm', { default_code_block_language: 'rust' })).body, { result: 'success', msg: '', default_code_block_language: 'rust' });
  t.same((await old.as(IAGO).patch('/realm', { default_code_block_language: 'rust' })).body, { result: 'success', msg: '', default_code_block_language: 'rust' });
  t.same((await old.as(IAGO).patch('/realm', { default_code_block_language: '' })).body, { result: 'success', msg: '', default_code_block_language: null });
  t.equal((await old.as(HAMLET).post('/register', { fetch_event_types: ['realm'] })).body.realm_default_code_block_language, '', 'a cleared default is ""');
});

const invalid: Array<[string, Params, ReturnType<typeof bad>]> = [
  ['inline_image_preview that is not JSON', { inline_image_preview: 'yes' }, bad('inline_image_preview is not valid JSON')],
  ['inline_image_preview that is not a boolean', { inline_image_preview: '1' }, bad('inline_image_preview is not a boolean')],
  ['inline_url_embed_preview that is not a boolean', { inline_url_embed_preview: '"true"' }, bad('inline_url_embed_preview is not a boolean')],
  // The real server takes any length; this server caps it (docs/deviations.md).
  ['a default_code_block_language over 1000 characters', { default_code_block_language: 'x'.repeat(1001) }, bad('default_code_block_language is too long (limit: 1000 characters)')],
];

for (const [what, params, expected] of invalid) {
  t.test(`PATCH /realm refuses ${what}, changes nothing, and rendering stays as it was`, async (t) => {
    const s = testServer();
    const before = (await sent(s, `${fence('')}\nhttps://example.com/photo.png`)).html;
    t.same(errorOf(await s.as(IAGO).patch('/realm', { ...params, description: 'changed?' })), expected);
    t.not(s.world.realm.description, 'changed?');
    t.equal((await sent(s, `${fence('')}\nhttps://example.com/photo.png`)).html, before);
  });
}

t.test('the rendering settings need an administrator', async (t) => {
  const s = testServer();
  for (const params of [{ inline_image_preview: false }, { inline_url_embed_preview: true }, { default_code_block_language: 'python' }]) {
    t.same(errorOf(await s.as('shiva@zulip.com').patch('/realm', params)), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' }, JSON.stringify(params));
  }
  t.match((await sent(s, 'https://example.com/photo.png')).html, /message_inline_image/);
});
