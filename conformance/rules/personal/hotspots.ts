/**
 * The old web tutorial below level 233 (the real server's hotspots and tutorial_status views):
 * an unknown hotspot is refused by name; marking the hotspot a new user is shown is an empty
 * success that sends that user a `hotspots` event with what to show next, which a fresh
 * `POST /register` agrees with; marking it again changes nothing; a finished tutorial shows no
 * hotspot and a restarted one shows the rest again. Marking cannot be undone, so only a throwaway
 * user the run created marks anything. The hotspots' names and texts changed between releases and
 * a server may disable the tutorial: no rule asserts which hotspots exist.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { expectEqual, expectError, expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { openStream } from '../support/event-stream.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { fetchState } from '../support/channel-fixtures.js';
import type { Rule, RuleContext } from '../types.js';

/** Level 233 renamed hotspots to onboarding steps; level 230 added has_trigger. */
const LAST_HOTSPOTS_LEVEL = 232;
const HAS_TRIGGER_LEVEL = 230;
/** Level 282 removed `POST /users/me/tutorial_status`. */
const LAST_TUTORIAL_STATUS_LEVEL = 281;
const SECTION = 'api/changelog (feature levels 63, 230, 233, 282)';
const PATH = '/users/me/hotspots';
const TUTORIAL_PATH = '/users/me/tutorial_status';

const hotspotFields = { name: v.string({ nonEmpty: true }), title: v.string(), description: v.string(), delay: v.number() };

function hotspotsShape(featureLevel: number) {
  const hotspot =
    featureLevel >= HAS_TRIGGER_LEVEL ? v.object({ ...hotspotFields, has_trigger: v.bool() }) : v.object(hotspotFields, { forbidden: ['has_trigger'] });
  return v.object({ hotspots: v.array(hotspot) });
}

const namesIn = (ctx: RuleContext, value: JsonObject, what: string): string[] =>
  expectShape(value, hotspotsShape(ctx.featureLevel), what).hotspots.map((hotspot) => hotspot.name);

async function registeredNames(ctx: RuleContext, client: ApiClient): Promise<string[]> {
  return namesIn(ctx, await fetchState(client, ['hotspots']), 'POST /register hotspots');
}

const unknownHotspot: Rule = {
  id: 'hotspots/unknown-hotspot-refused',
  title: 'marking a hotspot no server has answers 400 BAD_REQUEST "Unknown hotspot: <name>" and leaves the hotspots shown unchanged',
  endpoint: 'POST /users/me/hotspots',
  section: SECTION,
  levels: { max: LAST_HOTSPOTS_LEVEL },
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const before = await registeredNames(ctx, client);
    const name = `no_such_hotspot_${ctx.runTag.replace(/\W/g, '_')}`;
    const reply = await client.post(PATH, { hotspot: name });
    const body = expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    expectEqual(body.msg, `Unknown hotspot: ${name}`, 'msg', reply);
    expectEqual(await registeredNames(ctx, client), before, 'POST /register hotspots after the refusal');
  },
};

const markSeen: Rule = {
  id: 'hotspots/mark-seen-event-and-register',
  title:
    'a new user is shown at most one hotspot; marking it is an empty success and a hotspots event shows the next one (not it), as POST /register then does; marking it again sends the same; tutorial_status "finished" hides every hotspot and "started" shows the next again',
  endpoint: 'POST /users/me/hotspots',
  section: SECTION,
  levels: { max: LAST_HOTSPOTS_LEVEL },
  writes: true,
  needs: ['throwaway-user'],
  async run(ctx) {
    const { client } = await ctx.throwawayUser();
    const stream = await openStream(ctx, client, ['hotspots'], {}, "the throwaway user's queue");
    const shown = namesIn(ctx, stream.state, 'POST /register hotspots');
    if (shown.length > 1) expectEqual(shown.length, 1, 'hotspots shown to a new user (the intro ones come one at a time)');
    const chosen = shown[0];
    if (chosen === undefined) return ctx.skip('the new user is shown no hotspot (tutorial disabled on this server)');
    let next: string[] = [];
    for (const attempt of ['first', 'repeated']) {
      expectPlainSuccess(await client.post(PATH, { hotspot: chosen }));
      const { event } = await stream.next((e) => e.type === 'hotspots', `hotspots event after the ${attempt} marking`);
      const names = namesIn(ctx, event, 'hotspots event');
      if (attempt === 'first') next = names;
      expectEqual(names.includes(chosen) || names.length > 1, false, `hotspots event after the ${attempt} marking shows at most one hotspot, not the marked one`);
      expectEqual(names, next, `hotspots event after the ${attempt} marking`);
    }
    expectEqual(await registeredNames(ctx, client), next, 'POST /register hotspots after marking');
    expectPlainSuccess(await client.post(TUTORIAL_PATH, { status: 'finished' }));
    expectEqual(await registeredNames(ctx, client), [], 'POST /register hotspots after tutorial_status "finished"');
    expectPlainSuccess(await client.post(TUTORIAL_PATH, { status: 'started' }));
    expectEqual(await registeredNames(ctx, client), next, 'POST /register hotspots after tutorial_status "started"');
  },
};

const tutorialStatusAccepted: Rule = {
  id: 'hotspots/tutorial-status-accepted',
  title: 'POST /users/me/tutorial_status with status "finished" is an empty success until level 281',
  endpoint: 'POST /users/me/tutorial_status',
  section: SECTION,
  levels: { min: LAST_HOTSPOTS_LEVEL + 1, max: LAST_TUTORIAL_STATUS_LEVEL },
  writes: true,
  needs: ['throwaway-user'],
  async run(ctx) {
    const { client } = await ctx.throwawayUser();
    expectPlainSuccess(await client.post(TUTORIAL_PATH, { status: 'finished' }));
  },
};

export const rules: readonly Rule[] = [unknownHotspot, markSeen, tutorialStatusAccepted];
