/**
 * Marking a hotspot of the old web tutorial as seen (`POST /users/me/hotspots`, below level 233),
 * as the real server's `do_mark_hotspot_as_read`: marking is idempotent and cannot be undone, and
 * every marking (a repeated one too) sends the user's own queues a `hotspots` event with the
 * hotspots to show next. Seen hotspots are recorded with the onboarding steps.
 */
import { badRequest } from '../../errors.js';
import type { User } from '../../entities/user.js';
import { isKnownHotspot, nextHotspots } from '../../queries/personal/hotspots.js';
import type { TutorialStatus, World } from '../../state/world.js';
import { recordSeen } from './onboarding-steps.js';

export function markHotspotSeen(world: World, user: User, name: string): void {
  if (!isKnownHotspot(name)) throw badRequest(`Unknown hotspot: ${name}`);
  recordSeen(world, user.id, name);
  world.events.send({ type: 'hotspots', hotspots: nextHotspots(world, user) }, [user.id]);
}

/** The values `POST /users/me/tutorial_status` understands; the real view ignores any other silently. */
const STATUS_VALUES: ReadonlyMap<string, TutorialStatus> = new Map<string, TutorialStatus>([
  ['started', 'started'],
  ['finished', 'finished'],
]);

/** `set_tutorial_status`: records a known status; any other value is an empty success changing nothing. No event. */
export function setTutorialStatus(world: World, user: User, status: string): void {
  const recorded = STATUS_VALUES.get(status);
  if (recorded !== undefined) world.tutorialStatus.set(user.id, recorded);
}
