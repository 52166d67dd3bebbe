/**
 * Marking an onboarding step as seen (`POST /users/me/onboarding_steps`, level 233), as the real
 * server's `do_mark_onboarding_step_as_read`: marking is idempotent and cannot be undone, and
 * every marking (a repeated one too) sends the user's own queues an `onboarding_steps` event with
 * the steps still to see. User creation records the steps new accounts start with.
 */
import { badRequest } from '../../errors.js';
import type { User } from '../../entities/user.js';
import { isKnownOnboardingStep, nextOnboardingSteps, SEEN_ON_CREATION } from '../../queries/personal/onboarding-steps.js';
import type { World } from '../../state/world.js';

export function markOnboardingStepSeen(world: World, user: User, name: string): void {
  if (!isKnownOnboardingStep(world, name)) throw badRequest(`Unknown onboarding_step: ${name}`);
  recordSeen(world, user.id, name);
  world.events.send({ type: 'onboarding_steps', onboarding_steps: nextOnboardingSteps(world, user) }, [user.id]);
}

/**
 * What `do_create_user` records for every new account: its first notice counts as seen, and its
 * old web tutorial waits to start (the model's default; only bulk creation records it finished).
 */
export function markCreationSteps(world: World, userId: number): void {
  recordSeen(world, userId, SEEN_ON_CREATION);
  world.tutorialStatus.set(userId, 'waiting');
}

/** Records `name` as seen by the user once; hotspots share this store, as their table became it. */
export function recordSeen(world: World, userId: number, name: string): void {
  const seen = world.onboardingSteps.get(userId) ?? [];
  if (!seen.includes(name)) world.onboardingSteps.set(userId, [...seen, name]);
}
