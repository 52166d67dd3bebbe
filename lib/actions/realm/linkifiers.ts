/**
 * Adding, changing, reordering and removing linkifiers (sections 2.6, 4.16; behaviour reference
 * §7). Every change sends the complete ordered list to every active user of the realm.
 */
import { realmAudience } from '../../queries/users/access.js';
import { badRequest } from '../../errors.js';
import type { Linkifier } from '../../entities/realm-records.js';
import { FEATURES } from '../../features/feature-levels.js';
import { linkifierError } from '../../patterns/linkifier-validation.js';
import { linkifiersState, realmFiltersState } from '../../queries/realm/linkifiers.js';
import { formatToTemplate } from '../../patterns/format-strings.js';
import type { World } from '../../state/world.js';

/** What the client sent, already stripped; `target` is a template, or a format string before FL 176. */
export interface LinkifierInput {
  readonly pattern: string;
  readonly target: string;
}

const notFound = () => badRequest('Linkifier not found.');

/**
 * Sends the state after a change: `realm_linkifiers` (FL 54+) with the complete ordered list,
 * and, before FL 176, the legacy `realm_filters` tuples as well (the only event before FL 54).
 */
export function notifyLinkifiers(world: World): void {
  const recipients = realmAudience(world);
  if (world.has(FEATURES.LINKIFIERS_ENDPOINT)) {
    world.events.send({ type: 'realm_linkifiers', realm_linkifiers: linkifiersState(world) }, recipients);
  }
  if (!world.has(FEATURES.LINKIFIER_URL_TEMPLATE)) {
    world.events.send({ type: 'realm_filters', realm_filters: realmFiltersState(world) }, recipients);
  }
}

function validate(world: World, input: LinkifierInput, editedId?: number): string {
  const legacyFormat = !world.has(FEATURES.LINKIFIER_URL_TEMPLATE);
  const others = [...world.linkifiers.values()].filter((l) => l.id !== editedId);
  const error = linkifierError({ pattern: input.pattern, target: input.target, legacyFormat }, others);
  if (error) throw error;
  return legacyFormat ? formatToTemplate(input.target) : input.target;
}

/**
 * Adds a linkifier after the existing ones and returns its ID. The new order value is the
 * largest one plus one (the real server takes the maximum over every realm; with one realm
 * here the effect is the same: new ones go last).
 */
export function addLinkifier(world: World, input: LinkifierInput): number {
  const urlTemplate = validate(world, input);
  let order = -1;
  for (const linkifier of world.linkifiers.values()) order = Math.max(order, linkifier.order);
  const id = world.ids.next('linkifier');
  world.linkifiers.set(id, { id, pattern: input.pattern, urlTemplate, order: order + 1 });
  notifyLinkifiers(world);
  return id;
}

/** Replaces both fields of a linkifier; its position does not change. */
export function updateLinkifier(world: World, id: number, input: LinkifierInput): void {
  const linkifier = world.linkifiers.get(id);
  if (!linkifier) throw notFound();
  const urlTemplate = validate(world, input, id);
  linkifier.pattern = input.pattern;
  linkifier.urlTemplate = urlTemplate;
  notifyLinkifiers(world);
}

export function removeLinkifier(world: World, id: number): void {
  if (!world.linkifiers.has(id)) throw notFound();
  world.linkifiers.delete(id);
  notifyLinkifiers(world);
}

/**
 * Sets the processing order to `orderedIds` (FL 202). Repeated IDs are refused first, then any
 * list that is not exactly the realm's set. An empty realm with `[]` succeeds with no event.
 */
export function reorderLinkifiers(world: World, orderedIds: readonly number[]): void {
  const wanted = new Set(orderedIds);
  if (wanted.size !== orderedIds.length) throw badRequest('The ordered list must not contain duplicated linkifiers');
  if (wanted.size !== world.linkifiers.size || orderedIds.some((id) => !world.linkifiers.has(id))) {
    throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
  }
  if (orderedIds.length === 0) return;
  orderedIds.forEach((id, index) => {
    (world.linkifiers.get(id) as Linkifier).order = index;
  });
  notifyLinkifiers(world);
}
