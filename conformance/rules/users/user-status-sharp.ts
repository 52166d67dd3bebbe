/**
 * `POST /users/{user_id}/status` checked exactly on every run (sections 2.11, 4.7, 5.5, 8): the
 * 60-character limit at 60 and at 61 (code points, counted after stripping), who may set a
 * status (administrators and owners, on others and on themselves; nobody else, not even on
 * themselves), the `user_status` event each change sends, and `away` following invisible mode.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import type { Identity } from '../../credentials/types.js';
import { expectEqual, expectError, expectSuccess, fail } from '../../expect/assert.js';
import { openQueue } from '../support/channel-fixtures.js';
import { pollUntil } from '../support/event-waits.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { ownSettings } from '../support/state-fetch.js';
import type { Rule, RuleContext } from '../types.js';
import { ENDPOINT } from './user-status.js';
import { ADMIN_STATUS_LEVEL, expectStatusUnchanged, memberStatusSetup, readStatus, restoreStatusLater, restoringParams, STATUS_TEXT_LIMIT, statusFields, UNICODE_EMOJI } from './user-status-support.js';
import { NON_GUEST_READERS } from '../support/readers.js';

const LEVELS = { min: ADMIN_STATUS_LEVEL } as const;

/** Exactly `length` code points, half of them astral (two UTF-16 units each), with a tag in front. */
function textOf(tag: string, length: number): string {
  const head = [...tag].slice(0, length);
  return [...head, ...Array.from({ length: length - head.length }, (_, i) => (i % 2 === 0 ? '😀' : 'ü'))].join('');
}

const exactLimit: Rule = {
  id: 'user-status/status-text-exact-limit',
  title: 'a status_text of exactly 60 code points is stored, also with spaces around it (stripped first); 61 code points is refused with 400 BAD_REQUEST and changes nothing',
  endpoint: ENDPOINT,
  section: '4.7; 2.11; 8',
  levels: LEVELS,
  writes: true,
  needs: ['admin', 'member'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, target } = await memberStatusSetup(ctx);
    const atLimit = textOf(ctx.runTag, STATUS_TEXT_LIMIT);
    for (const sent of [atLimit, `  ${atLimit.replace(/^./u, 'x')}  `]) {
      expectPlainSuccess(await admin.post(`/users/${target}/status`, { status_text: sent }));
      const { status, reply } = await readStatus(ctx.reader('member'), target);
      expectEqual(status.status_text, sent.trim(), `status_text after sending ${[...sent].length} code points (${[...sent.trim()].length} stripped)`, reply);
    }
    const { status: before } = await readStatus(ctx.reader('member'), target);
    expectError(await admin.post(`/users/${target}/status`, { status_text: textOf(ctx.runTag, STATUS_TEXT_LIMIT + 1) }), { status: 400, code: 'BAD_REQUEST' });
    await expectStatusUnchanged(ctx.reader('member'), target, before, 'after a status_text of 61 code points');
  },
};

/** A client for an identity of the run that the rule does not list in `needs` (it may be absent). */
const clientOf = (ctx: RuleContext, identity: Identity): ApiClient => ctx.anonymous.withCredentials(identity.email, identity.apiKey);

const whoMaySet: Rule = {
  id: 'user-status/who-may-set-a-status',
  title: "administrators and owners set another user's status and their own; moderators, members and guests are refused with 400 BAD_REQUEST even for their own status, which stays as it was",
  endpoint: ENDPOINT,
  section: '4.7; 5.5',
  levels: LEVELS,
  writes: true,
  needs: ['admin', 'member'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const member = ctx.identity('member').userId;
    const humans = ctx.identities.filter((identity) => !identity.isBot);
    const targets = new Set([member, ...humans.filter((identity) => identity.role === 'owner' || identity.role === 'admin').map((identity) => identity.userId)]);
    for (const id of targets) await restoreStatusLater(ctx, admin, id);
    for (const caller of humans) {
      const privileged = caller.role === 'owner' || caller.role === 'admin';
      for (const target of privileged ? [caller.userId, member] : [caller.userId]) {
        const text = `${ctx.name('status')} ${caller.role}`;
        const { status: before } = await readStatus(ctx.reader('member'), target);
        const reply = await clientOf(ctx, caller).post(`/users/${target}/status`, { status_text: text });
        const what = `${caller.role} ${caller.userId} setting the status of ${target === caller.userId ? 'itself' : `user ${target}`}`;
        if (!privileged) {
          // Refused on a conforming server; otherwise put the status back before failing.
          if (reply.status === 200) ctx.cleanup(`restore the status of user ${target}`, async (c) => void (await c.as('admin').post(`/users/${target}/status`, restoringParams(before))));
          expectError(reply, { status: 400, code: 'BAD_REQUEST' });
          await expectStatusUnchanged(ctx.reader('member'), target, before, what);
          continue;
        }
        expectPlainSuccess(reply);
        const { status, reply: read } = await readStatus(ctx.reader('member'), target);
        expectEqual(status.status_text, text, `status_text after ${what}`, read);
      }
    }
  },
};

