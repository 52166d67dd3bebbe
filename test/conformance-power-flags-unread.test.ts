/**
 * The `unread_msgs` and read-receipt rules prove their power: against deliberately broken
 * variants of our server (a stale count, muted topics counted, read mentions kept, group
 * conversations listed as one-on-one, topics re-spelled, fields of the wrong level; read receipts
 * listing the sender, readers who turned them off, muted users or users who have not read, or
 * answered where they must be refused) the named rule fails; against the unbroken server every
 * one of them passes.
 */
import { boolSetting } from '../lib/entities/user.js';
import type { ChatApp } from '../server/app/app.js';
import type { Mutation } from './support/conformance.js';
import { errorSucceeds, RECEIPTS, REGISTER } from './support/power-flags.js';
import { rewriteAnswer } from './support/power-helpers.js';
import { asUser, type Breakage, caller, eachBreakageFailsItsRule, idIn, is, mapAnswers, passesUnbroken } from './support/power-mutations.js';

const RULES = [
  'unread/register-lists-own-messages-exactly',
  'read-receipts/readers-listed-sender-never',
  'read-receipts/setting-off-and-muting-hide-readers',
  'read-receipts/unreadable-message-refused',
  'read-receipts/organization-setting-off-refused',
  'read-receipts/no-credentials-unauthorized',
];

const UNREAD = 'unread/register-lists-own-messages-exactly';

interface Unread {
  streams: Array<Record<string, unknown> & { topic: string; unread_message_ids: number[] }>;
  pms: Array<Record<string, unknown> & { unread_message_ids: number[] }>;
  huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
  mentions: number[];
  count: number;
  [key: string]: unknown;
}

/** Changes `unread_msgs` of register answers in place. */
const unreadAnswer = (change: (unread: Unread) => void): Mutation =>
  mapAnswers('POST', REGISTER, (body) => body.unread_msgs !== undefined && change(body.unread_msgs as Unread));

/** Mentions once listed for a user stay listed (read ones included). */
function mentionsKept(): Mutation {
  const seen = new Map<number, Set<number>>();
  return rewriteAnswer(
    (request) => is(request, 'POST', /^\/register$/),
    (body, request, app) => {
      const unread = body.unread_msgs as Unread | undefined;
      const user = caller(app, request)?.id ?? 0;
      if (!unread) return;
      const kept = seen.get(user) ?? new Set<number>();
      for (const id of unread.mentions) kept.add(id);
      seen.set(user, kept);
      unread.mentions = [...kept];
    },
  );
}

/** The users a receipts answer would list when some of the real server's exclusions are skipped. */
function receiptsWithout(app: ChatApp, messageId: number, requesterId: number, skip: { setting?: boolean; mutes?: boolean; unread?: boolean; sender?: boolean }): number[] {
  const message = app.world.messages.get(messageId);
  if (!message) return [];
  const mutes = (muter: number, muted: number) => app.world.mutedUsers.get(muter)?.some((entry) => entry.id === muted) === true;
  const ids: number[] = [];
  for (const [userId, flags] of message.flags) {
    const user = app.world.users.get(userId);
    if (!user?.isActive) continue;
    if (!skip.sender && userId === message.senderId) continue;
    if (!skip.unread && !flags.has('read')) continue;
    if (!skip.setting && !boolSetting(user, 'send_read_receipts')) continue;
    if (!skip.mutes && (mutes(requesterId, userId) || mutes(userId, requesterId))) continue;
    ids.push(userId);
  }
  return ids.sort((a, b) => a - b);
}

const receiptsSkipping = (skip: Parameters<typeof receiptsWithout>[3]): Mutation =>
  rewriteAnswer(
    (request) => is(request, 'GET', RECEIPTS),
    (body, request, app) => Array.isArray(body.user_ids) && (body.user_ids = receiptsWithout(app, idIn(request), caller(app, request)?.id ?? 0, skip)),
  );

const BREAKAGES: readonly Breakage[] = [
  { what: 'the unread count is one too many', rule: UNREAD, mutate: unreadAnswer((unread) => (unread.count += 1)) },
  {
    what: 'muted topics are counted',
    rule: UNREAD,
    mutate: unreadAnswer((unread) => (unread.count = [...unread.streams, ...unread.pms, ...unread.huddles].reduce((sum, entry) => sum + entry.unread_message_ids.length, 0))),
  },
  { what: 'read mentions stay in mentions', rule: UNREAD, mutate: mentionsKept() },
  { what: 'unread mentions are not listed', rule: UNREAD, mutate: unreadAnswer((unread) => (unread.mentions = [])) },
  {
    what: 'group conversations are listed as one-on-one',
    rule: UNREAD,
    mutate: unreadAnswer((unread) => {
      for (const huddle of unread.huddles) unread.pms.push({ sender_id: Number(huddle.user_ids_string.split(',')[0]), other_user_id: Number(huddle.user_ids_string.split(',')[0]), unread_message_ids: huddle.unread_message_ids });
      unread.huddles = [];
    }),
  },
  { what: 'topics are shown lower-cased', rule: UNREAD, mutate: unreadAnswer((unread) => unread.streams.forEach((entry) => (entry.topic = entry.topic.toLowerCase()))) },
  { what: 'old_unreads_missing is left out at level 415', rule: UNREAD, mutate: unreadAnswer((unread) => delete unread.old_unreads_missing) },
  { what: 'channel entries carry sender_ids at level 415', rule: UNREAD, mutate: unreadAnswer((unread) => unread.streams.forEach((entry) => (entry.sender_ids = []))) },
  { what: 'one-on-one entries lack other_user_id at level 207', rule: UNREAD, level: 207, mutate: unreadAnswer((unread) => unread.pms.forEach((entry) => delete entry.other_user_id)) },
  { what: 'read receipts list the sender', rule: 'read-receipts/readers-listed-sender-never', mutate: receiptsSkipping({ sender: true }) },
  { what: 'read receipts list subscribers who have not read the message', rule: 'read-receipts/readers-listed-sender-never', mutate: receiptsSkipping({ unread: true }) },
  { what: 'read receipts list readers who turned them off', rule: 'read-receipts/setting-off-and-muting-hide-readers', mutate: receiptsSkipping({ setting: true }) },
  { what: 'read receipts list muted users', rule: 'read-receipts/setting-off-and-muting-hide-readers', mutate: receiptsSkipping({ mutes: true }) },
  {
    what: 'anyone may see the read receipts of any message',
    rule: 'read-receipts/unreadable-message-refused',
    mutate: (request, next, app) => {
      const sender = app.world.users.get(app.world.messages.get(idIn(request))?.senderId ?? 0);
      return is(request, 'GET', RECEIPTS) && sender ? next(asUser(request, sender)) : next(request);
    },
  },
  {
    what: 'read receipts are answered with the organization setting off',
    rule: 'read-receipts/organization-setting-off-refused',
    mutate: errorSucceeds('GET', RECEIPTS, (body) => String(body.msg).includes('disabled')),
  },
];

passesUnbroken('every unread and read-receipt rule', RULES, [415, 289, 207, 137], 3, RULES.length);

eachBreakageFailsItsRule(BREAKAGES, 3);
