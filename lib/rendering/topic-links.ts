/**
 * `topic_links`: links found in a topic name, from the realm's linkifiers and from bare URLs
 * (the real server's `topic_links`). Each is `{text, url}`, in order of appearance.
 */
import { findMatches } from '../patterns/linkifier-patterns.js';
import type { World } from '../state/world.js';

export interface TopicLink {
  readonly text: string;
  readonly url: string;
}

/** Expands `{name}` placeholders of a URL template (RFC 6570 level 1: values percent-encoded). */
function expand(template: string, groups: ReadonlyMap<string, string>): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => encodeURIComponent(groups.get(name) ?? ''));
}

export function topicLinks(world: World, topic: string): TopicLink[] {
  if (topic === '') return [];
  const found: Array<TopicLink & { readonly at: number }> = [];
  const linkifiers = [...world.linkifiers.values()].sort((a, b) => a.order - b.order || a.id - b.id);
  for (const linkifier of linkifiers) {
    for (const match of findMatches(linkifier.pattern, topic)) {
      found.push({ at: match.index, text: match.text, url: expand(linkifier.urlTemplate, match.groups) });
    }
  }
  for (const match of topic.matchAll(/https?:\/\/[^\s<>"]+[^\s<>".,;:!?)]/g)) {
    found.push({ at: match.index, text: match[0], url: match[0] });
  }
  found.sort((a, b) => a.at - b.at);
  return found.map(({ text, url }) => ({ text, url }));
}
