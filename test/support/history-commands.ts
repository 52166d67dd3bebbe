/**
 * Random changes to a world's history for the history-index property test: sends, edits, topic
 * and channel moves, deletions, flag changes (through each endpoint, and written on a row
 * directly as tests do), subscription changes and muted topics, each by one of several users.
 * Every request must be answered without a server error; refusals (permissions) are fine.
 */
import fc from 'fast-check';
import type { TestServer } from './harness.js';

export const PEOPLE = ['hamlet@zulip.com', 'iago@zulip.com', 'othello@zulip.com', 'cordelia@zulip.com', 'polonius@zulip.com', 'desdemona@zulip.com'];
export const CHANNELS = ['Verona', 'Denmark', 'Scotland', 'core team', 'Rome'];
export const TOPICS = ['alpha', 'Alpha', 'beta', 'gamma rays', ''];
/** Plain lines (rendered when read, if seeded) and Markdown, sharing words. */
export const CONTENTS = ['kiwi apple', 'Mango kiwis, apple.', '**kiwi** plum', '@**Iago** mango', 'plum `kiwi`', 'apples and the plums', ':octopus: kiwi', '@**all** plum'];
export const WORDS = ['kiwi', 'apple', 'mango', 'plum', 'gamma', 'alpha', 'octopus', 'iago'];

export type HistoryCommand =
  | { readonly kind: 'send'; readonly by: number; readonly channel: number; readonly topic: number; readonly content: number }
  | { readonly kind: 'direct'; readonly by: number; readonly to: readonly number[]; readonly content: number }
  | { readonly kind: 'edit'; readonly pick: number; readonly content: number }
  | { readonly kind: 'move'; readonly pick: number; readonly topic: number; readonly channel: number | null; readonly mode: number }
  | { readonly kind: 'delete'; readonly pick: number }
  | { readonly kind: 'flag'; readonly by: number; readonly picks: readonly number[]; readonly add: boolean; readonly starred: boolean }
  | { readonly kind: 'flagNarrow'; readonly by: number; readonly channel: number; readonly add: boolean; readonly starred: boolean }
  | { readonly kind: 'markAll'; readonly by: number; readonly channel: number | null; readonly topic: number | null }
  | { readonly kind: 'row'; readonly by: number; readonly pick: number; readonly flag: string; readonly add: boolean }
  | { readonly kind: 'subscribe'; readonly by: number; readonly channel: number; readonly join: boolean }
  | { readonly kind: 'mute'; readonly by: number; readonly channel: number; readonly topic: number; readonly policy: number };

const by = fc.nat({ max: PEOPLE.length - 1 });
const channel = fc.nat({ max: CHANNELS.length - 1 });
const topic = fc.nat({ max: TOPICS.length - 1 });
const content = fc.nat({ max: CONTENTS.length - 1 });

