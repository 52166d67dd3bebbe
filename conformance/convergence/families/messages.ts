/**
 * The message family: channel and direct messages among the run's identities, content edits,
 * topic edits and moves between the run's two channels, deletion, reactions, and the read and
 * starred flags; observers compare `unread_msgs`, `starred_messages`, `max_message_id` and
 * `recent_private_conversations`. Both channels are public, with every observer subscribed, so
 * no move takes a message from anyone (who would then get `delete_message`, a case not covered).
 */
import fc from 'fast-check';
import type { IdentityName } from '../../credentials/types.js';
import { createChannel } from '../../rules/support/message-fixtures.js';
import type { RuleContext } from '../../rules/types.js';
import { type Family, fetching, MAX_SEQUENCES } from '../family.js';
import { holders, type MessagesFixture, movedWith, pick, type PropagateMode, TOPICS, type TrackedMessage } from './messages-model.js';
import { answeredId, outcome } from './perform.js';

const OBSERVERS: readonly IdentityName[] = ['member', 'second-member', 'admin', 'guest'];
const EMOJI = ['smile', 'heart', 'tada', 'octopus'] as const;
const MODES: readonly PropagateMode[] = ['change_one', 'change_later', 'change_all'];

export type MessageAction =
  | { readonly do: 'send'; readonly by: IdentityName; readonly channel: number; readonly topic: number; readonly mention: IdentityName | null }
  | { readonly do: 'direct'; readonly by: IdentityName; readonly to: readonly IdentityName[] }
  | { readonly do: 'edit'; readonly message: number; readonly mention: IdentityName | null }
  | { readonly do: 'retopic'; readonly message: number; readonly topic: number; readonly mode: PropagateMode }
  | { readonly do: 'move'; readonly message: number; readonly topic: number | null; readonly mode: PropagateMode }
  | { readonly do: 'delete'; readonly message: number }
  | { readonly do: 'react'; readonly by: IdentityName; readonly message: number; readonly emoji: number }
  | { readonly do: 'read' | 'unread'; readonly by: IdentityName; readonly messages: readonly number[] }
  | { readonly do: 'star'; readonly by: IdentityName; readonly messages: readonly number[] };

const who = fc.constantFrom(...OBSERVERS);
const index = fc.nat({ max: 7 });
const mention = fc.option(who, { nil: null, freq: 2 });

function actionKinds(): Array<fc.WeightedArbitrary<MessageAction>> {
  return [
    { weight: 3, arbitrary: fc.record({ do: fc.constant('send' as const), by: who, channel: fc.nat({ max: 1 }), topic: fc.nat({ max: TOPICS.length - 1 }), mention }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('direct' as const), by: who, to: fc.uniqueArray(who, { minLength: 1, maxLength: 2 }) }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('edit' as const), message: index, mention }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('retopic' as const), message: index, topic: fc.nat({ max: TOPICS.length - 1 }), mode: fc.constantFrom(...MODES) }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('move' as const), message: index, topic: fc.option(fc.nat({ max: TOPICS.length - 1 }), { nil: null }), mode: fc.constantFrom(...MODES) }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('delete' as const), message: index }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('react' as const), by: who, message: index, emoji: fc.nat({ max: EMOJI.length - 1 }) }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('read' as const), by: who, messages: fc.uniqueArray(index, { minLength: 1, maxLength: 3 }) }) },
    { weight: 3, arbitrary: fc.record({ do: fc.constant('unread' as const), by: who, messages: fc.uniqueArray(index, { minLength: 1, maxLength: 2 }) }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('star' as const), by: who, messages: fc.uniqueArray(index, { minLength: 1, maxLength: 2 }) }) },
  ];
}

function content(ctx: RuleContext, text: string, mentioned: IdentityName | null): string {
  if (mentioned === null) return text;
  const identity = ctx.identity(mentioned);
  return `${text} @**${identity.fullName}|${identity.userId}**`;
}

