/**
 * `POST /users/{user_id}/status` (sections 2.11, 4.7; level 407): administrators set another
 * user's status. Changes are read back through `GET /users/{user_id}/status` (level 262), and
 * the target's status is restored when each rule ends. The error conditions of section 4.7 have
 * one rule each (user-status-errors.ts).
 */
import fc from 'fast-check';
import { expectEqual, expectError, expectStatus, expectSuccess, fail } from '../../expect/assert.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule, RuleContext } from '../types.js';
import { checkUnknownParamsReported, type ParamPair } from '../conventions/unknown-parameters.js';
import { NON_GUEST_READERS } from '../support/readers.js';
import {
  ADMIN_STATUS_LEVEL,
  codePoints,
  GET_STATUS_LEVEL,
  memberStatusSetup,
  padded,
  readStatus,
  STATUS_TEXT_LIMIT,
  type StatusView,
  statusFields,
  textOfLength,
  UNICODE_EMOJI,
} from './user-status-support.js';

export const ENDPOINT = 'POST /users/{user_id}/status';
const LEVELS = { min: ADMIN_STATUS_LEVEL } as const;

const noCredentials = credentialsRequired({
  id: 'user-status/requires-credentials',
  endpoint: ENDPOINT,
  section: '4.7',
  levels: LEVELS,
  requests: [
    ['POST', '/users/1/status', { status_text: 'x' }],
    ['GET', '/users/1/status'],
  ],
});

type EmojiChange = { kind: 'none' } | { kind: 'clear' } | { kind: 'set'; name: string; code: string; full: boolean };

const emojiChange: fc.Arbitrary<EmojiChange> = fc.oneof(
  fc.constant<EmojiChange>({ kind: 'none' }),
  fc.constant<EmojiChange>({ kind: 'clear' }),
  fc.tuple(fc.constantFrom(...UNICODE_EMOJI), fc.boolean()).map(([[name, code], full]): EmojiChange => ({ kind: 'set', name, code, full })),
);

/** What the status reads back as after a successful change (section 2.11; keys only when set). */
function applied(before: StatusView, text: string | undefined, emoji: EmojiChange): StatusView {
  const out: { -readonly [K in keyof StatusView]: StatusView[K] } = { ...statusFields(before) };
  if (text !== undefined) {
    const stripped = text.trim();
    if (stripped === '') delete out.status_text;
    else out.status_text = stripped;
  }
  if (emoji.kind === 'clear') {
    delete out.emoji_name;
    delete out.emoji_code;
    delete out.reaction_type;
  } else if (emoji.kind === 'set') {
    Object.assign(out, { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: 'unicode_emoji' });
  }
  return out;
}

const adminSets: Rule = {
  id: 'user-status/admin-sets-text-and-emoji',
  title: "an administrator sets, replaces and clears another user's status text and emoji; GET /users/{user_id}/status reads it back",
  endpoint: ENDPOINT,
  section: '4.7; 2.11',
  levels: LEVELS,
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { admin, target, before } = await memberStatusSetup(ctx);
    let current = statusFields(before);
    const text = fc.option(padded(fc.integer({ min: 0, max: STATUS_TEXT_LIMIT }).chain(textOfLength)), { nil: undefined });
    await ctx.property('texts and emoji', [text, emojiChange], async (statusText, emoji) => {
      fc.pre(statusText !== undefined || emoji.kind !== 'none');
      const params: Record<string, string | undefined> = { status_text: statusText };
      if (emoji.kind === 'clear') params.emoji_name = '';
      if (emoji.kind === 'set') Object.assign(params, { emoji_name: emoji.name }, emoji.full ? { emoji_code: emoji.code, reaction_type: 'unicode_emoji' } : {});
      expectPlainSuccess(await admin.post(`/users/${target}/status`, params));
      current = applied(current, statusText, emoji);
      const { status, reply } = await readStatus(ctx.as('member'), target);
      expectEqual(statusFields(status), current, 'status after the change', reply);
    });
  },
};

const textLimit: Rule = {
  id: 'user-status/status-text-limit',
  title: 'status_text of up to 60 code points (surrounding spaces not counted) is stored; longer is refused with 400 and changes nothing',
  endpoint: ENDPOINT,
  section: '4.7; 8',
  levels: LEVELS,
  writes: true,
  needs: ['admin', 'member'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, target, before } = await memberStatusSetup(ctx);
    let current = statusFields(before);
    const text = padded(fc.integer({ min: STATUS_TEXT_LIMIT - 3, max: STATUS_TEXT_LIMIT + 6 }).chain(textOfLength));
    await ctx.property('texts around the limit', [text], async (statusText) => {
      const reply = await admin.post(`/users/${target}/status`, { status_text: statusText });
      if (codePoints(statusText.trim()) <= STATUS_TEXT_LIMIT) {
        expectSuccess(reply, { ignored: [] });
        current = applied(current, statusText, { kind: 'none' });
      } else {
        expectError(reply, { status: 400, code: 'BAD_REQUEST' });
      }
      const { status, reply: read } = await readStatus(ctx.reader('member'), target);
      expectEqual(statusFields(status), current, 'status', read);
    });
  },
};

