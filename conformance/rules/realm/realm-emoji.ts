/**
 * Custom emoji: `POST /realm/emoji/{emoji_name}` (one multipart image; the name rules of the
 * real server's `check_valid_emoji_name`; who may add them per `can_add_custom_emoji_group`,
 * level 307), `DELETE /realm/emoji/{emoji_name}` (administrators or the emoji's author; the
 * emoji stays listed, deactivated), `GET /realm/emoji` and the `realm_emoji` update events.
 * Every emoji a rule adds is deactivated when it ends.
 */
import type { JsonObject, Reply } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { awaitEvent } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import { expectAllowed, holdersByRole, mayAct, realmState, ROLES_AND_GUEST } from '../support/realm-permissions.js';
import type { Rule, RuleContext } from '../types.js';
import { activeEmoji, type ApiEmoji, emojiPath, emojiRule, listEmoji, pngPart, realmEmojiShape } from './realm-emoji-support.js';

const SECTION = 'api/upload-custom-emoji';
/** Level 307: the realm's `can_add_custom_emoji_group`. */
const ADD_GROUP_LEVEL = 307;

/** An emoji name of the run (lowercase letters, digits and dashes, ending in a digit). */
const emojiName = (ctx: RuleContext, label: string): string => ctx.name(`emoji-${label}`);

