/**
 * Statuses (section 2.11) as `GET /users/{user_id}/status` shows them, a small model of what a
 * status should read back as, and the cleanup that restores a user's status after a rule.
 */
import fc from 'fast-check';
import type { ApiClient, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { RuleContext } from '../types.js';

/** Level 407: administrators set other users' statuses. */
export const ADMIN_STATUS_LEVEL = 407;
/** Level 262: `GET /users/{user_id}/status`. */
export const GET_STATUS_LEVEL = 262;
/** Section 8: at most 60 characters (code points, after stripping surrounding whitespace). */
export const STATUS_TEXT_LIMIT = 60;

/** Unicode emoji every server knows, by their (Google-set) names. */
export const UNICODE_EMOJI: ReadonlyArray<readonly [name: string, code: string]> = [
  ['car', '1f697'],
  ['octopus', '1f419'],
  ['rocket', '1f680'],
  ['house', '1f3e0'],
  ['coffee', '2615'],
];

export const statusShape = v.refine(
  v.object(
    {
      away: v.optional(v.literal(true)),
      status_text: v.optional(v.string({ nonEmpty: true })),
      emoji_name: v.optional(v.string({ nonEmpty: true })),
      emoji_code: v.optional(v.string()),
      reaction_type: v.optional(v.string()),
    },
    { exact: true },
  ),
  'emoji_name, emoji_code and reaction_type present together',
  (status) => (status.emoji_name === undefined) === (status.emoji_code === undefined) && (status.emoji_name === undefined) === (status.reaction_type === undefined),
);

export interface StatusView {
  readonly status_text?: string;
  readonly emoji_name?: string;
  readonly emoji_code?: string;
  readonly reaction_type?: string;
  readonly away?: true;
}

/** `GET /users/{id}/status`, shape-checked. */
export async function readStatus(client: ApiClient, userId: number): Promise<{ status: StatusView; reply: Reply }> {
  const reply = await client.get(`/users/${userId}/status`);
  const { status } = expectShape(expectSuccess(reply), v.object({ status: statusShape }), 'body', reply);
  return { status, reply };
}

/** The status without `away` (which mirrors presence, not the status fields). */
export const statusFields = ({ away: _away, ...rest }: StatusView): StatusView => rest;

/**
 * The admin request that puts `status` back: the text (or '' to clear) and the emoji (or an
 * empty name to clear).
 */
export function restoringParams(status: StatusView): Record<string, string> {
  const params: Record<string, string> = { status_text: status.status_text ?? '', emoji_name: status.emoji_name ?? '' };
  if (status.emoji_name !== undefined) {
    params.emoji_code = status.emoji_code ?? '';
    params.reaction_type = status.reaction_type ?? '';
  }
  return params;
}

/** Reads the target's status now and restores it (as `admin`) when the rule ends. */
export async function restoreStatusLater(ctx: RuleContext, reader: ApiClient, userId: number): Promise<StatusView> {
  const { status } = await readStatus(reader, userId);
  ctx.cleanup(`restore the status of user ${userId}`, async (c: CleanupContext) => {
    const reply = await c.as('admin').post(`/users/${userId}/status`, restoringParams(status));
    if (reply.status !== 200) throw new Error(`restoring the status answered HTTP ${reply.status} ${reply.text.slice(0, 200)}`);
    // Read back (without `away`, which follows presence): everyone sees this status.
    const now = statusFields((await readStatus(c.as('admin'), userId)).status);
    const was = statusFields(status);
    const canonical = (view: StatusView) => JSON.stringify(Object.entries(view).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (canonical(now) !== canonical(was)) throw new Error(`the status of user ${userId} is left changed: ${JSON.stringify(now)}, was ${JSON.stringify(was)}`);
  });
  return status;
}

/** The administrator, the member whose status a rule changes, and that status (restored when the rule ends). */
export interface MemberStatus {
  readonly admin: ApiClient;
  readonly target: number;
  readonly before: StatusView;
}

/** Setup of the rules where an administrator changes the `member` identity's status. */
export async function memberStatusSetup(ctx: RuleContext): Promise<MemberStatus> {
  const admin = ctx.as('admin');
  const target = ctx.identity('member').userId;
  return { admin, target, before: await restoreStatusLater(ctx, admin, target) };
}

/** Status texts of exactly `length` code points (letters, accents, CJK, astral emoji, inner spaces). */
export function textOfLength(length: number): fc.Arbitrary<string> {
  const char = fc.constantFrom('a', 'Z', 'é', '中', '😀', '-', '_', '𝒳');
  const inner = fc.constantFrom('a', 'é', '中', '😀', ' ');
  if (length === 0) return fc.constant('');
  if (length === 1) return char;
  return fc.tuple(char, fc.array(inner, { minLength: length - 2, maxLength: length - 2 }), char).map(([first, middle, last]) => `${first}${middle.join('')}${last}`);
}

/** The text with up to three spaces around it (stripped by the server before the limit applies). */
export function padded(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.nat({ max: 3 }), text, fc.nat({ max: 3 })).map(([before, core, after]) => `${' '.repeat(before)}${core}${' '.repeat(after)}`);
}

export const codePoints = (text: string): number => [...text].length;

/** Fails unless the target's status still equals `expected` (status fields only). */
export async function expectStatusUnchanged(reader: ApiClient, userId: number, expected: StatusView, what: string): Promise<void> {
  const { status, reply } = await readStatus(reader, userId);
  check(JSON.stringify(sorted(statusFields(status))) === JSON.stringify(sorted(statusFields(expected))), () => `${what}: status changed to ${JSON.stringify(status)} (was ${JSON.stringify(expected)})`, reply);
}

const sorted = (status: StatusView): Array<[string, unknown]> => Object.entries(status).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