/** An active custom emoji of the realm, if the target lists them (`GET /realm/emoji`). */
async function someCustomEmoji(ctx: RuleContext): Promise<{ id: string; name: string } | undefined> {
  const listed = await ctx.as('admin').get('/realm/emoji');
  if (listed.status !== 200) return undefined;
  const entries = Object.values((listed.body?.emoji ?? {}) as Record<string, { id?: unknown; name?: unknown; deactivated?: unknown }>);
  const usable = entries.find((entry) => entry.deactivated === false && typeof entry.name === 'string' && entry.id !== undefined);
  return usable ? { id: String(usable.id), name: usable.name as string } : undefined;
}

const reactionTypes: Rule = {
  id: 'user-status/reaction-types',
  title: "the bundled special emoji is set with reaction_type 'service_extra_emoji' (real servers: 'zulip_extra_emoji'), a custom emoji with 'realm_emoji' and its ID, and both read back",
  endpoint: ENDPOINT,
  section: '4.7; 2.11',
  levels: LEVELS,
  writes: true,
  needs: ['admin', 'member'],
  readers: NON_GUEST_READERS,
  deviation: 'extra-emoji-reaction-type',
  async run(ctx) {
    const { admin, target } = await memberStatusSetup(ctx);
    const documented = 'service_extra_emoji';
    const real = 'zulip_extra_emoji';
    const reply = await admin.post(`/users/${target}/status`, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: documented });
    if (reply.status !== 200) {
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
      ctx.deviation('extra-emoji-reaction-type', `reaction_type '${documented}' refused`);
      expectPlainSuccess(await admin.post(`/users/${target}/status`, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: real }));
    }
    const { status, reply: read } = await readStatus(ctx.reader('member'), target);
    expectEqual([status.emoji_name, status.emoji_code], ['zulip', 'zulip'], 'emoji_name and emoji_code', read);
    if (status.reaction_type === real) ctx.deviation('extra-emoji-reaction-type', `reaction_type reads back as '${real}'`);
    else if (status.reaction_type !== documented) fail(`reaction_type: expected '${documented}' (or '${real}'), got ${JSON.stringify(status.reaction_type)}`, read);
    const custom = await someCustomEmoji(ctx);
    if (!custom) {
      ctx.note('realm_emoji not exercised: the target lists no active custom emoji (GET /realm/emoji)');
      return;
    }
    expectPlainSuccess(await admin.post(`/users/${target}/status`, { emoji_name: custom.name, emoji_code: custom.id, reaction_type: 'realm_emoji' }));
    const after = await readStatus(ctx.reader('member'), target);
    expectEqual([after.status.emoji_name, after.status.emoji_code, after.status.reaction_type], [custom.name, custom.id, 'realm_emoji'], 'custom emoji fields', after.reply);
  },
};

const unknownIgnored: Rule = {
  id: 'user-status/unknown-parameters-ignored',
  title: 'unknown parameters are reported, sorted, in ignored_parameters_unsupported',
  endpoint: ENDPOINT,
  section: '1 convention 4; 4.7',
  levels: LEVELS,
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { admin, target } = await memberStatusSetup(ctx);
    // `away` was read by the first implementation at this level: never offered as unknown.
    const send = (pairs: ParamPair[]) => admin.post(`/users/${target}/status`, [['status_text', ctx.runTag], ...pairs]);
    await checkUnknownParamsReported(ctx, { declared: ['status_text', 'emoji_name', 'emoji_code', 'reaction_type', 'away'], send, maxRuns: 10 });
  },
};

const getShape: Rule = {
  id: 'user-status/get-status-shape',
  title: 'GET /users/{user_id}/status answers {status} with only the meaningful keys, for every user of the run',
  endpoint: 'GET /users/{user_id}/status',
  section: '2.11',
  levels: { min: GET_STATUS_LEVEL },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    for (const identity of ctx.identities) await readStatus(client, identity.userId);
  },
};

const absentBefore: Rule = {
  id: 'user-status/admin-endpoint-absent-before-407',
  title: "before level 407 there is no way to set another user's status: the request is answered 404 or 405 and changes nothing",
  endpoint: ENDPOINT,
  section: '4.7; 9.2',
  levels: { max: ADMIN_STATUS_LEVEL - 1 },
  writes: false,
  needs: ['admin', 'member'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const target = ctx.identity('member').userId;
    const before = ctx.featureLevel >= GET_STATUS_LEVEL ? (await readStatus(ctx.reader('member'), target)).status : undefined;
    // 404 where no view has the path (before 262), 405 where only GET has it.
    expectStatus(await admin.post(`/users/${target}/status`, { status_text: ctx.runTag }), [404, 405]);
    if (before) expectEqual(statusFields((await readStatus(ctx.reader('member'), target)).status), statusFields(before), 'status after the refused request');
  },
};

export const rules: readonly Rule[] = [absentBefore, noCredentials, adminSets, textLimit, reactionTypes, unknownIgnored, getShape];
