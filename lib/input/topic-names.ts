/**
 * Topic names as the real server reads and writes them: the empty topic and its display name,
 * truncation, character validation and the topics policy of a channel (section 1, convention 6).
 */
import { badRequest } from '../errors.js';
import type { Stream, TopicsPolicy } from '../entities/stream.js';
import { FEATURES } from '../features/feature-levels.js';
import type { World } from '../state/world.js';
import { isPythonSpace, trimWhere } from './strings.js';

/** `realm_empty_topic_display_name`: the English name of the empty topic ("general chat"). */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';
/** `max_topic_length`. */
export const MAX_TOPIC_LENGTH = 60;
/** Prefix of resolved topics: a check mark and a space. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** Before this level `(no topic)` was an ordinary topic name when sending. */
const NO_TOPIC_ALIAS = '(no topic)';

/** Python's `str.rstrip()`. */
export const pythonRstrip = (text: string): string => trimWhere(text, isPythonSpace, 'end');
/** Python's `str.strip()`. */
export const pythonStrip = (text: string): string => trimWhere(text, isPythonSpace);

/** Python's `len()` of a string: code points, not UTF-16 units. */
export const codePointLength = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** Python's `truncate_content`: cut to `max` code points, the last ones replaced by `suffix`. */
export function truncateText(text: string, max: number, suffix: string): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return chars.slice(0, max - codePointLength(suffix)).join('') + suffix;
}

/** Topics longer than `max_topic_length` are cut, ending in `...`; never refused. */
export const truncateTopic = (topic: string): string => truncateText(topic, MAX_TOPIC_LENGTH, '...');

/**
 * Reads a topic parameter of a message send: stripped; `general chat` (FL 334) and
 * `(no topic)` (FL 370) mean the empty topic.
 */
export function interpretSendTopic(world: World, raw: string): string {
  const topic = pythonStrip(raw);
  if (world.has(FEATURES.NO_TOPIC_ALIAS_MESSAGES) && topic === NO_TOPIC_ALIAS) return '';
  return renameGeneralChat(world, topic);
}

/** `general chat` is stored as the empty topic since FL 334. */
export function renameGeneralChat(world: World, topic: string): string {
  return world.has(FEATURES.EMPTY_TOPIC) && topic === EMPTY_TOPIC_DISPLAY_NAME ? '' : topic;
}

/** The name shown to clients that cannot handle the empty topic. */
export function displayTopic(topic: string, allowEmpty: boolean): string {
  return topic === '' && !allowEmpty ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}

/** Unicode non-characters: U+FDD0..U+FDEF and the last two code points of every plane. */
const isNonCharacter = (cp: number): boolean => (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;

/** 1-based position of the first control, surrogate or non-character, or undefined. */
export function invalidCharacterPosition(text: string): number | undefined {
  let position = 0;
  for (const char of text) {
    position++;
    const cp = char.codePointAt(0) as number;
    if (/[\p{Cc}\p{Cs}]/u.test(char) || isNonCharacter(cp)) return position;
  }
  return undefined;
}

/**
 * `check_stream_topic`: before FL 334 the empty topic is refused; characters that cannot be
 * printed are refused with their position.
 */
export function checkTopic(world: World, topic: string): void {
  if (!world.has(FEATURES.EMPTY_TOPIC) && pythonStrip(topic) === '') throw badRequest("Topic can't be empty!");
  const position = invalidCharacterPosition(topic);
  if (position !== undefined) throw badRequest(`Invalid character in topic, at position ${position}!`);
}

/** The policy that applies to a channel: its own, or the realm's when it inherits (FL 392). */
export function effectiveTopicsPolicy(world: World, stream: Stream): Exclude<TopicsPolicy, 'inherit'> {
  const own = world.has(FEATURES.TOPICS_POLICY) ? stream.topicsPolicy : 'inherit';
  if (own === 'empty_topic_only' && !world.has(FEATURES.EMPTY_TOPIC_ONLY)) return world.realm.topicsPolicy;
  return own === 'inherit' ? world.realm.topicsPolicy : own;
}

/** The real server's two topics-policy refusals (texts: real-server notes on messages-reports-reminders-misc §2.2). */
export const emptyTopicNotAllowed = () =>
  badRequest(`Sending messages to the ${EMPTY_TOPIC_DISPLAY_NAME} is not allowed in this channel.`);
/** Text unconfirmed: the real server names the empty-topic display name in it. */
export const onlyEmptyTopicAllowed = () => badRequest(`Only the ${EMPTY_TOPIC_DISPLAY_NAME} topic is allowed in this channel.`);

/** Checks a (new) topic of a channel message against the channel's topics policy. */
export function checkTopicsPolicy(world: World, stream: Stream, topic: string): void {
  const policy = effectiveTopicsPolicy(world, stream);
  if (policy === 'disable_empty_topic' && topic === '') throw emptyTopicNotAllowed();
  if (policy === 'empty_topic_only' && topic !== '') throw onlyEmptyTopicAllowed();
}
