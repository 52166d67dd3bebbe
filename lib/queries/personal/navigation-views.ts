/** Reading a user's navigation views (section 2.8; behaviour reference §6). */
import type { NavigationView } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

/** The built-in views (exact list); any other fragment, `narrow/is/alerted` included, is custom. */
export const BUILT_IN_FRAGMENTS: ReadonlySet<string> = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
]);

export const isBuiltInFragment = (fragment: string): boolean => BUILT_IN_FRAGMENTS.has(fragment);

export interface ApiNavigationView {
  readonly fragment: string;
  readonly is_pinned: boolean;
  readonly name: string | null;
}

export const toApiNavigationView = (view: NavigationView): ApiNavigationView => ({
  fragment: view.fragment,
  is_pinned: view.isPinned,
  name: view.name,
});

/** The user's own views in creation order (another user's views are invisible). */
export function viewsOf(world: World, userId: number): readonly NavigationView[] {
  return world.navigationViews.get(userId) ?? [];
}

export function findView(world: World, userId: number, fragment: string): NavigationView | undefined {
  return viewsOf(world, userId).find((view) => view.fragment === fragment);
}

/** `navigation_views` as `GET /navigation_views` and the register response carry it. */
export function navigationViewsState(world: World, user: User): ApiNavigationView[] {
  return viewsOf(world, user.id).map(toApiNavigationView);
}
