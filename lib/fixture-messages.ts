/**
 * The messages of a realm fixture: channel messages with topics, direct and group direct
 * messages, with reactions and per-user starred and unread flags. Each is rendered as a sent
 * message is (mentions flag their targets) and gets the next message ID in fixture order, so
 * seeded IDs and dates are the same on every start. Everyone who received a message has read
 * it except the users listed in `unreadBy`.
 */
import type { Message, Reaction, Recipient } from './entities/message.js';
import type { User } from './entities/user.js';
import { emojiDataByName } from './emoji.js';
import { ApiError } from './errors.js';
import type { Fixture } from './fixture-schema.js';
import { setMentionFlags } from './actions/mention-flags.js';
import { activeSubscriberIds } from './queries/access.js';
import { render } from './render.js';
import type { World } from './world.js';

export type FixtureMessage = NonNullable<Fixture['messages']>[number];

/** Resolves fixture references; errors name the entry (`fixture.messages[3]: no user with email x`). */
export interface FixtureLookups {
  user(email: string, where: string): User;
  channelId(name: string, where: string): number;
  fail(message: string): Error;
}

function recipientOf(world: World, entry: FixtureMessage, sender: User, lookups: FixtureLookups, where: string): Recipient {
  if (entry.type === 'stream') {
    if (entry.to.length !== 1) throw lookups.fail(`${where}: a channel message names exactly one channel`);
    if (entry.topic === undefined) throw lookups.fail(`${where}: a channel message needs a topic`);
    return { kind: 'stream', streamId: lookups.channelId(entry.to[0] as string, where), topic: entry.topic };
  }
  const ids = entry.to.map((email) => lookups.user(email, where).id);
  return { kind: 'direct', userIds: [...new Set([...ids, sender.id])].sort((a, b) => a - b) };
}

/** Who gets a row: the participants of a DM; the channel's active subscribers and the sender. */
function rowHolders(world: World, recipient: Recipient, sender: User): number[] {
  const ids = recipient.kind === 'direct' ? recipient.userIds : [...activeSubscriberIds(world, recipient.streamId), sender.id];
  return [...new Set(ids)].filter((id) => world.users.get(id)?.isSystemBot === false);
}

function reactionsOf(world: World, entry: FixtureMessage, lookups: FixtureLookups, where: string): Reaction[] {
  const reactions: Reaction[] = [];
  for (const reaction of entry.reactions ?? []) {
    let emoji;
    try {
      emoji = emojiDataByName(world, reaction.emoji);
    } catch (error) {
      if (error instanceof ApiError) throw lookups.fail(`${where}: ${error.message}`);
      throw error;
    }
    for (const email of reaction.users) {
      const userId = lookups.user(email, where).id;
      reactions.push({ userId, emojiName: reaction.emoji, emojiCode: emoji.emojiCode, reactionType: emoji.reactionType });
    }
  }
  return reactions;
}

function flagsOf(entry: FixtureMessage, holders: readonly number[], lookups: FixtureLookups, where: string) {
  const byUser = new Map<number, Set<string>>(holders.map((id) => [id, new Set(['read'])]));
  const flagged = (emails: readonly string[] | undefined, apply: (flags: Set<string>) => void) => {
    for (const email of emails ?? []) {
      const user = lookups.user(email, where);
      const flags = byUser.get(user.id);
      if (!flags) throw lookups.fail(`${where}: ${email} did not receive this message`);
      apply(flags);
    }
  };
  flagged(entry.unreadBy, (flags) => flags.delete('read'));
  flagged(entry.starredBy, (flags) => flags.add('starred'));
  return byUser;
}

/** Stores the fixture's messages in order; the world must hold its users and channels already. */
export function seedMessages(world: World, entries: readonly FixtureMessage[], lookups: FixtureLookups): void {
  entries.forEach((entry, i) => {
    const where = `fixture.messages[${i}]`;
    const sender = lookups.user(entry.sender, where);
    const sentAt = Date.parse(entry.sentAt);
    if (Number.isNaN(sentAt)) throw lookups.fail(`${where}: not a date: ${entry.sentAt}`);
    if (entry.content.trim() === '') throw lookups.fail(`${where}: empty content`);
    const recipient = recipientOf(world, entry, sender, lookups, where);
    const renderedContent = render(world, entry.content);
    const holders = rowHolders(world, recipient, sender);
    const message: Message = {
      id: world.ids.next('message'),
      senderId: sender.id,
      recipient,
      content: entry.content,
      renderedContent,
      sentAt,
      editHistory: [],
      lastEditAt: null,
      lastMovedAt: null,
      flags: flagsOf(entry, holders, lookups, where),
      client: 'populate_db',
      reactions: reactionsOf(world, entry, lookups, where),
    };
    world.messages.set(message.id, message);
    setMentionFlags(world, message);
    if (recipient.kind === 'stream') {
      const stream = world.streams.get(recipient.streamId);
      if (stream && stream.firstMessageId === null) stream.firstMessageId = message.id;
    }
  });
}
