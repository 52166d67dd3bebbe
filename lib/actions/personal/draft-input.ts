/**
 * Parsing and validating a draft object (section 2.2) the way the real server does: first the
 * pydantic model `DraftData` (strict, extra keys forbidden), then `further_validated_draft_dict`.
 */
import { badRequest } from '../../errors.js';
import type { DraftType } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import type { JsonValue } from '../../input/json.js';
import { hasContentAccess } from '../../queries/users/access.js';
import { apiEmail } from '../../queries/users/users.js';
import { float, int, keyPath, list, literal, nullable, object, optional, required, schema, type Schema, str, union } from '../../input/schema.js';
import { pythonRstrip, truncateText, truncateTopic } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';
import { isUnicodeWhiteSpace, trimWhere } from '../../input/strings.js';
import { MAX_USER_IDS } from '../../input/limits.js';

export interface DraftInput {
  readonly type: DraftType;
  readonly to: number[];
  readonly topic: string;
  readonly content: string;
  /** Seconds; null or absent means "now". */
  readonly timestamp?: number | null;
}

/** What pydantic's `strip_whitespace` (Rust `str::trim`) removes; unlike Python it keeps U+001C..U+001F. */
const stripUnicodeWhitespace = (text: string): string => trimWhere(text, isUnicodeWhiteSpace);

/** `RequiredStringConstraint`: stripped (Unicode White_Space), then at least one character. */
const requiredString = schema<string>((value, path) => {
  const text = stripUnicodeWhitespace(str.parse(value, path));
  if (text === '') throw badRequest(`${path} cannot be blank`);
  return text;
});

const DRAFT_FIELDS = {
  type: required(literal<DraftType>('private', 'stream', '')),
  to: required(list(int, MAX_USER_IDS)),
  topic: required(str),
  content: required(requiredString),
  timestamp: optional(nullable(union(int, float))),
};
const draftFields = object(DRAFT_FIELDS, { extra: 'ignore' });

/**
 * The draft object. pydantic reports errors of the declared fields before unexpected keys, so
 * `{"type": "x", "id": 1}` fails on `type`; only a draft whose fields are all valid fails on `id`.
 */
export const draftInput: Schema<DraftInput> = schema((value: JsonValue, path: string) => {
  const parsed = draftFields.parse(value, path);
  if (value instanceof Map) {
    for (const key of value.keys()) {
      if (!Object.hasOwn(DRAFT_FIELDS, key)) throw badRequest(`Argument "${key}" at ${keyPath(path, key)} is unexpected`);
    }
  }
  return parsed as DraftInput;
});

/** A draft ready to store: recipients resolved, content normalised, time in seconds. */
export interface ValidDraft {
  readonly type: DraftType;
  readonly to: number[];
  readonly topic: string;
  readonly content: string;
  readonly lastEditTime: number;
}

const MAX_MESSAGE_LENGTH = 10_000;
/** Python's datetime cannot go past 9999-12-31T23:59:59.999999Z. */
const MAX_PYTHON_TIMESTAMP = 253_402_300_799.999999;

/** The real server's `normalize_body`. */
function normalizeContent(content: string): string {
  const body = pythonRstrip(content).replace(/^\n+/, '');
  if (body === '') throw badRequest('Message must not be empty');
  if (body.includes('\0')) throw badRequest('Message must not contain null bytes');
  return truncateText(body, MAX_MESSAGE_LENGTH, '\n[message truncated]');
}

function editTime(world: World, timestamp: number | null | undefined): number {
  const seconds = timestamp ?? world.now() / 1000;
  // round(timestamp, 6), as the real server stores microseconds.
  const rounded = Math.round(seconds * 1e6) / 1e6;
  if (rounded < 0) throw badRequest('Timestamp must not be negative.');
  // The real server fails with a 500 here (the value cannot become a datetime); we refuse it.
  if (!Number.isFinite(rounded) || rounded > MAX_PYTHON_TIMESTAMP) throw badRequest('Invalid timestamp');
  return rounded;
}

/** `access_stream_by_id` for a draft: unknown, archived or unreadable channels look the same. */
function draftChannel(world: World, user: User, streamId: number): number {
  const stream = world.streams.get(streamId);
  if (!stream || stream.isArchived || !hasContentAccess(world, user, stream)) throw badRequest('Invalid channel ID');
  return stream.id;
}

/**
 * The conversation of a direct-message draft, as the draft reads back: the other participants
 * (without the owner), or the owner alone for a draft to oneself.
 */
function draftRecipients(world: World, user: User, to: readonly number[]): number[] {
  const ids = [...new Set(to)].sort((a, b) => a - b);
  const users: User[] = [];
  for (const id of ids) {
    const target = world.users.get(id);
    // Cross-realm system bots are valid recipients (`get_user_by_id_in_realm_including_cross_realm`).
    if (!target) throw badRequest(`Invalid user ID ${id}`);
    users.push(target);
  }
  for (const target of users) {
    if (!target.isActive) throw badRequest(`'${apiEmail(world, target)}' is no longer using Zulip.`);
  }
  const others = ids.filter((id) => id !== user.id);
  return others.length === 0 ? [user.id] : others;
}

/** `further_validated_draft_dict`: every check after parsing, in the real server's order. */
export function validateDraft(world: World, user: User, input: DraftInput): ValidDraft {
  const content = normalizeContent(input.content);
  const lastEditTime = editTime(world, input.timestamp);
  if (input.type === 'stream') {
    const topic = truncateTopic(input.topic);
    if (topic.includes('\0')) throw badRequest('Topic must not contain null bytes');
    if (input.to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
    return { type: 'stream', to: [draftChannel(world, user, input.to[0] as number)], topic, content, lastEditTime };
  }
  if (input.type === 'private' && input.to.length > 0) {
    return { type: 'private', to: draftRecipients(world, user, input.to), topic: '', content, lastEditTime };
  }
  // Unaddressed, or a direct draft without recipients: stored without a recipient, read back as type "".
  return { type: '', to: [], topic: '', content, lastEditTime };
}
