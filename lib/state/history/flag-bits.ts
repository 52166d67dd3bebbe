/**
 * A user's flags on a message as the bits of one small integer, in the API's (and the real
 * server's `UserMessage.flags`) order: a row costs a number instead of a Set of strings.
 */
import { API_FLAGS } from '../../entities/message.js';

const BITS: ReadonlyMap<string, number> = new Map(API_FLAGS.map((flag, index) => [flag, 1 << index]));

const bit = (flag: string): number => BITS.get(flag) as number;

export const READ = bit('read');
export const STARRED = bit('starred');
export const HAS_ALERT_WORD = bit('has_alert_word');
/** The flags `is:mentioned` reads (`wildcard_mentioned` is never stored: clients get it derived). */
export const MENTION_MASK = bit('mentioned') | bit('stream_wildcard_mentioned') | bit('topic_wildcard_mentioned') | bit('group_mentioned');

/** The bit of a stored flag; anything else is a programming error, not input. */
export function flagBit(flag: string): number {
  const found = BITS.get(flag);
  if (found === undefined) throw new TypeError(`not a message flag: ${flag}`);
  return found;
}

/** Whether `flag` is one a row can hold. */
export const isFlag = (flag: string): boolean => BITS.has(flag);

/** The bits of a set of flag names. */
export function bitsOf(flags: Iterable<string>): number {
  let bits = 0;
  for (const flag of flags) bits |= flagBit(flag);
  return bits;
}

/** The flag names of `bits`, in bit order. */
export function flagNames(bits: number): string[] {
  const names: string[] = [];
  for (let index = 0; index < API_FLAGS.length; index++) if (bits & (1 << index)) names.push(API_FLAGS[index] as string);
  return names;
}
