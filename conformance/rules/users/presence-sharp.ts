/**
 * Presence checked value by value on every run (sections 2.4, 3.3, 4.5, 6 item 3): each reported
 * status in each response format, with the reporter's own entry agreeing with the request, and
 * the presence event a user's first reports send to the others.
 */
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { openQueue } from '../support/channel-fixtures.js';
import { pollUntil } from '../support/event-waits.js';
import { checkFresh, LAST_UPDATE_ID, LEGACY_WEBSITE_ONLY, ownPresence, presenceBody } from './presence-shapes.js';
import type { Rule } from '../types.js';

const PATH = '/users/me/presence';
const STATUSES = ['active', 'idle'] as const;

/** The real server sends presence events only while a realm has at most this many active users. */
const PRESENCE_EVENT_USER_LIMIT = 100;

/** The response formats of section 4.5 and the parameters that ask for each at this level. */
function formats(level: number): Array<{ name: string; modern: boolean; params: Record<string, unknown> }> {
  return [
    { name: 'legacy (no format parameter)', modern: false, params: {} },
    { name: 'modern (slim_presence)', modern: true, params: { slim_presence: true } },
    ...(level >= LAST_UPDATE_ID ? [{ name: 'modern (last_update_id -1)', modern: true, params: { last_update_id: -1 } }] : []),
  ];
}

const eachStatusEachFormat: Rule = {
  id: 'presence/each-status-in-each-format',
  title: "status 'active' and 'idle' are each reported in every response format on every run; the reporter's own entry is in that format and its timestamps agree with server_timestamp",
  endpoint: 'POST /users/me/presence',
  section: '4.5; 3.3; 2.4',
  levels: { min: LEGACY_WEBSITE_ONLY },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const { shown, id, email } = await ownPresence(client);
    for (const format of formats(ctx.featureLevel)) {
      for (const status of STATUSES) {
        // An active ping first, so the active time is fresh whatever the report under test says.
        expectSuccess(await client.post(PATH, { status: 'active', ping_only: true }));
        const reply = await client.post(PATH, { status, ...format.params });
        const body = presenceBody(reply, format.modern ? 'modern' : 'legacy', ctx.featureLevel);
        if (!shown) continue;
        const what = `${status} report, ${format.name}`;
        if (format.modern) {
          const own = body.presences[String(id)] as { active_timestamp: number; idle_timestamp: number } | undefined;
          check(own !== undefined, `${what}: the reporter's entry (${id}) is missing`, reply);
          checkFresh(own.active_timestamp, body.server_timestamp, `${what}: own active_timestamp`);
          checkFresh(own.idle_timestamp, body.server_timestamp, `${what}: own idle_timestamp`);
        } else {
          const own = body.presences[email] as { website: { timestamp: number } } | undefined;
          check(own !== undefined, `${what}: the reporter's entry (${email}) is missing`, reply);
          checkFresh(own.website.timestamp, body.server_timestamp, `${what}: own website.timestamp`);
        }
      }
    }
  },
};

const legacyEvent = v.object({
  type: v.literal('presence'),
  user_id: v.int(),
  email: v.string(),
  server_timestamp: v.number(),
  presence: v.object({ website: v.object({ client: v.string(), status: v.literal('active', 'idle'), timestamp: v.int({ min: 0 }), pushable: v.optional(v.bool()) }) }, { exact: true }),
});

const countedUsers = v.object({ members: v.array(v.object({ is_active: v.bool() })) });

const onlineEvent: Rule = {
  id: 'presence/event-when-user-comes-online',
  title: "a user's first report sends the others a presence event with that user's ID, status active and a timestamp agreeing with the event's server_timestamp",
  endpoint: 'POST /users/me/presence',
  section: '6 item 3; 4.5; 3.3',
  levels: { min: LEGACY_WEBSITE_ONLY },
  writes: true,
  needs: ['member', 'throwaway-user'],
  async run(ctx) {
    const observer = ctx.as('member');
    const listing = await observer.get('/users');
    const active = expectShape(expectSuccess(listing), countedUsers, 'body', listing).members.filter((user) => user.is_active).length;
    if (active + 1 > PRESENCE_EVENT_USER_LIMIT) ctx.skip(`the realm has ${active} active users: the real server sends presence events only up to ${PRESENCE_EVENT_USER_LIMIT}`);
    const queue = await openQueue(observer, ['presence']);
    ctx.cleanup('delete presence queue', async () => queue.close());
    const fresh = await ctx.throwawayUser();
    if (!(await ownPresence(fresh.client)).shown) ctx.skip('presence is disabled in the realm, or new users start invisible');
    expectSuccess(await fresh.client.post(PATH, { status: 'active', ping_only: true }));
    const mine = (events: readonly JsonObject[]) => events.filter((event) => event.type === 'presence' && event.user_id === fresh.identity.userId);
    const events = mine(await pollUntil(queue, (received) => mine(received).length > 0));
    if (events.length === 0) fail(`no presence event for user ${fresh.identity.userId} after its first report`);
    const event = expectShape(events[0], legacyEvent, 'presence event');
    expectEqual(event.presence.website.status, 'active', 'presence.website.status after an active report');
    checkFresh(event.presence.website.timestamp, event.server_timestamp, 'presence.website.timestamp');
  },
};

export const rules: readonly Rule[] = [eachStatusEachFormat, onlineEvent];
