/**
 * Onboarding steps (`POST /users/me/onboarding_steps`, level 233; the real server's
 * onboarding_steps view): an unknown step is refused by name; marking a step is an empty success
 * that sends the user an `onboarding_steps` event with the steps still to see, which a fresh
 * `POST /register` agrees with; marking it again succeeds and changes nothing. Marking cannot be
 * undone, so only a throwaway user the run created marks a real step. The catalogue grows between
 * releases and a server may disable the tutorial: no rule asserts which steps exist.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { expectEqual, expectError, expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { openStream } from '../support/event-stream.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { fetchState } from '../support/channel-fixtures.js';
import type { Rule } from '../types.js';

const ONBOARDING_STEPS_LEVEL = 233;
/** Level 369: register reports the navigation tour video URL (null when the server has none). */
const TOUR_VIDEO_LEVEL = 369;
const SECTION = 'api/register-queue#onboarding_steps; api/get-events#onboarding_steps';
const PATH = '/users/me/onboarding_steps';

const stepsShape = v.object({ onboarding_steps: v.array(v.object({ type: v.string({ nonEmpty: true }), name: v.string({ nonEmpty: true }) })) });

const namesIn = (value: JsonObject, what: string): string[] => expectShape(value, stepsShape, what).onboarding_steps.map((step) => step.name);

async function registeredNames(client: ApiClient): Promise<string[]> {
  return namesIn(await fetchState(client, ['onboarding_steps']), 'POST /register onboarding_steps');
}

const unknownStep: Rule = {
  id: 'onboarding-steps/unknown-step-refused',
  title: 'marking a step no server has answers 400 BAD_REQUEST "Unknown onboarding_step: <name>" and leaves the steps to see unchanged',
  endpoint: 'POST /users/me/onboarding_steps',
  section: SECTION,
  levels: { min: ONBOARDING_STEPS_LEVEL },
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const before = await registeredNames(client);
    const name = `no_such_step_${ctx.runTag.replace(/\W/g, '_')}`;
    const reply = await client.post(PATH, { onboarding_step: name });
    const body = expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    expectEqual(body.msg, `Unknown onboarding_step: ${name}`, 'msg', reply);
    expectEqual(await registeredNames(client), before, 'POST /register onboarding_steps after the refusal');
  },
};

const markSeen: Rule = {
  id: 'onboarding-steps/mark-seen-event-and-register',
  title: 'marking a listed step is an empty success; an onboarding_steps event lists the other steps in order, POST /register agrees, and marking it again succeeds with the same list; navigation_tour_video_url is a string or null from level 369 and absent before',
  endpoint: 'POST /users/me/onboarding_steps',
  section: SECTION,
  levels: { min: ONBOARDING_STEPS_LEVEL },
  writes: true,
  needs: ['throwaway-user'],
  async run(ctx) {
    const { client } = await ctx.throwawayUser();
    const stream = await openStream(ctx, client, ['onboarding_steps'], {}, "the throwaway user's queue");
    const steps = namesIn(stream.state, 'POST /register onboarding_steps');
    if (ctx.featureLevel >= TOUR_VIDEO_LEVEL) expectShape(stream.state.navigation_tour_video_url, v.nullable(v.string()), 'navigation_tour_video_url');
    else expectEqual('navigation_tour_video_url' in stream.state, false, `navigation_tour_video_url in POST /register below level ${TOUR_VIDEO_LEVEL}`);
    const chosen = steps.at(-1);
    if (chosen === undefined) return ctx.skip('the new user has no onboarding step to see (tutorial disabled on this server)');
    const rest = steps.slice(0, -1);
    for (const attempt of ['first', 'repeated']) {
      expectPlainSuccess(await client.post(PATH, { onboarding_step: chosen }));
      const { event } = await stream.next((e) => e.type === 'onboarding_steps', `onboarding_steps event after the ${attempt} marking`);
      expectEqual(namesIn(event, 'onboarding_steps event'), rest, `onboarding_steps event after the ${attempt} marking`);
    }
    expectEqual(await registeredNames(client), rest, 'POST /register onboarding_steps after marking');
  },
};

export const rules: readonly Rule[] = [unknownStep, markSeen];
