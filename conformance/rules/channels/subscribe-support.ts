/**
 * What the subscribe rules share: the response shape (section 4.1; OpenAPI subscribe), the check of
 * `subscribed` / `already_subscribed` against what the rule expects, and channel-name text.
 */
import fc from 'fast-check';
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { channelExists, type DirectoryUser, KEYED_BY_ID_LEVEL, namesUnder, responseKey, sorted, userDirectory } from '../support/channel-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

/** Every parameter some server version declares on subscribe (never "unknown" in generated names). */
export const SUBSCRIBE_PARAMS = [
  'subscriptions', 'principals', 'authorization_errors_fatal', 'announce', 'invite_only', 'is_web_public', 'is_default_stream',
  'history_public_to_subscribers', 'message_retention_days', 'topics_policy', 'stream_post_policy', 'is_announcement_only',
  'can_add_subscribers_group', 'can_remove_subscribers_group', 'can_remove_subscribers_group_id', 'can_administer_channel_group',
  'can_delete_any_message_group', 'can_delete_own_message_group', 'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group', 'can_send_message_group', 'can_subscribe_group', 'can_resolve_topics_group',
  'can_create_topic_group', 'folder_id', 'send_new_subscription_messages', 'stream_names', 'description',
];

/** The success body of subscribe: exactly these keys (OpenAPI subscribe, additionalProperties false). */
export function subscribeResponseShape(level: number) {
  const keyPattern = level >= KEYED_BY_ID_LEVEL ? /^[0-9]+$/ : /@/;
  const byUser = v.record(v.array(v.string()), { keyPattern });
  return v.object(
    {
      result: v.literal('success'),
      msg: v.string(),
      subscribed: byUser,
      already_subscribed: byUser,
      unauthorized: v.optional(v.array(v.string())),
      new_subscription_messages_sent: v.optional(v.bool()),
      ignored_parameters_unsupported: v.optional(v.array(v.string())),
    },
    { exact: true },
  );
}

/** What one user should see in a subscribe response. */
export interface ExpectedForUser {
  readonly subscribed: readonly string[];
  readonly already: readonly string[];
}

/** The member who subscribes in a rule, its ID, and the users the administrator sees (for outcome checks). */
export interface MemberSubscriber {
  readonly member: ApiClient;
  readonly me: number;
  readonly directory: Map<number, DirectoryUser>;
}

/** The `member` identity's client and ID, and the directory as the administrator sees it (`GET /users`). */
export async function memberSubscriber(ctx: RuleContext): Promise<MemberSubscriber> {
  const member = ctx.as('member');
  const me = ctx.identity('member').userId;
  return { member, me, directory: await userDirectory(ctx.as('admin')) };
}

/**
 * A successful subscribe answer of the level's shape whose maps list, for each expected user,
 * exactly the expected channel names (order ignored) and nothing for anybody else.
 */
export function expectSubscribeOutcome(ctx: RuleContext, reply: Reply, directory: ReadonlyMap<number, DirectoryUser>, expected: ReadonlyMap<number, ExpectedForUser>): JsonObject {
  const body = expectShape(expectSuccess(reply), subscribeResponseShape(ctx.featureLevel), 'body', reply);
  const keys = new Map([...expected.keys()].map((id) => [responseKey(ctx, directory, id), id]));
  for (const [key, userId] of keys) {
    const want = expected.get(userId)!;
    expectEqual(sorted(namesUnder(body.subscribed, key)), sorted(want.subscribed), `subscribed[${key}]`, reply);
    expectEqual(sorted(namesUnder(body.already_subscribed, key)), sorted(want.already), `already_subscribed[${key}]`, reply);
  }
  for (const map of ['subscribed', 'already_subscribed'] as const) {
    for (const [key, names] of Object.entries(body[map])) {
      if (!keys.has(key) && names.length > 0) expectEqual(names, [], `${map}[${key}] (a user the request did not name)`, reply);
    }
  }
  return body;
}

/** A `POST /users/me/subscriptions` rule in which the administrator creates (or fails to create) channels; the body gets its client. */
export function channelCreationRule(header: RuleHeader, body: (ctx: RuleContext, admin: ApiClient) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: 'POST /users/me/subscriptions', writes: true, needs: ['admin'] }, async (ctx) => ctx.as('admin'), body);
}

/**
 * Subscribing to (creating) `subscriptions` is refused with 400 BAD_REQUEST, atomically: the
 * channel named `probe` (one of them, otherwise valid) does not exist afterwards.
 */
export async function expectCreationRefused(admin: ApiClient, subscriptions: ReadonlyArray<{ name: string; description?: string }>, probe: string, why: string): Promise<void> {
  expectError(await admin.post('/users/me/subscriptions', { subscriptions }), { status: 400, code: 'BAD_REQUEST' });
  check(!(await channelExists(admin, probe)), `${probe} was created by a request refused for ${why}`);
}

/** Characters of several scripts and planes (each one code point), for names of a given length. */
const NAME_CHARS = ['a', 'Z', '0', '-', '_', ' ', '.', 'é', 'ß', 'Ω', 'ж', 'ע', 'ب', '日', '한', '😀', '𝔘', '🂡', '€', '#', '*', '>', '"'];

/** Text of exactly `length` code points that neither starts nor ends with whitespace. */
export function textOfLength(length: number): fc.Arbitrary<string> {
  if (length <= 0) return fc.constant('');
  return fc
    .array(fc.constantFrom(...NAME_CHARS), { minLength: length, maxLength: length })
    .map((chars) => {
      if (chars[0] === ' ') chars[0] = 'x';
      if (chars[chars.length - 1] === ' ') chars[chars.length - 1] = 'x';
      return chars.join('');
    });
}

/** Code-point length (what the limits of section 8 count). */
export const codePoints = (text: string): number => [...text].length;

/** `prefix` followed by filler characters up to exactly `length` code points. */
export function filledTo(prefix: string, length: number, filler: readonly string[]): string {
  const tail: string[] = [];
  for (let i = codePoints(prefix); i < length; i++) tail.push(filler[i % filler.length] as string);
  return prefix + tail.join('');
}

/** Characters no channel name may contain (Cc, and Unicode non-characters), reference 1.5. */
export function forbiddenNameChar(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant('\u0000'),
    fc.integer({ min: 0x00, max: 0x1f }).map((c) => String.fromCodePoint(c)),
    fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCodePoint(c)),
    fc.integer({ min: 0xfdd0, max: 0xfdef }).map((c) => String.fromCodePoint(c)),
    fc.integer({ min: 0, max: 16 }).chain((plane) => fc.constantFrom(0xfffe, 0xffff).map((low) => String.fromCodePoint(plane * 0x10000 + low))),
  );
}
