/**
 * The old web tutorial's hotspots (zerver/lib/hotspots.py), served below level 233, where
 * onboarding steps replaced them: a user whose tutorial is not finished is shown the first intro
 * hotspot not yet seen, one at a time, in the tutorial's order; a finished tutorial (every fixture
 * user's, as the real server's bulk user creation records) shows none. Seen hotspots live in the
 * onboarding-steps store, as the real server's `UserHotspot` table became its `OnboardingStep` one.
 *
 * The real `get_next_hotspots` also writes "finished" once every intro hotspot is seen; here that
 * is derived instead, which answers the same and keeps this query free of writes.
 */
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { TutorialStatus, World } from '../../state/world.js';

interface HotspotText {
  readonly name: string;
  readonly title: string;
  readonly description: string;
}

/**
 * The intro hotspots as the last releases before level 233 worded them, in the order they are
 * shown. Clients display these texts, so they are the real server's own: data vendored from
 * zerver/lib/hotspots.py of the Zulip server, copyright Kandra Labs, Inc. and contributors,
 * licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
 */
const INTRO_HOTSPOTS: readonly HotspotText[] = [
  {
    name: 'intro_streams',
    title: 'Catch up on a stream',
    description: 'Messages sent to a stream are seen by everyone subscribed to that stream. Try clicking on one of the stream links below.',
  },
  {
    name: 'intro_topics',
    title: 'Topics',
    description: 'Every message has a topic. Topics keep conversations easy to follow, and make it easy to reply to conversations that start while you are offline.',
  },
  { name: 'intro_gear', title: 'Settings', description: 'Go to Settings to configure your notifications and preferences.' },
  { name: 'intro_compose', title: 'Compose', description: 'Click here to start a new conversation. Pick a topic (2-3 words is best), and give it a go!' },
];

export const INTRO_HOTSPOT_NAMES: readonly string[] = INTRO_HOTSPOTS.map((hotspot) => hotspot.name);

/** Seconds the web app waits before showing an intro hotspot. */
const INTRO_DELAY_SECONDS = 0.5;

/** Users without a recorded status were created in bulk (the fixture), which records a finished tutorial. */
export function tutorialStatusOf(world: World, userId: number): TutorialStatus {
  return world.tutorialStatus.get(userId) ?? 'finished';
}

/** Whether `POST /users/me/hotspots` accepts `name` (the real `ALL_HOTSPOTS`: the intro ones only). */
export function isKnownHotspot(name: string): boolean {
  return INTRO_HOTSPOT_NAMES.includes(name);
}

/** The hotspots `user` is shown next (`get_next_hotspots`): at most one, the first intro hotspot not seen. */
export function nextHotspots(world: World, user: User): Array<Record<string, unknown>> {
  if (tutorialStatusOf(world, user.id) === 'finished') return [];
  const seen = world.onboardingSteps.get(user.id) ?? [];
  const next = INTRO_HOTSPOTS.find((hotspot) => !seen.includes(hotspot.name));
  if (next === undefined) return [];
  const shown: Record<string, unknown> = { name: next.name, title: next.title, description: next.description, delay: INTRO_DELAY_SECONDS };
  if (world.has(FEATURES.HOTSPOT_HAS_TRIGGER)) shown.has_trigger = false;
  return [shown];
}

/** The `hotspots` register field, below level 233 only. */
export function hotspotsState(world: World, user: User): Record<string, unknown> {
  return world.has(FEATURES.ONBOARDING_STEPS) ? {} : { hotspots: nextHotspots(world, user) };
}
