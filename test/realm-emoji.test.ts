import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { bad, errorOf, type Reply, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const OTHELLO = 'othello@zulip.com';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

type Part = readonly [field: string, fileName: string, content: Uint8Array, type?: string];

async function multipart(parts: readonly Part[]) {
  const form = new FormData();
  for (const [field, fileName, content, type] of parts) form.append(field, new Blob([content], { type: type ?? 'image/png' }), fileName);
  const response = new Response(form);
  return { contentType: response.headers.get('content-type') as string, body: new Uint8Array(await response.arrayBuffer()) };
}

async function upload(s: TestServer, email: string, name: string, parts: readonly Part[] = [['f1', 'img.png', PNG]]): Promise<Reply> {
  return s.as(email).post(`/realm/emoji/${name}`, {}, { rawBody: await multipart(parts) });
}

const emojiList = async (s: TestServer): Promise<Record<string, Record<string, unknown>>> => (await s.as(OTHELLO).get('/realm/emoji')).body.emoji;

t.test('a member uploads an emoji: it is listed with its author and an image URL, and the image is kept', async (t) => {
  const s = testServer();
  const reply = await upload(s, OTHELLO, 'my_emoji');
  t.same(reply.body, { result: 'success', msg: '' });
  t.same((await emojiList(s))['2'], {
    id: '2',
    name: 'my_emoji',
    source_url: '/user_avatars/2/emoji/images/2.png',
    still_url: null,
    deactivated: false,
    author_id: s.id(OTHELLO),
  });
  t.same(s.world.realmEmoji.get(2)?.bytes, PNG);
  t.equal((await upload(s, IAGO, ' party parrot ')).status, 200, 'spaces become underscores and the name is stripped');
  t.equal((await emojiList(s))['3']?.name, 'party_parrot');
});

const GIF = new Uint8Array([...'GIF89a'].map((c) => c.charCodeAt(0)).concat([1, 0, 1, 0]));
const TEXT = new TextEncoder().encode('not an image at all');

/** Zulip's `BadImageError` (zerver/lib/thumbnail.py): the type check and the libvips decode. */
const badImage = (msg: string) => ({ status: 400, code: 'BAD_IMAGE', msg });

const uploadErrors: Array<[string, string, readonly Part[] | undefined, string, 'BAD_IMAGE'?]> = [
  ['an uppercase name', 'my_EMoji', undefined, 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
  ['a name with a slash', 'my/emoji', undefined, 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
  ['a name ending in an underscore', 'my_emoji_', undefined, 'Emoji names must end with either a letter or digit.'],
  ['a blank name', '%20', undefined, 'Emoji name is missing'],
  ['a name in use', 'green_tick', undefined, 'A custom emoji with this name already exists.'],
  ['two files', 'two', [['f1', 'a.png', PNG], ['f2', 'b.png', PNG]], 'You must upload exactly one file.'],
  ['no file', 'none', [], 'You must upload exactly one file.'],
  ['a file over 5 MiB', 'big', [['f1', 'big.png', new Uint8Array(5 * 1024 * 1024 + 1)]], 'Uploaded file is larger than the allowed limit of 5 MiB'],
  ['a type that is not shown inline', 'tif', [['f1', 'img.tif', PNG, 'image/tiff']], 'Invalid image format', 'BAD_IMAGE'],
  // The declared type is not trusted: the bytes must decode (zerver/tests/test_realm_emoji.py `test_upload_bad_file`).
  ['bytes that are not an image, declared as PNG', 'text', [['f1', 'img.png', TEXT, 'image/png']], 'Could not decode image; did you upload an image file?', 'BAD_IMAGE'],
];

for (const [what, name, parts, msg, code] of uploadErrors) {
  t.test(`POST /realm/emoji refuses ${what}`, async (t) => {
    const s = testServer();
    t.same(errorOf(await upload(s, IAGO, name, parts)), code ? badImage(msg) : bad(msg));
    t.equal(s.world.realmEmoji.size, 1, 'nothing was added');
  });
}

t.test('an image is accepted whatever image type its part declares, as libvips reads any enabled format', async (t) => {
  const s = testServer();
  t.equal((await upload(s, IAGO, 'gif_as_png', [['f1', 'img.png', GIF, 'image/png']])).status, 200);
  t.equal(s.world.realmEmoji.get(2)?.fileName, '2.png', 'the declared type names the stored file');
});

t.test('only administrators may override a default emoji name', async (t) => {
  const s = testServer();
  t.same(errorOf(await upload(s, OTHELLO, 'smile')), bad('Only administrators can override default emoji.'));
  t.equal((await upload(s, IAGO, 'smile')).status, 200);
});

t.test('who may add follows can_add_custom_emoji_group; guests and bots never may', async (t) => {
  const s = testServer();
  t.same(errorOf(await upload(s, 'polonius@zulip.com', 'g')), bad('Not allowed for guest users'));
  const moderators = s.world.systemGroupId('role:moderators');
  t.equal((await s.as('desdemona@zulip.com').patch('/realm', { can_add_custom_emoji_group: { new: moderators } })).status, 200);
  t.same(errorOf(await upload(s, OTHELLO, 'm1')), bad('Insufficient permission'));
  t.equal((await upload(s, 'shiva@zulip.com', 'm2')).status, 200, 'a moderator may');
  t.equal((await upload(s, IAGO, 'm3')).status, 200, 'an administrator may');
});

t.test('DELETE deactivates: administrators any emoji, members only their own', async (t) => {
  const s = testServer();
  await upload(s, OTHELLO, 'mine');
  t.same(errorOf(await s.as('cordelia@zulip.com').delete('/realm/emoji/mine')), bad('Must be an organization administrator or emoji author'));
  t.equal((await s.as(OTHELLO).delete('/realm/emoji/mine')).status, 200);
  t.equal((await emojiList(s))['2']?.deactivated, true, 'still listed, deactivated');
  t.same(errorOf(await s.as(IAGO).delete('/realm/emoji/mine')), bad("Emoji 'mine' does not exist", 404));
  t.equal((await s.as('shiva@zulip.com').delete('/realm/emoji/green_tick')).status, 400, 'a moderator is not an administrator');
  t.equal((await s.as(IAGO).delete('/realm/emoji/green_tick')).status, 200);
  t.equal((await upload(s, OTHELLO, 'mine')).status, 200, 'a deactivated name can be used again');
  t.equal(Object.keys(await emojiList(s)).length, 3);
});

for (const [name, action] of [
  ['upload', (s: TestServer) => upload(s, OTHELLO, 'new_one')],
  ['deactivation', (s: TestServer) => s.as(IAGO).delete('/realm/emoji/green_tick')],
] as const) {
  t.test(`emoji ${name}: every active account gets the whole realm_emoji object, and a client converges`, async (t) => {
    const s = testServer();
    const everyone = listenAll(s);
    const events = await checkEventsConverge(t, s.as('hamlet@zulip.com'), { fetchEventTypes: ['realm_emoji'], action: () => action(s) });
    checkEventShapes(t, events);
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [{ type: 'realm_emoji', op: 'update', realm_emoji: await emojiList(s) }],
    );
    checkRecipients(t, everyone.received(), isEvent('realm_emoji'), activeIds(s), `realm_emoji after ${name}`);
  });
}
