/** Reading linkifiers and their API shapes at the emulated feature level (sections 2.6, 4.19). */
import type { Linkifier } from '../../entities/realm-records.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

/** The API form: `{pattern, url_template, id}`; before FL 176 `{pattern, url_format, id}`. */
export type ApiLinkifier =
  | { readonly pattern: string; readonly url_template: string; readonly id: number }
  | { readonly pattern: string; readonly url_format: string; readonly id: number };

/** The realm's linkifiers in processing order: by `order`, ties by ID (behaviour reference §7.1). */
export function orderedLinkifiers(world: World): Linkifier[] {
  return [...world.linkifiers.values()].sort((a, b) => a.order - b.order || a.id - b.id);
}

/** `{name}` to `%(name)s`: how a template created as a legacy format string reads back. */
export function templateToFormat(template: string): string {
  return template.replace(/\{([^{}+#./;?&,=!@|*:]+)\}/g, '%($1)s');
}


export function toApiLinkifier(world: World, linkifier: Linkifier): ApiLinkifier {
  if (world.has(FEATURES.LINKIFIER_URL_TEMPLATE)) {
    return { pattern: linkifier.pattern, url_template: linkifier.urlTemplate, id: linkifier.id };
  }
  return { pattern: linkifier.pattern, url_format: templateToFormat(linkifier.urlTemplate), id: linkifier.id };
}

/**
 * `realm_linkifiers` as `GET /realm/linkifiers`, the register response and the events carry it:
 * the complete ordered list in the emulated level's shape.
 */
export function linkifiersState(world: World): ApiLinkifier[] {
  return orderedLinkifiers(world).map((linkifier) => toApiLinkifier(world, linkifier));
}

/**
 * The legacy `realm_filters` tuples `[pattern, url_format, id]`. Since FL 176 the register field
 * is always `[]`; before, it listed every linkifier.
 */
export function realmFiltersState(world: World): Array<[string, string, number]> {
  if (world.has(FEATURES.LINKIFIER_URL_TEMPLATE)) return [];
  return orderedLinkifiers(world).map((l) => [l.pattern, templateToFormat(l.urlTemplate), l.id]);
}
