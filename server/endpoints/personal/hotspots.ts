/**
 * The old web tutorial: `POST /users/me/hotspots` (below level 233, replaced by onboarding steps)
 * and `POST /users/me/tutorial_status` (removed at level 282). Both refuse bots, as the real
 * server's `human_users_only` views; both take plain strings at every level (level 63).
 */
import { markHotspotSeen, setTutorialStatus } from '../../../lib/actions/personal/hotspots.js';
import { notForBots } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';

const humansOnly = ({ user }: { user: { isBot: boolean } }): void => {
  if (user.isBot) throw notForBots();
};

const markHotspot = authed({
  until: FEATURES.ONBOARDING_STEPS,
  gate: humansOnly,
  params: { hotspot: str().required() },
  run({ world, user }, args) {
    markHotspotSeen(world, user, args.hotspot);
    return {};
  },
});

const tutorialStatus = authed({
  until: FEATURES.TUTORIAL_STATUS_REMOVED,
  gate: humansOnly,
  params: { status: str().required() },
  run({ world, user }, args) {
    setTutorialStatus(world, user, args.status);
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/users/me/hotspots', methods: { POST: markHotspot } },
  { path: '/users/me/tutorial_status', methods: { POST: tutorialStatus } },
];
