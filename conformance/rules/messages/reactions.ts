/**
 * `POST`/`DELETE /messages/{message_id}/reactions` (the real server's add-reaction and
 * remove-reaction pages): every emoji type named every way a client may name it, read back by
 * another user through `GET /messages/{id}` (level 120); duplicates refused, a second user's
 * reaction with the same code counted as a vote under the first name; removing what is not
 * there refused; every invalid name, code and type combination refused without a trace.
 */
import type { Reply } from '../../client/api-client.js';
import { expectEqual } from '../../expect/assert.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { FAR_ID_FLOOR } from '../support/message-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule, RuleContext } from '../types.js';
import { conversationRule, expectRefused, LEVEL } from './message-flags-support.js';
import {
  addReaction,
  type Emoji,
  type EmojiFields,
  emojiCatalog,
  emojiParams,
  expectReactionError,
  reactionKey,
  reactionKeys,
  reactionsOf,
  removeReaction,
  UNICODE,
  ZULIP,
} from './reactions-support.js';

const ADD = 'POST /messages/{message_id}/reactions';
const REMOVE = 'DELETE /messages/{message_id}/reactions';

/** One step of a table: which of the two messages, which emoji, named by which fields. */
type Row = readonly [message: 0 | 1, emoji: Emoji, fields: EmojiFields];

const everyType = conversationRule({
  id: 'reactions/every-emoji-type-added-and-removed-each-way',
  title: 'Unicode emoji (by name, name and code, name and type, all three), zulip and a custom emoji are added as named, read back by another user with user_id, name, code and type, and removed by code, by name, by name and type, by code and type',
  section: 'api/add-reaction; api/remove-reaction; api/get-message',
  endpoint: ADD,
  levels: { min: LEVEL.MESSAGE_OBJECT },
}, async (ctx, { sender, reader, thread }) => {
  const { custom } = await emojiCatalog(ctx, reader);
  const { ids } = await thread('reactions', 2);
  const adds: Row[] = [
    [0, UNICODE.octopus, 'name'],
    [0, UNICODE.heart, 'name+code'],
    [0, UNICODE.tada, 'name+type'],
    [0, ZULIP, 'name'],
    [1, UNICODE.thumbsUp, 'name+code+type'],
    [1, ZULIP, 'name+code+type'],
    [1, UNICODE.octopus, 'name+code'],
    ...(custom ? ([[0, custom, 'name'], [1, custom, 'name+code+type']] as const) : []),
  ];
  const removes: Row[] = [
    [0, UNICODE.octopus, 'name'],
    [0, UNICODE.heart, 'code'],
    [0, UNICODE.tada, 'code+type'],
    [0, ZULIP, 'name+type'],
    [1, UNICODE.thumbsUp, 'name+code+type'],
    [1, ZULIP, 'code+type'],
    [1, UNICODE.octopus, 'name+type'],
    ...(custom ? ([[0, custom, 'name+type'], [1, custom, 'code+type']] as const) : []),
  ];
  // The sender reacts to its own messages; the second member reads them back.
  const reactorId = ctx.identity('member').userId;
  for (const [message, emoji, fields] of adds) expectPlainSuccess(await addReaction(sender, ids[message]!, emojiParams(emoji, fields)));
  for (const message of [0, 1] as const) {
    const expected = adds.filter((row) => row[0] === message).map(([, emoji]) => reactionKey(reactorId, emoji)).sort();
    expectEqual(reactionKeys(await reactionsOf(ctx, reader, ids[message]!)), expected, `reactions of message ${message + 1} as another user reads them`);
  }
  for (const [message, emoji, fields] of removes) expectPlainSuccess(await removeReaction(sender, ids[message]!, emojiParams(emoji, fields)));
  for (const message of [0, 1] as const) expectEqual(reactionKeys(await reactionsOf(ctx, reader, ids[message]!)), [], `reactions of message ${message + 1} after removing each`);
});

