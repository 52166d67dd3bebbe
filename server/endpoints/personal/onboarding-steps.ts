/** Onboarding steps: `POST /users/me/onboarding_steps` (level 233; human users only, as the real server). */
import { markOnboardingStepSeen } from '../../../lib/actions/personal/onboarding-steps.js';
import { notForBots } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';

const markSeen = authed({
  since: FEATURES.ONBOARDING_STEPS,
  gate: ({ user }) => {
    if (user.isBot) throw notForBots();
  },
  params: { onboarding_step: str().required() },
  run({ world, user }, args) {
    markOnboardingStepSeen(world, user, args.onboarding_step);
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/users/me/onboarding_steps', methods: { POST: markSeen } }];
