import t from 'tap';
import { renderMarkdown } from '../lib/rendering/markdown/index.js';
import { render } from '../lib/rendering/render.js';
import { testServer } from './support/harness.js';

const s = testServer();
const VERONA = s.streamId('Verona');
const HAMLET = s.id('hamlet@zulip.com');
const GROUP = [...s.world.groups.values()].find((g) => g.name === 'hamletcharacters')?.id;
const EMOJI = [...s.world.realmEmoji.values()].find((e) => e.name === 'green_tick')?.id;
const smile = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';
const code = (body: string, language?: string) =>
  `<div class="codehilite"${language ? ` data-code-language="${language}"` : ''}><pre><span></span><code>${body}</code></pre></div>`;

/** [behaviour, Markdown, the real server's HTML for it]. */
const CASES: ReadonlyArray<readonly [string, string, string]> = [
  ['plain text is one paragraph', 'hello world', '<p>hello world</p>'],
  ['a newline is a line break', 'one\ntwo', '<p>one<br>\ntwo</p>'],
  ['a blank line starts a new paragraph', 'one\n\ntwo', '<p>one</p>\n<p>two</p>'],
  ['asterisks give emphasis and strong emphasis', 'a *b* **c** ***d***', '<p>a <em>b</em> <strong>c</strong> <strong><em>d</em></strong></p>'],
  ['underscores never give emphasis', '_a_ __b__ snake_case_name', '<p>_a_ __b__ snake_case_name</p>'],
  ['strikethrough is del', 'a ~~b~~ c', '<p>a <del>b</del> c</p>'],
  ['inline code keeps its text literal', 'run `ls *.txt <dir>` now', '<p>run <code>ls *.txt &lt;dir&gt;</code> now</p>'],
  ['raw HTML is escaped, quotes are kept', '<b onclick="x">hi</b>', '<p>&lt;b onclick="x"&gt;hi&lt;/b&gt;</p>'],
  ['a fence without language', '```\nx = 1\n```', code('x = 1\n')],
  ['a fence names its language as Pygments does', '```py\nprint("hi")\n```', code('print(&quot;hi&quot;)\n', 'Python')],
  ['tilde fences, dotted languages and trailing spaces', '~~~ .js  \nlet a;   \n~~~', code('let a;\n', 'JavaScript')],
  ['an unknown language is kept as written', '```mylang\nabc\n```', code('abc\n', 'mylang')],
  ['a four-space indent is a code block', '    indented', code('indented\n')],
  ['a bulleted list', '* a\n* b', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>'],
  ['a list may hang off a paragraph', 'Items:\n- a\n- b', '<p>Items:</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>'],
  ['a nested list follows its item text', '* a\n  * b', '<ul>\n<li>a<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>'],
  ['a numbered list keeps its start', '3. x\n4. y', '<ol start="3">\n<li>x</li>\n<li>y</li>\n</ol>'],
  ['a quote', '> wise words', '<blockquote>\n<p>wise words</p>\n</blockquote>'],
  ['a quote fence holds Markdown', '```quote\n**bold** text\n```', '<blockquote>\n<p><strong>bold</strong> text</p>\n</blockquote>'],
  ['a heading needs a space after the hashes', '# Title\n#notitle', '<h1>Title</h1>\n<p>#notitle</p>'],
  [
    'a spoiler with a header',
    '```spoiler Ending\nThey all die.\n```',
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>Ending</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>They all die.</p>\n</div></div>',
  ],
  [
    'a spoiler without a header',
    '```spoiler\nsecret\n```',
    '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>secret</p>\n</div></div>',
  ],
  ['a bare URL is linked without target attributes', 'see https://zulip.com/help.', '<p>see <a href="https://zulip.com/help">https://zulip.com/help</a>.</p>'],
  ['a bare domain gets http://', 'go to zulip.org now', '<p>go to <a href="http://zulip.org">zulip.org</a> now</p>'],
  ['a named link', '[docs](https://zulip.com/api)', '<p><a href="https://zulip.com/api">docs</a></p>'],
  ['an empty link text shows the URL', '[](https://zulip.com)', '<p><a href="https://zulip.com">https://zulip.com</a></p>'],
  ['a link without scheme gets http://', '[home](example.org)', '<p><a href="http://example.org">home</a></p>'],
  ['a javascript: link stays text', '[x](javascript:alert(1))', '<p>[x](javascript:alert(1))</p>'],
  ['link URLs are percent-encoded and link text escaped', '[<i>a"b</i>](https://x.com/a"b?c=1&d=2)', '<p><a href="https://x.com/a%22b?c=1&amp;d=2">&lt;i&gt;a"b&lt;/i&gt;</a></p>'],
  ['a fence language cannot inject attributes', '```py" onload="x\ncode\n```', code('code\n', 'Python')],
  ['relative links pass', '[file](/user_uploads/2/ab/c/f.txt)', '<p><a href="/user_uploads/2/ab/c/f.txt">file</a></p>'],
  ['emoji by name', 'hi :smile:', `<p>hi ${smile}</p>`],
  ['an alias keeps its own name in the title', ':thumbs_up:', '<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span></p>'],
  ['a Unicode emoji character gets the same markup', 'hi 🙂', `<p>hi ${smile}</p>`],
  ['unknown emoji names stay text', ':not_an_emoji: x::y', '<p>:not_an_emoji: x::y</p>'],
  ['the zulip emoji is an image', ':zulip:', '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>'],
  ['custom emoji are images', ':green_tick:', `<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/${EMOJI}.png" title="green tick"></p>`],
  ['a user mention', 'hi @**King Hamlet**', `<p>hi <span class="user-mention" data-user-id="${HAMLET}">@King Hamlet</span></p>`],
  ['a mention by name is case-insensitive', '@**king hamlet**', `<p><span class="user-mention" data-user-id="${HAMLET}">@King Hamlet</span></p>`],
  ['a mention with an ID', `@**King Hamlet|${HAMLET}**`, `<p><span class="user-mention" data-user-id="${HAMLET}">@King Hamlet</span></p>`],
  ['a mention with only an ID', `@**|${HAMLET}**`, `<p><span class="user-mention" data-user-id="${HAMLET}">@King Hamlet</span></p>`],
  ['a name that does not match the ID is no mention', `@**Iago|${HAMLET}**`, `<p>@<strong>Iago|${HAMLET}</strong></p>`],
  ['a silent mention', '@_**King Hamlet**', `<p><span class="user-mention silent" data-user-id="${HAMLET}">King Hamlet</span></p>`],
  ['an unknown user is no mention', '@**Nobody Here**', '<p>@<strong>Nobody Here</strong></p>'],
  ['a mention needs a space or delimiter before it', 'mail@**King Hamlet**', '<p>mail@<strong>King Hamlet</strong></p>'],
  ['channel wildcards', '@**all** @**everyone** @**channel**', '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> <span class="user-mention channel-wildcard-mention" data-user-id="*">@everyone</span> <span class="user-mention channel-wildcard-mention" data-user-id="*">@channel</span></p>'],
  ['the topic wildcard', '@**topic**', '<p><span class="topic-mention">@topic</span></p>'],
  ['a group mention', '@*hamletcharacters*', `<p><span class="user-group-mention" data-user-group-id="${GROUP}">@hamletcharacters</span></p>`],
  ['a silent group mention', '@_*hamletcharacters*', `<p><span class="user-group-mention silent" data-user-group-id="${GROUP}">hamletcharacters</span></p>`],
  ['mentions in quotes are silent', '> @**King Hamlet** @*hamletcharacters*', `<blockquote>\n<p><span class="user-mention silent" data-user-id="${HAMLET}">King Hamlet</span> <span class="user-group-mention silent" data-user-group-id="${GROUP}">hamletcharacters</span></p>\n</blockquote>`],
  ['a channel link', '#**Verona**', `<p><a class="stream" data-stream-id="${VERONA}" href="/#narrow/channel/${VERONA}-Verona">#Verona</a></p>`],
  ['a topic link', '#**Verona>lunch time**', `<p><a class="stream-topic" data-stream-id="${VERONA}" href="/#narrow/channel/${VERONA}-Verona/topic/lunch.20time">#Verona &gt; lunch time</a></p>`],
  ['a message link', '#**Verona>lunch@42**', `<p><a class="message-link" href="/#narrow/channel/${VERONA}-Verona/topic/lunch/near/42">#Verona &gt; lunch @ 💬</a></p>`],
  ['an unknown channel stays text', '#**Atlantis**', '<p>#<strong>Atlantis</strong></p>'],
  ['a global time', '<time:2025-06-01T12:00:00+02:00>', '<p><time datetime="2025-06-01T10:00:00Z">2025-06-01T12:00:00+02:00</time></p>'],
  ['a global time without zone is read as UTC', '<time:31 Dec 2024 10:30>', '<p><time datetime="2024-12-31T10:30:00Z">31 Dec 2024 10:30</time></p>'],
  ['a UNIX timestamp', '<time:1735641000>', '<p><time datetime="2024-12-31T10:30:00Z">1735641000</time></p>'],
  ['an unreadable time', '<time:soon>', '<p><span class="timestamp-error">Invalid time format: soon</span></p>'],
  ['a linkifier links its match; of two matching linkifiers the earlier wins', 'see zulip-mobile#1234', '<p>see <a href="https://github.com/zulip/zulip-mobile/pull/1234">zulip-mobile#1234</a></p>'],
  ['a later linkifier links what the earlier ones left', 'zulip-desktop#55', '<p><a href="https://github.com/zulip/desktop/pull/55">zulip-desktop#55</a></p>'],
  ['a linkifier match needs a boundary before and after', 'xzulip-mobile#12 zulip-mobile#12b', '<p>xzulip-mobile#12 zulip-mobile#12b</p>'],
  ['adjacent linkifier matches are all linked', '#D12 #D34', '<p><a href="https://github.com/zulip/zulip-desktop/pull/12">#D12</a> <a href="https://github.com/zulip/zulip-desktop/pull/34">#D34</a></p>'],
  ['linkifiers leave code alone', '`#D12`', '<p><code>#D12</code></p>'],
];

for (const [title, source, html] of CASES) {
  t.test(`renders ${title}`, async (t) => {
    t.equal(render(s.world, source), html);
  });
}

t.test('links to the realm own narrow views become relative', async (t) => {
  const html = renderMarkdown('https://chat.example.com/#narrow/channel/3-Verona and https://chat.example.com/help', { realmUrl: 'https://chat.example.com' });
  t.equal(html, '<p><a href="#narrow/channel/3-Verona">https://chat.example.com/#narrow/channel/3-Verona</a> and <a href="https://chat.example.com/help">https://chat.example.com/help</a></p>');
});

t.test('a deactivated user is mentioned silently', async (t) => {
  const html = renderMarkdown('@**Old Timer**', { findUser: () => ({ id: 99, fullName: 'Old Timer', isActive: false }) });
  t.equal(html, '<p><span class="user-mention silent" data-user-id="99">Old Timer</span></p>');
});

t.test('a fence without language takes the realm default language', async (t) => {
  t.equal(renderMarkdown('```\nx\n```', { defaultCodeBlockLanguage: 'python' }), code('x\n', 'Python'));
});

t.test('linkifier templates expand RFC 6570 operators and percent-encode values', async (t) => {
  const html = renderMarkdown('ticket T-a/b', { linkifiers: [{ pattern: 'T-(?P<id>[a-z/]+)', urlTemplate: 'https://x.test/t{/id}?q={id}&r={+id}' }] });
  t.equal(html, '<p>ticket <a href="https://x.test/t/a%2Fb?q=a%2Fb&amp;r=a/b">T-a/b</a></p>');
});

t.test('a catastrophic linkifier pattern runs in linear time', async (t) => {
  const started = Date.now();
  const html = renderMarkdown(`${'a'.repeat(5000)}!`, { linkifiers: [{ pattern: '(a+)+b', urlTemplate: 'https://x.test/{x}' }] });
  t.match(html, /^<p>a+!<\/p>$/);
  t.ok(Date.now() - started < 2000, 'no exponential backtracking');
});

t.test('a group mention flags its members as mentioned; silent and quoted mentions flag nobody', async (t) => {
  const server = testServer();
  const send = async (content: string) => {
    const reply = await server.as('iago@zulip.com').post('/messages', { type: 'stream', to: 'Verona', topic: 'mentions', content });
    return server.world.messages.get(reply.body.id as number);
  };
  const mentionedIds = (m: Awaited<ReturnType<typeof send>>) =>
    [...(m?.flags ?? new Map<number, Set<string>>())].filter(([, flags]) => flags.has('mentioned')).map(([id]) => id).sort((a, b) => a - b);
  const hamletcharacters = [server.id('cordelia@zulip.com'), server.id('hamlet@zulip.com')].sort((a, b) => a - b);
  t.same(mentionedIds(await send('hi @*hamletcharacters*')), hamletcharacters);
  t.same(mentionedIds(await send('hi @_*hamletcharacters*')), []);
  t.same(mentionedIds(await send('> hi @*hamletcharacters* @**King Hamlet**')), []);
  t.same(mentionedIds(await send('hi @**King Hamlet**')), [server.id('hamlet@zulip.com')]);
});

t.test('wildcard mentions flag every recipient, or the topic participants for @**topic**; silent ones flag nobody', async (t) => {
  const server = testServer();
  const send = async (email: string, content: string, topic = 'wildcards') => {
    const reply = await server.as(email).post('/messages', { type: 'stream', to: 'Verona', topic, content });
    return server.world.messages.get(reply.body.id as number)!;
  };
  const holders = (m: Awaited<ReturnType<typeof send>>, flag: string) =>
    [...m.flags].filter(([, flags]) => flags.has(flag)).map(([id]) => id).sort((a, b) => a - b);
  const all = await send('iago@zulip.com', 'hear ye @**all**');
  t.same(holders(all, 'stream_wildcard_mentioned'), [...all.flags.keys()].sort((a, b) => a - b));
  t.same(holders(await send('iago@zulip.com', 'quietly @_**everyone**'), 'stream_wildcard_mentioned'), []);
  await send('othello@zulip.com', 'I was here');
  const topic = await send('hamlet@zulip.com', 'ping @**topic**');
  t.same(holders(topic, 'topic_wildcard_mentioned'), ['hamlet', 'iago', 'othello'].map((n) => server.id(`${n}@zulip.com`)).sort((a, b) => a - b));
  t.same(holders(await send('hamlet@zulip.com', '@**topic**', 'elsewhere'), 'topic_wildcard_mentioned'), [server.id('hamlet@zulip.com')]);
  const edited = await server.as('hamlet@zulip.com').patch(`/messages/${topic.id}`, { content: 'never mind' });
  t.equal(edited.status, 200);
  t.same(holders(server.world.messages.get(topic.id)!, 'topic_wildcard_mentioned'), [], 'an edit re-derives the flags');
});