const duplicates = conversationRule({
  id: 'reactions/duplicate-refused-vote-keeps-first-name',
  title: 'adding an emoji one already reacted with (by the same name, another name of the same code, or all three fields) is refused with REACTION_ALREADY_EXISTS (level 193; BAD_REQUEST before); another user reacting with the same code is a vote stored under the first name',
  section: 'api/add-reaction; changelog 193',
  endpoint: ADD,
  levels: { min: LEVEL.MESSAGE_OBJECT },
}, async (ctx, { sender, reader, thread }) => {
  await emojiCatalog(ctx, reader);
  const { ids: [id] } = await thread('duplicates', 1);
  const [readerId, senderId] = [ctx.identity('second-member').userId, ctx.identity('member').userId];
  expectPlainSuccess(await addReaction(reader, id!, emojiParams(UNICODE.thumbsUp, 'name')));
  for (const [emoji, fields] of [[UNICODE.thumbsUp, 'name'], [UNICODE.plusOne, 'name'], [UNICODE.thumbsUp, 'name+code+type']] as const) {
    expectReactionError(ctx, await addReaction(reader, id!, emojiParams(emoji, fields)), 'REACTION_ALREADY_EXISTS');
  }
  // The sender votes with the other name: stored under the name the first reaction used.
  expectPlainSuccess(await addReaction(sender, id!, emojiParams(UNICODE.plusOne, 'name')));
  expectReactionError(ctx, await addReaction(sender, id!, emojiParams(UNICODE.thumbsUp, 'name')), 'REACTION_ALREADY_EXISTS');
  const expected = [reactionKey(readerId, UNICODE.thumbsUp), reactionKey(senderId, UNICODE.plusOne, UNICODE.thumbsUp.name)].sort();
  expectEqual(reactionKeys(await reactionsOf(ctx, reader, id!)), expected, 'reactions after the duplicates and the vote');
});

const missing = conversationRule({
  id: 'reactions/removing-absent-reaction-refused',
  title: "removing a reaction never added, already removed, added by another user, or named by name alone for a non-Unicode emoji (the type defaults to unicode_emoji) is refused with REACTION_DOES_NOT_EXIST (level 193; BAD_REQUEST before) and removes nothing",
  section: 'api/remove-reaction; changelog 193',
  endpoint: REMOVE,
  levels: { min: LEVEL.MESSAGE_OBJECT },
}, async (ctx, { sender, reader, thread }) => {
  await emojiCatalog(ctx, reader);
  const { ids: [id] } = await thread('absent', 1);
  const readerId = ctx.identity('second-member').userId;
  expectPlainSuccess(await addReaction(reader, id!, emojiParams(UNICODE.octopus, 'name')));
  expectPlainSuccess(await addReaction(reader, id!, emojiParams(ZULIP, 'name')));
  const refused: ReadonlyArray<readonly [string, () => Promise<Reply>]> = [
    ['an emoji never added', () => removeReaction(reader, id!, emojiParams(UNICODE.heart, 'name'))],
    ["another user's reaction", () => removeReaction(sender, id!, emojiParams(UNICODE.octopus, 'name+code+type'))],
    ['zulip by name alone', () => removeReaction(reader, id!, emojiParams(ZULIP, 'name'))],
  ];
  for (const [, remove] of refused) expectReactionError(ctx, await remove(), 'REACTION_DOES_NOT_EXIST');
  expectPlainSuccess(await removeReaction(reader, id!, emojiParams(UNICODE.octopus, 'code')));
  expectReactionError(ctx, await removeReaction(reader, id!, emojiParams(UNICODE.octopus, 'code')), 'REACTION_DOES_NOT_EXIST');
  expectEqual(reactionKeys(await reactionsOf(ctx, sender, id!)), [reactionKey(readerId, ZULIP)], 'reactions left (only zulip)');
});