async function send(ctx: RuleContext, fixture: MessagesFixture, action: Extract<MessageAction, { do: 'send' | 'direct' }>): Promise<string> {
  const client = ctx.as(action.by);
  if (action.do === 'send') {
    const channel = fixture.channels[action.channel] as { id: number; name: string };
    const topic = TOPICS[action.topic] as string;
    const reply = await client.post('/messages', { type: 'stream', to: channel.id, topic, content: content(ctx, `convergence ${fixture.messages.length}`, action.mention) });
    const id = answeredId(reply);
    if (id !== undefined) fixture.messages.push({ id, sender: action.by, channel: action.channel, topic, deleted: false });
    return outcome(`${action.by} sends message ${id ?? '?'} to channel ${action.channel} topic ${topic}${action.mention ? ` mentioning ${action.mention}` : ''}`, reply);
  }
  const to = action.to.filter((other) => other !== action.by);
  const recipients = (to.length === 0 ? [action.by] : to).map((other) => ctx.identity(other).userId);
  const reply = await client.post('/messages', { type: 'private', to: recipients, content: `convergence direct ${fixture.messages.length}` });
  const id = answeredId(reply);
  if (id !== undefined) fixture.messages.push({ id, sender: action.by, participants: [...new Set([action.by, ...to])], deleted: false });
  return outcome(`${action.by} sends direct message ${id ?? '?'} to ${to.length === 0 ? 'self' : to.join(', ')}`, reply);
}

async function edit(ctx: RuleContext, fixture: MessagesFixture, action: Extract<MessageAction, { do: 'edit' | 'delete' }>): Promise<string> {
  const message = pick(fixture, action.message);
  if (!message) return `${action.do}: skipped, no message`;
  if (action.do === 'edit') {
    const reply = await ctx.as(message.sender).patch(`/messages/${message.id}`, { content: content(ctx, `convergence edited ${message.id}`, action.mention) });
    return outcome(`${message.sender} edits the content of message ${message.id}${action.mention ? ` to mention ${action.mention}` : ''}`, reply);
  }
  // The administrator deletes channel messages; a direct message, its sender (the administrator may not see it).
  const by = message.channel === undefined ? message.sender : 'admin';
  const reply = await ctx.as(by).delete(`/messages/${message.id}`);
  if (reply.status === 200) message.deleted = true;
  return outcome(`${by} deletes message ${message.id}`, reply);
}

/** Topic edits and moves, by the administrator (whom the realm lets move messages), of channel messages. */
async function move(ctx: RuleContext, fixture: MessagesFixture, action: Extract<MessageAction, { do: 'retopic' | 'move' }>): Promise<string> {
  const message = pick(fixture, action.message, (m) => m.channel !== undefined);
  if (!message || message.channel === undefined) return `${action.do}: skipped, no channel message`;
  const target = action.do === 'move' ? (message.channel + 1) % fixture.channels.length : message.channel;
  // A topic edit to the topic the message already has changes nothing (and is refused): take the next.
  const chosen = action.topic === null ? undefined : (TOPICS[action.topic] as string);
  const topic = action.do === 'retopic' && chosen === message.topic ? TOPICS[(TOPICS.indexOf(chosen as (typeof TOPICS)[number]) + 1) % TOPICS.length] : chosen;
  const moved = movedWith(fixture, message, action.mode);
  const params = {
    propagate_mode: action.mode,
    ...(topic === undefined ? {} : { topic }),
    ...(action.do === 'move' ? { stream_id: (fixture.channels[target] as { id: number }).id } : {}),
  };
  const reply = await ctx.as('admin').patch(`/messages/${message.id}`, params);
  if (reply.status === 200) {
    for (const m of moved) {
      m.channel = target;
      if (topic !== undefined) m.topic = topic;
    }
  }
  const where = action.do === 'move' ? `to channel ${target}${topic === undefined ? '' : ` topic ${topic}`}` : `to topic ${topic ?? ''}`;
  return outcome(`admin moves message ${message.id} (${action.mode}) ${where}`, reply);
}

async function react(ctx: RuleContext, fixture: MessagesFixture, action: Extract<MessageAction, { do: 'react' }>): Promise<string> {
  const message = pick(fixture, action.message);
  if (!message) return 'react: skipped, no message';
  const by = holders(fixture, message).includes(action.by) ? action.by : message.sender;
  const emoji = EMOJI[action.emoji] as string;
  const client = ctx.as(by);
  const path = `/messages/${message.id}/reactions`;
  // Toggles: removes the reaction the family knows is there, adds it otherwise.
  const key = `${message.id}:${emoji}:${by}`;
  const remove = fixture.reactions.has(key);
  const reply = remove ? await client.delete(path, { emoji_name: emoji }) : await client.post(path, { emoji_name: emoji });
  if (reply.status === 200) (remove ? fixture.reactions.delete(key) : fixture.reactions.add(key));
  return outcome(`${by} ${remove ? 'removes' : 'adds'} reaction ${emoji} ${remove ? 'from' : 'to'} message ${message.id}`, reply);
}

