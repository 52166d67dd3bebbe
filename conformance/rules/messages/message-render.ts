/**
 * `POST /messages/render` (api/render-message): the HTML the realm would store, for inputs whose
 * rendering the real server guarantees (a paragraph, emphasis), for any role and for content of
 * `max_message_length` characters; nothing is sent (no message event); `content` is required.
 * Content over the limit is not checked: servers up to level 415 render it, later ones refuse it.
 */
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { openQueue } from '../support/channel-fixtures.js';
import { eventsBeforeSentinel } from '../support/event-waits.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import type { Rule } from '../types.js';
import { messageRules, send, textOfLength } from './send-support.js';

const rendered = v.object({ rendered: v.string() });

const CASES: ReadonlyArray<readonly [content: string, html: string]> = [
  ['hello', '<p>hello</p>'],
  ['**bold** text', '<p><strong>bold</strong> text</p>'],
  ['*one* two', '<p><em>one</em> two</p>'],
];

const ROLES: readonly IdentityName[] = ['owner', 'admin', 'moderator', 'member', 'guest'];

const renderStructure: Rule = {
  id: 'message-render/html-for-every-role-and-nothing-sent',
  title: 'each role gets the HTML the server guarantees (a paragraph, strong and em emphasis) and content of max_message_length characters renders; rendering sends no message event; without content the answer is 400 REQUEST_VARIABLE_MISSING',
  endpoint: 'POST /messages/render',
  section: 'api/render-message',
  writes: true,
  needs: [...ROLES],
  async run(ctx) {
    for (const [i, who] of ROLES.entries()) {
      const [content, html] = CASES[i % CASES.length]!;
      const reply = await ctx.as(who).post('/messages/render', { content });
      expectEqual(expectShape(expectSuccess(reply), rendered, 'body', reply).rendered, html, `the rendering of ${JSON.stringify(content)} for the ${who}`, reply);
    }
    const member = ctx.as('member');
    const { maxMessageLength } = await messageRules(member);
    const long = await member.post('/messages/render', { content: textOfLength(maxMessageLength) });
    const html = expectShape(expectSuccess(long), rendered, 'body', long).rendered;
    check(html.startsWith('<p>') && html.endsWith('</p>'), `content of ${maxMessageLength} characters renders as a paragraph`, long);
    expectError(await member.post('/messages/render', {}), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    // Nothing is sent: the member's queue sees no message event before its own note to itself.
    const queue = await openQueue(member, ['message']);
    ctx.cleanup("delete the member's message queue", async () => queue.close());
    const marker = ctx.name('render-only');
    expectSuccess(await member.post('/messages/render', { content: marker }));
    let noteId = 0;
    const me = ctx.identity('member').userId;
    const before = await eventsBeforeSentinel(
      queue,
      async () => void (noteId = await send(ctx, member, { type: 'private', to: [me], content: ctx.name('note-to-self') })),
      (event) => event.type === 'message' && (event.message as { id?: unknown }).id === noteId,
      "the member's note to itself",
    );
    // Late events of earlier rules may arrive too: only a message holding the rendered text counts.
    const echoes = before.filter((event) => event.type === 'message' && String((event.message as { content?: unknown }).content).includes(marker));
    expectEqual(echoes.length, 0, 'message events holding the rendered text');
  },
};

const credentials = credentialsRequired({
  id: 'messages/credentials-required',
  endpoint: 'POST /messages',
  section: 'api/send-message; api/get-messages; api/get-message; api/render-message',
  requests: [
    ['POST', '/messages', { type: 'private', to: [1], content: 'x' }],
    ['GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0 }],
    ['GET', '/messages/1'],
    ['GET', '/messages/matches_narrow', { msg_ids: [1], narrow: [] }],
    ['POST', '/messages/render', { content: 'x' }],
  ],
});

export const rules: readonly Rule[] = [renderStructure, credentials];