/** The keys a `user_status` event carries besides `id`. */
const eventFields = (event: JsonObject): JsonObject => Object.fromEntries(Object.entries(event).filter(([key]) => key !== 'id'));

const statusEvent: Rule = {
  id: 'user-status/change-sends-user-status-event',
  title: "each change sends every user a user_status event naming the target, carrying exactly the fields the request set (status_text stripped; emoji_name, emoji_code and reaction_type together) and no away",
  endpoint: ENDPOINT,
  section: '4.7; 2.11',
  levels: LEVELS,
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, target } = await memberStatusSetup(ctx);
    const queue = await openQueue(ctx.as('second-member'), ['user_status']);
    ctx.cleanup('delete user_status queue', async () => queue.close());
    const [name, code] = UNICODE_EMOJI[0]!;
    const text = ctx.name('status');
    const changes: Array<[params: Record<string, string>, expected: JsonObject]> = [
      [{ status_text: ` ${text} `, emoji_name: name }, { status_text: text, emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' }],
      [{ status_text: '' }, { status_text: '' }],
      [{ emoji_name: '' }, { emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' }],
    ];
    // A poll may still bring events of earlier changes (restores by other rules): the first change is
    // known by its unique text, and each later one is the target's next event after it.
    const seen: JsonObject[] = [];
    const waitFor = async (isOurs: (event: JsonObject, index: number) => boolean): Promise<number> => {
      if (!seen.some(isOurs)) seen.push(...(await pollUntil(queue, (more) => [...seen, ...more].some(isOurs))));
      return seen.findIndex(isOurs);
    };
    let last = -1;
    for (const [step, [params, expected]] of changes.entries()) {
      expectPlainSuccess(await admin.post(`/users/${target}/status`, params));
      const found = await waitFor((event, index) => event.type === 'user_status' && event.user_id === target && (step === 0 ? event.status_text === text : index > last));
      if (found === -1) fail(`no user_status event for user ${target} after ${JSON.stringify(params)}`);
      expectEqual(eventFields(seen[found]!), { type: 'user_status', user_id: target, ...expected }, `user_status event after ${JSON.stringify(params)}`);
      last = found;
    }
    expectEqual(statusFields((await readStatus(ctx.reader('member'), target)).status), {}, 'status after clearing text and emoji');
  },
};

const awayMirrorsPresence: Rule = {
  id: 'user-status/away-mirrors-presence-enabled',
  title: 'a user with a status shows away: true exactly while its presence_enabled is off (invisible mode), whatever its status text',
  endpoint: 'GET /users/{user_id}/status',
  section: '2.11; 3.3',
  levels: LEVELS,
  writes: true,
  needs: ['admin', 'member'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, target } = await memberStatusSetup(ctx);
    const member = ctx.as('member');
    const original = (await ownSettings(member)).presence_enabled;
    if (typeof original !== 'boolean') ctx.skip('the member\'s settings carry no presence_enabled');
    // A status row first: a user who never had a status reads as {} whatever presence says.
    expectPlainSuccess(await admin.post(`/users/${target}/status`, { status_text: ctx.name('status') }));
    ctx.cleanup(`restore presence_enabled = ${original} for the member`, async (c) => {
      const reply = await c.as('member').patch('/settings', { presence_enabled: original });
      if (reply.status !== 200) throw new Error(`PATCH /settings answered HTTP ${reply.status}: presence_enabled of the member stays changed`);
    });
    for (const enabled of [false, true]) {
      expectSuccess(await member.patch('/settings', { presence_enabled: enabled }));
      const { status, reply } = await readStatus(ctx.reader('member'), target);
      expectEqual(status.away === true, !enabled, `away shown with presence_enabled ${enabled}`, reply);
    }
  },
};

export const rules: readonly Rule[] = [exactLimit, whoMaySet, statusEvent, awayMirrorsPresence];
