/**
 * Rendering left until a loaded message is first read (lib/state/history/lazy-rendering.ts), so
 * that loading a realm of a million messages renders the few that are read. A message's HTML
 * must be what rendering it when it was loaded would have given, so the realm data a rendering
 * reads is pinned as it was then: linkifiers, realm URL, image previews, channels, user groups
 * and custom emoji. Users are not pinned (a large realm has 100,000): content that could mention
 * someone (an `@`) is rendered at once, as are its mention flags; nothing else reaches a user.
 * test/deferred-rendering.test.ts compares the two renderings.
 */
import type { ChannelTarget, CustomEmojiTarget, GroupTarget, MarkdownContext } from './markdown/context.js';
import type { DeferredRendering } from '../state/history/lazy-rendering.js';
import type { World } from '../state/world.js';
import { markdownContext } from './render.js';
import { renderMarkdown } from './markdown/setup.js';

/** The longest content left for later (longer messages are rare and rendered at once). */
const MAX_DEFERRED_LENGTH = 2000;

/** The start of a topic or message link, `#**channel>` (linear: one character class). */
const TOPIC_LINK_START = /#\*\*[^*>]*>/;

/**
 * Whether `source` can be rendered later as it would be now: no `@`, so it mentions nobody, and no
 * `#**channel>`, so it links no topic (whose `/with/` operand depends on the messages sent before it).
 */
export const canRenderLater = (source: string): boolean => source.length <= MAX_DEFERRED_LENGTH && !source.includes('@') && !TOPIC_LINK_START.test(source);

/** The first of `items` under each name (as the live lookups, which walk the same order, find). */
function firstByName<T, K>(items: Iterable<T>, key: (item: T) => K | undefined, target: (item: T) => unknown): Map<K, unknown> {
  const byName = new Map<K, unknown>();
  for (const item of items) {
    const name = key(item);
    if (name !== undefined && !byName.has(name)) byName.set(name, target(item));
  }
  return byName;
}

/** The realm's rendering context as it is now, kept so (the user lookup stays live; see above). */
function pinnedContext(world: World): MarkdownContext {
  const now = markdownContext(world);
  const streams = firstByName(world.streams.values(), (s) => (s.isArchived ? undefined : s.name.toLowerCase()), (s): ChannelTarget => ({ id: s.id, name: s.name }));
  const groups = firstByName(world.groups.values(), (g) => (g.isSystemGroup ? undefined : g.name), (g): GroupTarget => ({ id: g.id, name: g.name, deactivated: g.deactivated }));
  const emoji = firstByName(world.realmEmoji.values(), (e) => (e.deactivated ? undefined : e.name), (e): CustomEmojiTarget => ({ sourceUrl: `/user_avatars/${world.realm.id}/emoji/images/${e.id}.png` }));
  return {
    ...now,
    findStream: (name) => streams.get(name.toLowerCase()) as ChannelTarget | undefined,
    findGroup: (name) => groups.get(name) as GroupTarget | undefined,
    findCustomEmoji: (name) => emoji.get(name) as CustomEmojiTarget | undefined,
    linkifiers: (now.linkifiers ?? []).map((rule) => ({ pattern: rule.pattern, urlTemplate: rule.urlTemplate })),
  };
}

/**
 * Renders content later as the realm would render it now: `plain` for plain text
 * (lib/rendering/plain-text.ts), whose source has its HTML's words, and `markup` for the rest,
 * whose words search reads from its HTML (rendering it then).
 */
export function deferredRendering(world: World): { readonly plain: DeferredRendering; readonly markup: DeferredRendering } {
  const context = pinnedContext(world);
  const render = (content: string) => renderMarkdown(content, context);
  return { plain: { render, wordsInSource: true }, markup: { render, wordsInSource: false } };
}