export const historyCommand: fc.Arbitrary<HistoryCommand> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('send' as const), by, channel, topic, content }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('direct' as const), by, to: fc.uniqueArray(by, { minLength: 1, maxLength: 2 }), content }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), content }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), topic, channel: fc.option(channel, { nil: null }), mode: fc.nat({ max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('flag' as const), by, picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), add: fc.boolean(), starred: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('flagNarrow' as const), by, channel, add: fc.boolean(), starred: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('markAll' as const), by, channel: fc.option(channel, { nil: null }), topic: fc.option(topic, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('row' as const), by, pick: fc.nat(), flag: fc.constantFrom('read', 'starred', 'mentioned', 'has_alert_word'), add: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('subscribe' as const), by, channel, join: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mute' as const), by, channel, topic, policy: fc.nat({ max: 3 }) }) },
);

const MODES = ['change_one', 'change_later', 'change_all'];

/**
 * The stored message `pick` points at, if any: one of the eight newest for even picks (the run's
 * own messages, which their senders may still edit), any for odd ones.
 */
function picked(s: TestServer, pick: number): number | undefined {
  const ids = [...s.world.messages.keys()].sort((a, b) => b - a);
  if (ids.length === 0) return undefined;
  return pick % 2 === 0 ? ids[(pick >> 1) % Math.min(8, ids.length)] : ids[(pick >> 1) % ids.length];
}

/** Applies one command; throws when the server answers 5xx. */
export async function applyHistoryCommand(s: TestServer, command: HistoryCommand): Promise<void> {
  const client = (index: number) => s.as(PEOPLE[index] as string);
  const admin = s.as('iago@zulip.com');
  const channelId = (index: number) => s.streamId(CHANNELS[index] as string);
  let reply;
  switch (command.kind) {
    case 'send':
      reply = await client(command.by).post('/messages', { type: 'stream', to: CHANNELS[command.channel], topic: TOPICS[command.topic], content: CONTENTS[command.content] });
      break;
    case 'direct':
      reply = await client(command.by).post('/messages', { type: 'direct', to: JSON.stringify(command.to.map((i) => s.id(PEOPLE[i] as string))), content: CONTENTS[command.content] });
      break;
    case 'edit': {
      const id = picked(s, command.pick);
      const sender = id === undefined ? undefined : s.world.users.get(s.world.messages.get(id)?.senderId ?? 0);
      if (id === undefined || !sender) return;
      reply = await s.as(sender.deliveryEmail).patch(`/messages/${id}`, { content: CONTENTS[command.content] });
      break;
    }
    case 'move': {
      const id = picked(s, command.pick);
      if (id === undefined) return;
      const target = command.channel === null ? {} : { stream_id: channelId(command.channel) };
      reply = await admin.patch(`/messages/${id}`, { topic: TOPICS[command.topic], propagate_mode: MODES[command.mode], ...target });
      break;
    }
    case 'delete': {
      const id = picked(s, command.pick);
      if (id === undefined) return;
      reply = await admin.delete(`/messages/${id}`);
      break;
    }
    case 'flag': {
      const ids = command.picks.map((pick) => picked(s, pick)).filter((id): id is number => id !== undefined);
      reply = await client(command.by).post('/messages/flags', { messages: JSON.stringify(ids), op: command.add ? 'add' : 'remove', flag: command.starred ? 'starred' : 'read' });
      break;
    }
    case 'flagNarrow':
      reply = await client(command.by).post('/messages/flags/narrow', {
        narrow: JSON.stringify([{ operator: 'channel', operand: CHANNELS[command.channel] }]),
        anchor: 'newest',
        num_before: 3,
        num_after: 0,
        op: command.add ? 'add' : 'remove',
        flag: command.starred ? 'starred' : 'read',
      });
      break;
    case 'markAll':
      if (command.channel === null) reply = await client(command.by).post('/mark_all_as_read');
      else if (command.topic === null) reply = await client(command.by).post('/mark_stream_as_read', { stream_id: channelId(command.channel) });
      else reply = await client(command.by).post('/mark_topic_as_read', { stream_id: channelId(command.channel), topic_name: TOPICS[command.topic] });
      break;
    case 'row': {
      const id = picked(s, command.pick);
      const row = id === undefined ? undefined : s.world.messages.get(id)?.flags.get(s.id(PEOPLE[command.by] as string));
      if (command.add) row?.add(command.flag);
      else row?.delete(command.flag);
      return;
    }
    case 'subscribe': {
      const subscriptions = JSON.stringify(command.join ? [{ name: CHANNELS[command.channel] }] : [CHANNELS[command.channel]]);
      reply = command.join ? await client(command.by).post('/users/me/subscriptions', { subscriptions }) : await client(command.by).delete('/users/me/subscriptions', { subscriptions });
      break;
    }
    case 'mute':
      reply = await client(command.by).post('/user_topics', { stream_id: channelId(command.channel), topic: TOPICS[command.topic], visibility_policy: command.policy });
      break;
  }
  if (reply.status >= 500) throw new Error(`${command.kind} answered ${reply.status}: ${reply.text}`);
}
