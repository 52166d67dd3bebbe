/**
 * Reading `unread_msgs` of `POST /register` (sent when both `message` and `update_message_flags`
 * are fetched) with the mute state of the same answer, and the checks that hold whatever other
 * traffic the target has: each level's shape, ascending and disjoint ID lists, mentions among
 * the listed messages, channels in ascending order, and `count` equal to the direct, group and
 * unmuted channel messages listed (muted channels and topics are listed but not counted).
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { check, expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { registerState } from '../support/state-fetch.js';
import { LEVEL } from './message-flags-support.js';

/** Level 134: `user_topics` in `POST /register` (`muted_topics` before). */
export const USER_TOPICS_LEVEL = 134;

const ids = v.array(v.int({ min: 1 }));

function unreadShape(level: number) {
  const stream = v.object(
    { stream_id: v.int(), topic: v.string(), unread_message_ids: ids, ...(level < LEVEL.UNREAD_NO_SENDER_IDS ? { sender_ids: ids } : {}) },
    { forbidden: level >= LEVEL.UNREAD_NO_SENDER_IDS ? ['sender_ids'] : [] },
  );
  const pm = v.object(
    { sender_id: v.int(), unread_message_ids: ids, ...(level >= LEVEL.UNREAD_OTHER_USER_ID ? { other_user_id: v.int() } : {}) },
    { forbidden: level >= LEVEL.UNREAD_OTHER_USER_ID ? [] : ['other_user_id'] },
  );
  const huddle = v.object({ user_ids_string: v.string({ pattern: /^\d+(,\d+)*$/ }), unread_message_ids: ids });
  return v.object(
    {
      streams: v.array(stream),
      pms: v.array(pm),
      huddles: v.array(huddle),
      mentions: ids,
      count: v.int({ min: 0 }),
      ...(level >= LEVEL.OLD_UNREADS_MISSING ? { old_unreads_missing: v.bool() } : {}),
    },
    { forbidden: level >= LEVEL.OLD_UNREADS_MISSING ? [] : ['old_unreads_missing'] },
  );
}

export interface StreamEntry {
  readonly stream_id: number;
  readonly topic: string;
  readonly unread_message_ids: number[];
}

export interface UnreadState {
  readonly streams: StreamEntry[];
  readonly pms: Array<{ readonly sender_id: number; readonly other_user_id?: number; readonly unread_message_ids: number[] }>;
  readonly huddles: Array<{ readonly user_ids_string: string; readonly unread_message_ids: number[] }>;
  readonly mentions: number[];
  readonly count: number;
  readonly reply: Reply;
  /** Whether a channel message of this channel and topic counts (neither muted, or an unmuted/followed topic of a muted channel). */
  readonly counts: (streamId: number, topic: string) => boolean;
}

const VISIBILITY = { MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/** The caller's `unread_msgs` and mute state from one `POST /register`, checked for the level's shape and consistency. */
export async function unreadState(client: ApiClient, level: number): Promise<UnreadState> {
  const topicsType = level >= USER_TOPICS_LEVEL ? 'user_topic' : 'muted_topics';
  const { body, reply } = await registerState(client, ['message', 'update_message_flags', 'subscription', topicsType]);
  const unread = expectShape(body.unread_msgs, unreadShape(level), 'unread_msgs', reply);
  const counts = muteCheck(body);
  const state: UnreadState = { ...(unread as Omit<UnreadState, 'reply' | 'counts'>), reply, counts };
  checkConsistent(state);
  return state;
}

/** Whether messages of a channel topic count, from the subscriptions and topic policies of a register answer. */
function muteCheck(body: JsonObject): (streamId: number, topic: string) => boolean {
  const subscriptions = Array.isArray(body.subscriptions) ? (body.subscriptions as JsonObject[]) : [];
  const mutedChannels = new Set(subscriptions.filter((s) => s.is_muted === true || s.in_home_view === false).map((s) => Number(s.stream_id)));
  const names = new Map(subscriptions.map((s) => [String(s.name), Number(s.stream_id)]));
  const policies = new Map<string, number>();
  for (const entry of Array.isArray(body.user_topics) ? (body.user_topics as JsonObject[]) : []) {
    policies.set(`${String(entry.stream_id)}\u0000${String(entry.topic_name).toLowerCase()}`, Number(entry.visibility_policy));
  }
  for (const entry of Array.isArray(body.muted_topics) ? (body.muted_topics as unknown[][]) : []) {
    const streamId = names.get(String(entry[0]));
    if (streamId !== undefined) policies.set(`${streamId}\u0000${String(entry[1]).toLowerCase()}`, VISIBILITY.MUTED);
  }
  return (streamId, topic) => {
    const policy = policies.get(`${streamId}\u0000${topic.toLowerCase()}`);
    if (mutedChannels.has(streamId)) return policy === VISIBILITY.UNMUTED || policy === VISIBILITY.FOLLOWED;
    return policy !== VISIBILITY.MUTED;
  };
}

const isAscending = (list: readonly number[]): boolean => list.every((id, i) => i === 0 || id > list[i - 1]!);

/** What holds in every answer, whatever else the target holds. */
function checkConsistent(state: UnreadState): void {
  const { reply } = state;
  const lists = [...state.streams, ...state.pms, ...state.huddles].map((entry) => entry.unread_message_ids);
  for (const list of lists) check(list.length > 0 && isAscending(list), `an unread_message_ids list is empty or not ascending: ${JSON.stringify(list)}`, reply);
  const all = lists.flat();
  check(new Set(all).size === all.length, 'a message is listed twice in unread_msgs', reply);
  const listed = new Set(all);
  for (const id of state.mentions) check(listed.has(id), `mention ${id} is not among the listed unread messages`, reply);
  for (let i = 1; i < state.streams.length; i++) check(state.streams[i]!.stream_id >= state.streams[i - 1]!.stream_id, 'unread_msgs.streams is not ordered by stream_id', reply);
  const counted = state.streams.filter((entry) => state.counts(entry.stream_id, entry.topic)).reduce((sum, entry) => sum + entry.unread_message_ids.length, 0);
  const direct = [...state.pms, ...state.huddles].reduce((sum, entry) => sum + entry.unread_message_ids.length, 0);
  check(state.count === counted + direct, `count is ${state.count}, but the direct and group messages listed (${direct}) and the unmuted channel messages listed (${counted}) make ${counted + direct}`, reply);
}

/** Every message ID `unread_msgs` lists (mentions included). */
export const listedIds = (state: UnreadState): Set<number> =>
  new Set([...state.streams, ...state.pms, ...state.huddles].flatMap((entry) => entry.unread_message_ids).concat(state.mentions));
