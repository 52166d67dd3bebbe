/**
 * Adding, editing and removing a user's navigation views (sections 2.8, 4.13; behaviour
 * reference §6). Views are per user; each change sends a `navigation_view` event to that user.
 * Fragments are data: any text (`__proto__`, very long, unicode) is stored and compared as is.
 */
import { ApiError, badRequest, resourceNotFound } from '../../errors.js';
import type { NavigationView } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import { findView, isBuiltInFragment, toApiNavigationView, viewsOf } from '../../queries/personal/navigation-views.js';
import type { World } from '../../state/world.js';

const builtInName = () => badRequest('Built-in views cannot have a custom name.');
const alreadyExists = () => badRequest('Navigation view already exists.');
const DOES_NOT_EXIST = 'Navigation view does not exist.';

export interface NewNavigationView {
  readonly fragment: string;
  readonly isPinned: boolean;
  readonly name?: string | undefined;
}

/** Checks in the real server's order: built-in naming, custom naming, fragment taken, name taken. */
export function addNavigationView(world: World, user: User, input: NewNavigationView): void {
  const builtIn = isBuiltInFragment(input.fragment);
  if (builtIn && input.name !== undefined) throw builtInName();
  if (!builtIn && input.name === undefined) throw badRequest('Custom views must have a valid name.');
  const views = viewsOf(world, user.id);
  if (views.some((view) => view.fragment === input.fragment)) throw alreadyExists();
  if (input.name !== undefined && views.some((view) => view.name === input.name)) throw alreadyExists();
  const view: NavigationView = { fragment: input.fragment, isPinned: input.isPinned, name: input.name ?? null };
  world.navigationViews.set(user.id, [...views, view]);
  world.events.send({ type: 'navigation_view', op: 'add', navigation_view: toApiNavigationView(view) }, [user.id]);
}

export interface NavigationViewChanges {
  readonly isPinned?: boolean | undefined;
  readonly name?: string | undefined;
}

/**
 * Edits a view. The duplicate-name check runs before the existence check and counts the view
 * being edited, so renaming a view to its own name fails (the real server's quirks, §6.3).
 * An unknown fragment answers HTTP 404 with code NOT_FOUND, as the description (4.13) says; the
 * real server sends code BAD_REQUEST with the same status and text.
 */
export function updateNavigationView(world: World, user: User, fragment: string, changes: NavigationViewChanges): void {
  if (isBuiltInFragment(fragment) && changes.name !== undefined) throw builtInName();
  const views = viewsOf(world, user.id);
  if (changes.name !== undefined && views.some((view) => view.name === changes.name)) throw alreadyExists();
  const view = findView(world, user.id, fragment);
  if (!view) throw new ApiError('NOT_FOUND', 404, DOES_NOT_EXIST);
  const data: Array<[string, boolean | string]> = [];
  if (changes.isPinned !== undefined) {
    view.isPinned = changes.isPinned;
    data.push(['is_pinned', changes.isPinned]);
  }
  if (changes.name !== undefined) {
    view.name = changes.name;
    data.push(['name', changes.name]);
  }
  world.events.send({ type: 'navigation_view', op: 'update', fragment, data: Object.fromEntries(data) }, [user.id]);
}

/** Removes a view; an unknown fragment is 404 with code BAD_REQUEST, as the real server answers. */
export function removeNavigationView(world: World, user: User, fragment: string): void {
  const views = viewsOf(world, user.id);
  if (!views.some((view) => view.fragment === fragment)) throw resourceNotFound(DOES_NOT_EXIST);
  world.navigationViews.set(
    user.id,
    views.filter((view) => view.fragment !== fragment),
  );
  world.events.send({ type: 'navigation_view', op: 'remove', fragment }, [user.id]);
}
