/**
 * The error conditions of `POST /users/{user_id}/status` (section 4.7), one rule each: every
 * one answers 400 BAD_REQUEST and leaves the target's status as it was. Plus the targets the
 * endpoint refuses (unknown users, bots).
 */
import fc from 'fast-check';
import { expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { Rule, RuleContext } from '../types.js';
import { unknownParams } from '../conventions/unknown-parameters.js';
import { ENDPOINT } from './user-status.js';
import { ADMIN_STATUS_LEVEL, expectStatusUnchanged, padded, readStatus, STATUS_TEXT_LIMIT, textOfLength, UNICODE_EMOJI } from './user-status-support.js';
import { NON_GUEST_READERS } from '../support/readers.js';

const LEVELS = { min: ADMIN_STATUS_LEVEL } as const;

interface RefusalSpec {
  readonly id: string;
  readonly title: string;
  /** Request parameters that must be refused (as pairs: generated names are data). */
  readonly params: (ctx: RuleContext) => fc.Arbitrary<Array<readonly [string, string]>>;
}

/** A rule: the admin's request with these parameters is refused, and the member's status is unchanged. */
function refusal(spec: RefusalSpec): Rule {
  return {
    id: spec.id,
    title: spec.title,
    endpoint: ENDPOINT,
    section: '4.7; 7',
    levels: LEVELS,
    writes: false,
    needs: ['admin', 'member'],
  readers: NON_GUEST_READERS,
    async run(ctx) {
      const admin = ctx.as('admin');
      const target = ctx.identity('member').userId;
      const { status: before } = await readStatus(ctx.reader('member'), target);
      await ctx.property('refused requests', [spec.params(ctx)], async (params) => {
        expectError(await admin.post(`/users/${target}/status`, params), { status: 400, code: 'BAD_REQUEST' });
        await expectStatusUnchanged(ctx.reader('member'), target, before, 'after a refused request');
      }, { maxRuns: 12 });
    },
  };
}

/** A status text that is itself valid, so only the condition under test can fail. */
const validText = padded(fc.integer({ min: 1, max: 20 }).chain(textOfLength)).map((text): readonly [string, string] => ['status_text', text]);

const noNewValues = refusal({
  id: 'user-status/no-new-values-refused',
  title: 'a request with neither status_text nor emoji_name (nothing, or only unknown parameters) is refused',
  params: () => unknownParams(['status_text', 'emoji_name', 'emoji_code', 'reaction_type', 'away'], { maxLength: 3 }),
});

const textTooLong = refusal({
  id: 'user-status/status-text-over-limit-refused',
  title: 'status_text longer than 60 code points after stripping is refused',
  params: () => padded(fc.integer({ min: STATUS_TEXT_LIMIT + 1, max: STATUS_TEXT_LIMIT + 200 }).chain(textOfLength)).map((text) => [['status_text', text] as const]),
});

const codeWithoutName = refusal({
  id: 'user-status/emoji-code-without-name-refused',
  title: 'emoji_code or reaction_type without emoji_name is refused (the text sent with them is not applied)',
  params: () =>
    fc
      .tuple(validText, fc.constantFrom('code', 'type', 'both'), fc.constantFrom(...UNICODE_EMOJI))
      .map(([text, which, [, code]]) => [text, ...(which === 'type' ? [] : [['emoji_code', code] as const]), ...(which === 'code' ? [] : [['reaction_type', 'unicode_emoji'] as const])]),
});

const unknownName = refusal({
  id: 'user-status/unknown-emoji-name-refused',
  title: 'an emoji_name that names no emoji (without a code to go with it) is refused',
  params: (ctx) =>
    fc.tuple(validText, fc.stringMatching(/^[a-z]{4,12}$/)).map(([text, suffix]) => [text, ['emoji_name', `${ctx.runTag.replace(/-/g, '_')}_no_such_${suffix}`] as const]),
});

const mismatchedName = refusal({
  id: 'user-status/invalid-emoji-name-refused',
  title: 'a Unicode emoji_name that does not go with its emoji_code is refused',
  params: () =>
    fc
      .tuple(validText, fc.constantFrom(...UNICODE_EMOJI), fc.constantFrom(...UNICODE_EMOJI))
      .filter(([, [name], [otherName]]) => name !== otherName)
      .map(([text, [name], [, code]]) => [text, ['emoji_name', name] as const, ['emoji_code', code] as const, ['reaction_type', 'unicode_emoji'] as const]),
});

const invalidCustom = refusal({
  id: 'user-status/invalid-custom-emoji-refused',
  title: "a realm_emoji status whose emoji_code is no custom emoji's ID is refused",
  params: () =>
    fc
      .tuple(validText, fc.constantFrom(...UNICODE_EMOJI), fc.integer({ min: 1_000_000, max: 2 ** 31 - 1 }))
      .map(([text, [name], id]) => [text, ['emoji_name', name] as const, ['emoji_code', String(id)] as const, ['reaction_type', 'realm_emoji'] as const]),
});

const notAdmin: Rule = {
  id: 'user-status/non-admin-refused',
  title: "users who are not administrators cannot set another user's status: 400 BAD_REQUEST, nothing changes",
  endpoint: ENDPOINT,
  section: '4.7; 5.5',
  levels: LEVELS,
  writes: false,
  needs: ['admin', 'member'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const adminId = ctx.identity('admin').userId;
    const callers = ctx.identities.filter((identity) => identity.role !== 'owner' && identity.role !== 'admin');
    const { status: before } = await readStatus(ctx.reader('member'), adminId);
    await ctx.property('non-administrators', [fc.constantFrom(...callers), validText], async (caller, text) => {
      const reply = await ctx.anonymous.withCredentials(caller.email, caller.apiKey).post(`/users/${adminId}/status`, [text]);
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
      await expectStatusUnchanged(ctx.reader('member'), adminId, before, 'after a refused request');
    }, { maxRuns: 8 });
  },
};

const listedUsers = v.object({ members: v.array(v.object({ user_id: v.int(), is_bot: v.bool(), is_active: v.bool() })) });

const badTargets: Rule = {
  id: 'user-status/unknown-or-bot-target-refused',
  title: 'a user ID with no user, or a bot, is refused with 400 BAD_REQUEST',
  endpoint: ENDPOINT,
  section: '4.7; 7',
  levels: LEVELS,
  writes: false,
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const listing = await admin.get('/users');
    const { members } = expectShape(expectSuccess(listing), listedUsers, 'body', listing);
    const known = new Set(members.map((user) => user.user_id));
    const bots = members.filter((user) => user.is_bot && user.is_active).map((user) => user.user_id);
    const absent = fc.integer({ min: 1, max: 2 ** 31 - 1 }).filter((id) => !known.has(id));
    const target = bots.length > 0 ? fc.oneof(absent, fc.constantFrom(...bots)) : absent;
    await ctx.property('absent users and bots', [target, validText], async (id, text) => {
      expectError(await admin.post(`/users/${id}/status`, [text]), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 8 });
  },
};

export const rules: readonly Rule[] = [noNewValues, textTooLong, codeWithoutName, unknownName, mismatchedName, invalidCustom, notAdmin, badTargets];
