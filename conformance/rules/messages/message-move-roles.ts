/**
 * Who may move and resolve, per role (owner, administrator, moderator, member, guest, and the
 * sender on their own message): each tries once on a fresh message of the second member in the
 * run's channel, and the outcome and the message's place afterwards must match the rights the
 * target publishes (`message-move-rights.ts`). Rows whose right cannot be derived are left out.
 */
import type { IdentityName } from '../../credentials/types.js';
import { expectEqual, fail } from '../../expect/assert.js';
import { expectAllowed } from '../support/realm-permissions.js';
import type { Rule, RuleContext } from '../types.js';
import { EDIT_LEVELS, type EditChannels, editChannels, mustRead, QUIET, send } from './message-edit-support.js';
import { derivedRows, MoveRights, type Right } from './message-move-rights.js';

const ENDPOINT = 'PATCH /messages/{message_id}';
const ROLES: readonly IdentityName[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'second-member'];
const NEEDS = ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'] as const;

export interface Attempt {
  readonly params: (ctx: RuleContext, channels: EditChannels, topic: string) => Record<string, unknown>;
  /** Where the message is after the attempt: [channel ID, topic]. */
  readonly place: (channels: EditChannels, topic: string, params: Record<string, unknown>, allowed: boolean) => [number, string];
}

/**
 * Tries the attempt on a fresh message of `sender` as each role whose right is known (the
 * sender's own row included); fails with every mismatch listed.
 */
export async function roleTable(ctx: RuleContext, right: (rights: MoveRights, who: IdentityName) => Promise<Right>, attempt: Attempt, senderName: IdentityName = 'second-member'): Promise<void> {
  const channels = await editChannels(ctx);
  const rights = await MoveRights.load(ctx, channels.open);
  // The sender's own row says what the role rules give the sender; before level 159 senders could always rename their own topics.
  const roles = ctx.featureLevel < EDIT_LEVELS.TOPIC_EDIT_DECOUPLED ? ROLES.filter((who) => who !== senderName) : ROLES;
  const rows = await derivedRows(roles, (who) => right(rights, who));
  if (rows.length === 0) return ctx.skip('the target publishes none of the settings these rights derive from');
  const sender = ctx.as(senderName);
  const problems: string[] = [];
  for (const [who, allowed] of rows) {
    const topic = ctx.name('topic');
    const id = await send(sender, channels.open, topic, ctx.name('content'));
    const params = attempt.params(ctx, channels, topic);
    const reply = await ctx.as(who).patch(`/messages/${id}`, params);
    try {
      expectAllowed(reply, allowed, `the ${who}'s ${JSON.stringify(params)}`);
      // Read back by the one who tried: every role of the table reads both channels.
      const after = await mustRead(ctx.as(who), id);
      expectEqual([after.streamId, after.topic], attempt.place(channels, topic, params, allowed), `channel and topic after the ${who}'s attempt`);
    } catch (error) {
      problems.push(`${who} (${allowed ? 'allowed' : 'refused'}): ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) fail(`rights derived from POST /register and the channel settings:\n  - ${problems.join('\n  - ')}`);
}

/** Renaming the topic of one message. */
export const RENAME: Attempt = {
  params: (c) => ({ ...QUIET, topic: c.name('topic') }),
  place: (channels, topic, params, allowed) => [channels.open.id, allowed ? (params.topic as string) : topic],
};

/** Moving one message to the other channel. */
export const MOVE_OUT: Attempt = {
  params: (_c, channels) => ({ ...QUIET, stream_id: channels.other.id }),
  place: (channels, topic, _params, allowed) => [allowed ? channels.other.id : channels.open.id, topic],
};

/** Resolving the topic of one message. */
export const RESOLVE: Attempt = {
  params: (_c, _channels, topic) => ({ ...QUIET, topic: `✔ ${topic}`, propagate_mode: 'change_all' }),
  place: (channels, topic, params, allowed) => [channels.open.id, allowed ? (params.topic as string) : topic],
};

/**
 * A role-table rule: each role tries `attempt`, as `right` says it may or may not. It starts at
 * the level of the realm's group setting: the role policies before it are not derived here.
 */
const roleRule = (id: string, title: string, section: string, min: number, right: (rights: MoveRights, who: IdentityName) => Promise<Right>, attempt: Attempt): Rule => ({
  id,
  title,
  endpoint: ENDPOINT,
  section,
  levels: { min },
  writes: true,
  needs: NEEDS,
  run: (ctx) => roleTable(ctx, right, attempt),
});

const topicMoves = roleRule(
  'message-move/topic-move-per-role',
  "each role renames a topic exactly when the realm's can_move_messages_between_topics_group (level 316) or, from level 396, the channel's settings (administrators, can_administer_channel_group, can_move_messages_within_channel_group) allow it; refusals answer 400 BAD_REQUEST and leave the topic",
  'api/update-message (level 316); help/restrict-moving-messages',
  EDIT_LEVELS.MOVE_TOPICS_GROUP,
  (rights, who) => rights.moveTopics(who),
  RENAME,
);

const channelMoves = roleRule(
  'message-move/channel-move-per-role',
  "each role moves a message to another channel exactly when the realm's can_move_messages_between_channels_group (level 310) or, from level 396, the channel's settings allow it; refusals answer 400 BAD_REQUEST and leave the message where it was",
  'api/update-message (level 310); help/restrict-moving-messages',
  EDIT_LEVELS.MOVE_CHANNELS_GROUP,
  (rights, who) => rights.moveOutOfChannel(who),
  MOVE_OUT,
);

const resolves = roleRule(
  'message-move/resolve-per-role',
  "each role resolves a topic exactly when can_resolve_topics_group allows it (from level 367; the topic-move right of level 316 before; the channel's setting too from level 402); refusals answer 400 BAD_REQUEST and leave the topic",
  'api/update-message (levels 316, 367); help/resolve-a-topic',
  EDIT_LEVELS.MOVE_TOPICS_GROUP,
  (rights, who) => rights.resolve(who),
  RESOLVE,
);

export const rules: readonly Rule[] = [topicMoves, channelMoves, resolves];
