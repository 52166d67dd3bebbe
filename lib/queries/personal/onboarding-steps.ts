/**
 * Onboarding steps (zerver/lib/onboarding_steps.py): the one-time notices and one-time actions
 * the web app shows once per user, and which of them a user has still to see.
 *
 * The catalogue is the real server's around feature level 415; it grows between releases, which is
 * why the conformance suite never asserts its exact contents. The intro hotspots of the old
 * tutorial stayed markable until level 259 but were never listed from level 233 on.
 */
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { INTRO_HOTSPOT_NAMES } from './hotspots.js';

export interface OnboardingStep {
  readonly type: 'one_time_notice' | 'one_time_action';
  readonly name: string;
}

/** Shown only when the server has a navigation tour video to play. */
export const NAVIGATION_TOUR_VIDEO = 'navigation_tour_video';

/** Marked as seen when a user is created, so new users never see it. */
export const SEEN_ON_CREATION = 'visibility_policy_banner';

const notice = (name: string): OnboardingStep => ({ type: 'one_time_notice', name });

export const ONBOARDING_STEPS: readonly OnboardingStep[] = [
  notice(SEEN_ON_CREATION),
  notice('intro_inbox_view_modal'),
  notice('intro_recent_view_modal'),
  notice('first_stream_created_banner'),
  notice('jump_to_conversation_banner'),
  notice('non_interleaved_view_messages_fading'),
  notice('interleaved_view_messages_fading'),
  notice('intro_resolve_topic'),
  notice(NAVIGATION_TOUR_VIDEO),
  { type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' },
];


/** Whether `POST /users/me/onboarding_steps` accepts `name` at the world's level. */
export function isKnownOnboardingStep(world: World, name: string): boolean {
  if (ONBOARDING_STEPS.some((step) => step.name === name)) return true;
  return !world.has(FEATURES.ONBOARDING_NOTICES_ONLY) && INTRO_HOTSPOT_NAMES.includes(name);
}

/** The steps `user` has still to see, in catalogue order (`get_next_onboarding_steps`). */
export function nextOnboardingSteps(world: World, user: User): OnboardingStep[] {
  const seen = new Set(world.onboardingSteps.get(user.id) ?? []);
  if (world.navigationTourVideoUrl === null) seen.add(NAVIGATION_TOUR_VIDEO);
  return ONBOARDING_STEPS.filter((step) => !seen.has(step.name)).map((step) => ({ ...step }));
}

/** The `onboarding_steps` register fields (level 233), with the video URL from level 369. */
export function onboardingStepsState(world: World, user: User): Record<string, unknown> {
  if (!world.has(FEATURES.ONBOARDING_STEPS)) return {};
  const state: Record<string, unknown> = { onboarding_steps: nextOnboardingSteps(world, user) };
  if (world.has(FEATURES.NAVIGATION_TOUR_VIDEO_URL)) state.navigation_tour_video_url = world.navigationTourVideoUrl;
  return state;
}
