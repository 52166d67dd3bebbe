/**
 * Channel-name validation (`check_stream_name` of the real server). Names are stripped with
 * Python's `str.strip` first, whose whitespace differs from JavaScript's `trim()`.
 */
import { badRequest } from '../errors.js';
import { codePointLength, pythonStrip } from './topic-names.js';

/** `Stream.MAX_NAME_LENGTH`, exposed by register as `max_stream_name_length` (section 8). */
export const MAX_CHANNEL_NAME_LENGTH = 60;
/** `Stream.MAX_DESCRIPTION_LENGTH`, exposed as `max_stream_description_length`. */
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;

/**
 * Unicode category Cc (controls) or Cs (surrogates; a lone one can arrive through a JSON
 * `\ud800` escape), or one of the 66 non-characters.
 */
function isUnprintable(char: string): boolean {
  const cp = char.codePointAt(0) as number;
  if (cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f)) return true;
  if (cp >= 0xd800 && cp <= 0xdfff) return true;
  if (cp >= 0xfdd0 && cp <= 0xfdef) return true;
  return (cp & 0xfffe) === 0xfffe;
}

/** 1-based position (in code points) of the first unprintable character, if any. */
export function firstUnprintablePosition(text: string): number | undefined {
  let position = 0;
  for (const char of text) {
    position++;
    if (isUnprintable(char)) return position;
  }
  return undefined;
}

/**
 * Validates an already stripped channel name with the real server's messages, in its order:
 * empty, too long (60 code points), then an invalid character with its 1-based position.
 */
export function checkChannelName(name: string): void {
  if (pythonStrip(name) === '') throw badRequest("Channel name can't be empty.");
  if (codePointLength(name) > MAX_CHANNEL_NAME_LENGTH) {
    throw badRequest(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  }
  const position = firstUnprintablePosition(name);
  if (position !== undefined) throw badRequest(`Invalid character in channel name, at position ${position}.`);
}
