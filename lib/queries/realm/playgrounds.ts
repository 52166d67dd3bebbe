/** Code playgrounds in their API shape (register's `realm_playgrounds` and its event). */
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

/** By ID; the template field is `url_template` from FL 196, `url_prefix` before. */
export function playgroundsState(world: World): Record<string, unknown>[] {
  const templateKey = world.has(FEATURES.PLAYGROUND_URL_TEMPLATE) ? 'url_template' : 'url_prefix';
  return [...world.realmPlaygrounds.values()]
    .sort((a, b) => a.id - b.id)
    .map((p) => ({ id: p.id, name: p.name, pygments_language: p.pygmentsLanguage, [templateKey]: p.urlTemplate }));
}