/** A missing emoji: 400 on older servers, 404 on newer ones, `BAD_REQUEST` either way. */
function expectNoSuchEmoji(reply: Reply): void {
  check((reply.status === 400 || reply.status === 404) && reply.body?.code === 'BAD_REQUEST', `a missing emoji should answer 400 or 404 BAD_REQUEST; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
}

const eventShape = v.object({ type: v.literal('realm_emoji'), op: v.literal('update'), realm_emoji: realmEmojiShape });

/** The `realm_emoji` event listing `name` with `deactivated`; its list must be what GET /realm/emoji gives. */
async function expectEmojiEvent(ctx: RuleContext, queue: Parameters<typeof awaitEvent>[0], name: string, deactivated: boolean): Promise<void> {
  const shows = (event: JsonObject) =>
    event.type === 'realm_emoji' && Object.values((event.realm_emoji ?? {}) as Record<string, ApiEmoji>).some((emoji) => emoji.name === name && emoji.deactivated === deactivated);
  const event = expectShape(await awaitEvent(queue, shows, `${name} ${deactivated ? 'deactivated' : 'added'}`), eventShape, 'the realm_emoji event');
  const listed = await listEmoji(ctx.as('second-member'));
  expectEqual(Object.values(event.realm_emoji).filter((emoji) => emoji.name === name), listed.filter((emoji) => emoji.name === name), `the emoji named ${name} in the event and in GET /realm/emoji`);
}

const lifecycle = emojiRule({
  id: 'realm-emoji/add-list-deactivate-with-events',
  title: 'an added emoji is listed active with its author; deleting it keeps it listed as deactivated; each change sends realm_emoji update with the whole set; a second delete is refused (400 or 404) and the name can be used again',
  endpoint: 'POST, DELETE /realm/emoji/{emoji_name}, GET /realm/emoji',
  section: `${SECTION}; api/deactivate-custom-emoji; api/get-events`,
  needs: ['admin', 'member', 'second-member'],
}, async (ctx, { emoji, reader }) => {
  const admin = ctx.as('admin');
  const queue = await openStreamAs(ctx, 'second-member', ['realm_emoji']);
  const name = emojiName(ctx, 'life');
  expectSuccess(await emoji.upload(admin, name));
  const added = await activeEmoji(reader, name);
  check(added !== undefined, `the new emoji ${name} is not listed active`);
  if (added.author_id !== undefined) expectEqual(added.author_id, ctx.identity('admin').userId, 'author_id of the new emoji');
  check(added.source_url !== '', 'source_url of the new emoji is empty');
  await expectEmojiEvent(ctx, queue, name, false);
  expectSuccess(await admin.delete(emojiPath(name)));
  const listed = (await listEmoji(reader)).filter((entry) => entry.name === name);
  expectEqual(listed.map((entry) => [entry.id, entry.deactivated]), [[added.id, true]], 'the emoji after its deletion (still listed, deactivated)');
  await expectEmojiEvent(ctx, queue, name, true);
  expectNoSuchEmoji(await admin.delete(emojiPath(name)));
  expectSuccess(await emoji.upload(admin, name));
  const again = await activeEmoji(reader, name);
  check(again !== undefined && again.id !== added.id, `adding ${name} again after its deactivation should create a new active emoji`);
});

/** Names the real server refuses, with why. */
const BAD_NAMES: ReadonlyArray<readonly [string, (tag: string) => string]> = [
  ['an uppercase letter', (tag) => `${tag}-Upper`],
  ['a trailing dash', (tag) => `${tag}-`],
  ['a trailing underscore', (tag) => `${tag}_`],
  ['a dot', (tag) => `${tag}.png`],
  ['a non-ASCII letter', (tag) => `${tag}-café`],
  ['a punctuation mark', (tag) => `${tag}!`],
  ['only spaces', () => '   '],
];

const nameRules = emojiRule({
  id: 'realm-emoji/name-rules',
  title: 'names are stripped and spaces become underscores; only lowercase letters, digits, dashes and underscores, ending in a letter or digit, are accepted; other names, a name in use and a member overriding a built-in emoji are refused (400 BAD_REQUEST)',
  section: SECTION,
}, async (ctx, { emoji, reader }) => {
  const admin = ctx.as('admin');
  const builtIn = 'octopus';
  const overridden = (await listEmoji(reader)).filter((entry) => entry.name === builtIn && !entry.deactivated).length;
  const refused: string[] = [];
  for (const [, make] of BAD_NAMES) {
    const name = make(emojiName(ctx, 'bad'));
    refused.push(name.trim());
    expectError(await emoji.upload(admin, name), { status: 400, code: 'BAD_REQUEST' });
  }
  expectError(await emoji.upload(reader, builtIn), { status: 400, code: 'BAD_REQUEST' });
  const base = emojiName(ctx, 'ok');
  expectSuccess(await emoji.upload(admin, `  ${base} with spaces  `));
  const plain = `${emojiName(ctx, 'x')}_a-0`;
  expectSuccess(await emoji.upload(admin, plain));
  expectError(await emoji.upload(admin, plain), { status: 400, code: 'BAD_REQUEST' });
  const listed = await listEmoji(reader);
  expectEqual(listed.filter((entry) => refused.includes(entry.name)).map((entry) => entry.name), [], 'emoji added under refused names');
  check(listed.some((entry) => entry.name === `${base}_with_spaces` && !entry.deactivated), `"  ${base} with spaces  " should be stored as ${base}_with_spaces`);
  expectEqual(listed.filter((entry) => entry.name === plain && !entry.deactivated).length, 1, `active emoji named ${plain} after adding it twice`);
  expectEqual(listed.filter((entry) => entry.name === builtIn && !entry.deactivated).length, overridden, 'custom emoji named octopus after a member tried to override the built-in one');
});

const oneFile = emojiRule({
  id: 'realm-emoji/exactly-one-file',
  title: 'an upload without a file or with two files is refused (400 BAD_REQUEST) and adds nothing',
  section: SECTION,
}, async (ctx, { emoji, reader }) => {
  const admin = ctx.as('admin');
  const names: string[] = [];
  for (const files of [[], [pngPart('first'), pngPart('second')]]) {
    const name = emojiName(ctx, 'files');
    names.push(name);
    expectError(await emoji.upload(admin, name, files), { status: 400, code: 'BAD_REQUEST' });
  }
  const added = (await listEmoji(reader)).filter((entry) => names.includes(entry.name));
  expectEqual(added.map((entry) => entry.name), [], 'emoji added by uploads without exactly one file');
});

const byRole = emojiRule({
  id: 'realm-emoji/add-by-role',
  title: 'each role adds an emoji exactly when it holds the realm\'s can_add_custom_emoji_group; a guest never; a refused upload adds nothing',
  section: `${SECTION}; api/register-queue`,
  levels: { min: ADD_GROUP_LEVEL },
  needs: ['owner', 'admin', 'moderator', 'member', 'guest'],
}, async (ctx, { emoji, reader }) => {
  const admin = ctx.as('admin');
  const may = await holdersByRole(ctx, await realmState(admin), 'realm_can_add_custom_emoji_group');
  const names = new Map<string, boolean>();
  for (const who of ROLES_AND_GUEST) {
    const name = emojiName(ctx, who);
    const allowed = mayAct(may, who);
    names.set(name, allowed);
    expectAllowed(await emoji.upload(ctx.as(who), name), allowed, `the ${who} adding an emoji`);
  }
  const listed = await listEmoji(reader);
  for (const [name, allowed] of names) expectEqual(listed.some((entry) => entry.name === name && !entry.deactivated), allowed, `whether ${name} is listed`);
});

/** The first of these roles that may add emoji (from level 307 by the realm setting; before, the member). */
async function anAuthor(ctx: RuleContext): Promise<IdentityName | undefined> {
  if (ctx.featureLevel < ADD_GROUP_LEVEL) return 'member';
  const may = await holdersByRole(ctx, await realmState(ctx.as('admin')), 'realm_can_add_custom_emoji_group', ['member', 'moderator']);
  return (['member', 'moderator'] as const).find((who) => may.get(who) === true);
}

const deleteByRole = emojiRule({
  id: 'realm-emoji/deactivate-by-role',
  title: 'an emoji is deactivated by its author or an administrator; other members, moderators and guests are refused (400 BAD_REQUEST) and it stays active',
  endpoint: 'DELETE /realm/emoji/{emoji_name}',
  section: 'api/deactivate-custom-emoji',
  needs: ['admin', 'moderator', 'member', 'second-member', 'guest'],
}, async (ctx, { emoji, reader }) => {
  const admin = ctx.as('admin');
  const author = (await anAuthor(ctx)) ?? ctx.skip('neither the member nor the moderator may add custom emoji on this target');
  const first = emojiName(ctx, 'by-author');
  const second = emojiName(ctx, 'by-admin');
  for (const name of [first, second]) expectSuccess(await emoji.upload(ctx.as(author), name));
  const others: IdentityName[] = ['second-member', 'guest', ...(author === 'member' ? (['moderator'] as const) : (['member'] as const))];
  for (const who of others) expectError(await ctx.as(who).delete(emojiPath(first)), { status: 400, code: 'BAD_REQUEST' });
  check((await activeEmoji(reader, first)) !== undefined, `a refused delete deactivated ${first}`);
  expectSuccess(await ctx.as(author).delete(emojiPath(first)));
  expectSuccess(await admin.delete(emojiPath(second)));
  const left = (await listEmoji(reader)).filter((entry) => (entry.name === first || entry.name === second) && !entry.deactivated);
  expectEqual(left.map((entry) => entry.name), [], 'active emoji after the author\'s and the administrator\'s deletes');
});

export const rules: readonly Rule[] = [lifecycle, nameRules, oneFile, byRole, deleteByRole];
