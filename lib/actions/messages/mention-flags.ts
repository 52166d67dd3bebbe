/**
 * The mention flags a message's rendering sets on its recipients' rows, as the real server sets
 * them when sending and re-sets them when the content is edited: `mentioned` for users named by
 * a non-silent mention (members at any depth for a group mention), `stream_wildcard_mentioned`
 * for every recipient of a non-silent `@**all**` (`everyone`, `channel`, `stream`), and
 * `topic_wildcard_mentioned` for the topic's participants (senders and reactors in the topic,
 * and the sender) on a non-silent `@**topic**`.
 */
import type { Message } from '../../entities/message.js';
import { recursiveMembers } from '../../queries/groups/groups.js';
import { ascending } from '../../state/history/id-sources.js';
import type { World } from '../../state/world.js';

/**
 * IDs of users named by non-silent `@**Name**` mentions in rendered HTML and, given the world,
 * of the members (at any depth) of groups named by non-silent `@*group*` mentions.
 */
export function mentionedUserIds(rendered: string, world?: World): Set<number> {
  const ids = new Set<number>();
  for (const match of rendered.matchAll(/<span class="user-mention" data-user-id="(\d+)">/g)) ids.add(Number(match[1]));
  if (world) {
    for (const match of rendered.matchAll(/<span class="user-group-mention" data-user-group-id="(\d+)">/g)) {
      for (const id of recursiveMembers(world, Number(match[1]))) ids.add(id);
    }
  }
  return ids;
}

/** Senders of, and reactors to, the messages of a channel topic, with `senderId`. */
export function topicParticipants(world: World, streamId: number, topic: string, senderId: number): Set<number> {
  const participants = new Set([senderId]);
  const wanted = topic.toLowerCase();
  for (const id of ascending(world.messages.index.topic(streamId, topic))) {
    const other = world.messages.get(id);
    const there = other?.recipient;
    if (!other || there?.kind !== 'stream' || there.streamId !== streamId || there.topic.toLowerCase() !== wanted) continue;
    participants.add(other.senderId);
    for (const reaction of other.reactions) participants.add(reaction.userId);
  }
  return participants;
}

/** Sets or clears the three mention flags on every row of `message` from its rendered content. */
export function setMentionFlags(world: World, message: Message): void {
  const rendered = message.renderedContent;
  const mentioned = mentionedUserIds(rendered, world);
  const channelWildcard = rendered.includes('<span class="user-mention channel-wildcard-mention" data-user-id="*">');
  const topicWildcard = rendered.includes('<span class="topic-mention">');
  const here = message.recipient;
  const participants = topicWildcard && here.kind === 'stream' ? topicParticipants(world, here.streamId, here.topic, message.senderId) : new Set([message.senderId]);
  for (const [userId, flags] of message.flags) {
    const set = (flag: string, on: boolean) => (on ? flags.add(flag) : flags.delete(flag));
    set('mentioned', mentioned.has(userId));
    set('stream_wildcard_mentioned', channelWildcard);
    set('topic_wildcard_mentioned', topicWildcard && participants.has(userId));
  }
}