/**
 * Marks messages read, or unread (among those the family marked read for the identity), or
 * toggles their star (from what the family knows is starred).
 */
async function flag(ctx: RuleContext, fixture: MessagesFixture, action: Extract<MessageAction, { do: 'read' | 'unread' | 'star' }>): Promise<string> {
  const flag = action.do === 'star' ? 'starred' : 'read';
  const marked = (flag === 'read' ? fixture.read : fixture.starred).get(action.by) ?? new Set<number>();
  (flag === 'read' ? fixture.read : fixture.starred).set(action.by, marked);
  const accept = (m: TrackedMessage) => holders(fixture, m).includes(action.by) && (action.do !== 'unread' || marked.has(m.id));
  const ids = [...new Set(action.messages.map((i) => pick(fixture, i, accept)?.id).filter((id): id is number => id !== undefined))];
  if (ids.length === 0) return `${action.by} ${action.do}: skipped, no message to flag`;
  const add = action.do === 'read' || (action.do === 'star' && !marked.has(ids[0] as number));
  const reply = await ctx.as(action.by).post('/messages/flags', { messages: ids, op: add ? 'add' : 'remove', flag });
  if (reply.status === 200) for (const id of ids) (add ? marked.add(id) : marked.delete(id));
  return outcome(`${action.by} ${add ? 'adds' : 'removes'} flag ${flag} ${add ? 'to' : 'from'} messages ${ids.join(', ')}`, reply);
}

async function setup(ctx: RuleContext): Promise<MessagesFixture> {
  const members = OBSERVERS.filter((o) => o !== 'admin');
  const channels = [await createChannel(ctx, 'admin', 'convergence-a', { members }), await createChannel(ctx, 'admin', 'convergence-b', { members })];
  const fixture: MessagesFixture = { channels, observers: OBSERVERS, messages: [], starred: new Map(), read: new Map(), reactions: new Set() };
  ctx.cleanup('unstar the messages the convergence rule starred', async (c) => {
    for (const [identity, ids] of fixture.starred) if (ids.size > 0) await c.as(identity).post('/messages/flags', { messages: [...ids], op: 'remove', flag: 'starred' });
  });
  await send(ctx, fixture, { do: 'send', by: 'member', channel: 0, topic: 0, mention: null });
  await send(ctx, fixture, { do: 'direct', by: 'second-member', to: ['member'] });
  return fixture;
}

const TYPES = ['message', 'update_message_flags', 'update_message', 'delete_message', 'reaction', 'starred_messages', 'recent_private_conversations'];

export const messagesFamily: Family<MessagesFixture, MessageAction> = {
  id: 'event-convergence/messages',
  title: 'register plus the events of sending, editing, moving, deleting, reacting to and flagging messages gives every observer the state a fresh register gives',
  section: 'api/register-queue, api/get-events (unread_msgs, starred_messages, recent_private_conversations)',
  levels: { min: 121 },
  needs: OBSERVERS,
  observers: OBSERVERS,
  ...fetching(TYPES),
  maxRuns: MAX_SEQUENCES,
  setup,
  kinds: actionKinds,
  perform(ctx, fixture, action) {
    switch (action.do) {
      case 'send':
      case 'direct':
        return send(ctx, fixture, action);
      case 'react':
        return react(ctx, fixture, action);
      case 'read':
      case 'unread':
      case 'star':
        return flag(ctx, fixture, action);
      case 'retopic':
      case 'move':
        return move(ctx, fixture, action);
      default:
        return edit(ctx, fixture, action);
    }
  },
  owned: (ctx, fixture) => ({
    channelIds: fixture.channels.map((c) => c.id),
    groupIds: [],
    userIds: OBSERVERS.map((o) => ctx.identity(o).userId),
    messageIds: fixture.messages.map((m) => m.id),
  }),
};