/** A request that must be refused, with the error code it gets. */
type Refusal = readonly [what: string, method: 'POST' | 'DELETE', params: Readonly<Record<string, string>>, code: string];

function refusals(ctx: RuleContext, custom: Emoji | undefined): Refusal[] {
  const unknownName = `no_such_emoji_${ctx.runTag.replace(/[^a-z0-9]/g, '_')}`;
  const rows: Refusal[] = [
    ['a name no emoji has', 'POST', { emoji_name: unknownName }, 'BAD_REQUEST'],
    ["a Unicode name with another emoji's code", 'POST', { emoji_name: 'octopus', emoji_code: '1f44d' }, 'BAD_REQUEST'],
    ['a Unicode code that is no emoji', 'POST', { emoji_name: 'octopus', emoji_code: 'not-hex', reaction_type: 'unicode_emoji' }, 'BAD_REQUEST'],
    ['an unknown reaction type', 'POST', { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'no_such_type' }, 'BAD_REQUEST'],
    ['zulip_extra_emoji with a Unicode name', 'POST', { emoji_name: 'octopus', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }, 'BAD_REQUEST'],
    ['zulip_extra_emoji with a Unicode code', 'POST', { emoji_name: 'zulip', emoji_code: '1f419', reaction_type: 'zulip_extra_emoji' }, 'BAD_REQUEST'],
    ['realm_emoji with a Unicode name (its code is looked up)', 'POST', { emoji_name: 'octopus', reaction_type: 'realm_emoji' }, 'BAD_REQUEST'],
    ['realm_emoji with an ID no custom emoji has', 'POST', { emoji_name: 'octopus', emoji_code: String(FAR_ID_FLOOR), reaction_type: 'realm_emoji' }, 'BAD_REQUEST'],
    ['no emoji_name when adding', 'POST', { emoji_code: '1f419', reaction_type: 'unicode_emoji' }, 'REQUEST_VARIABLE_MISSING'],
    ['neither name nor code when removing', 'DELETE', { reaction_type: 'unicode_emoji' }, 'BAD_REQUEST'],
    ['a name no emoji has when removing', 'DELETE', { emoji_name: unknownName }, 'BAD_REQUEST'],
  ];
  if (custom) rows.push(['a custom emoji code with another name', 'POST', { emoji_name: 'octopus', emoji_code: custom.code, reaction_type: 'realm_emoji' }, 'BAD_REQUEST']);
  return rows;
}

const invalid = conversationRule({
  id: 'reactions/invalid-emoji-refused',
  title: 'an unknown name, a name with the wrong code, a code that is no emoji, an unknown type, a type that does not fit the name or code, a missing emoji_name (adding) or a missing name and code (removing) is answered 400 and adds nothing',
  section: 'api/add-reaction; api/remove-reaction',
  endpoint: ADD,
  levels: { min: LEVEL.MESSAGE_OBJECT },
  actor: 'member',
}, async (ctx, { sender, reader, thread }) => {
  const { custom } = await emojiCatalog(ctx, reader);
  const { ids: [id] } = await thread('invalid-emoji', 1);
  for (const [what, method, params, code] of refusals(ctx, custom)) {
    const reply = method === 'POST' ? await addReaction(reader, id!, params) : await removeReaction(reader, id!, params);
    expectRefused(reply, { status: 400, code }, what);
  }
  expectEqual(reactionKeys(await reactionsOf(ctx, sender, id!)), [], 'reactions after the refused requests');
});

const noCredentials = credentialsRequired({
  id: 'reactions/no-credentials-unauthorized',
  endpoint: ADD,
  section: 'api/add-reaction; api/remove-reaction',
  requests: [
    ['POST', '/messages/1/reactions', { emoji_name: 'octopus' }],
    ['DELETE', '/messages/1/reactions', { emoji_name: 'octopus' }],
  ],
});

export const rules: readonly Rule[] = [everyType, duplicates, missing, invalid, noCredentials];
