/**
 * Message rendering against the world: mentions, channel links and custom emoji resolved from
 * the realm's users, groups, channels and emoji, and the realm's linkifiers in their order.
 */
import type { MarkdownContext } from './markdown/context.js';
import { renderMarkdown } from './markdown/setup.js';
import { boolSetting, type User } from '../entities/user.js';
import { realmProperty } from '../settings/realm-properties.js';
import type { World } from '../state/world.js';
import { publicHistoryOnly, type ReadableTopic, topicLinkMessageId } from './topic-with.js';

/** Who the content is rendered for: the sender's `translate_emoticons` applies. */
export interface RenderOptions {
  readonly sender?: User;
  /** What the acting user (the real server's `acting_user`) reads of a topic a link names. */
  readonly readableTopic?: ReadableTopic;
}

/** The realm data the renderer reads, looked up lazily from `world`. */
export function markdownContext(world: World, options: RenderOptions = {}): MarkdownContext {
  return {
    translateEmoticons: options.sender !== undefined && boolSetting(options.sender, 'translate_emoticons'),
    inlineImagePreview: realmProperty(world, 'inline_image_preview') !== false,
    // null (never set, before level 195) means no default, as "" does.
    defaultCodeBlockLanguage: String(realmProperty(world, 'default_code_block_language') ?? ''),
    findUser(name, id) {
      const visible = (user: { isSystemBot: boolean } | undefined) => user !== undefined && !user.isSystemBot;
      if (id !== undefined) {
        const user = world.users.get(id);
        return user && visible(user) ? { id: user.id, fullName: user.fullName, isActive: user.isActive } : undefined;
      }
      const lower = name.toLowerCase();
      let found: { id: number; fullName: string; isActive: boolean } | undefined;
      for (const user of world.users.values()) {
        // Lower-casing keeps a name's length except that U+0130 becomes two code units, so a name
        // of another length without one cannot match: skipped without lower-casing it (a large
        // realm has 100,000 names to go through).
        if (user.fullName.length !== lower.length && !user.fullName.includes('\u0130')) continue;
        if (!visible(user) || user.fullName.toLowerCase() !== lower) continue;
        // An active user wins over a deactivated namesake.
        if (!found || (!found.isActive && user.isActive)) found = { id: user.id, fullName: user.fullName, isActive: user.isActive };
      }
      return found;
    },
    findGroup(name) {
      for (const group of world.groups.values()) {
        if (!group.isSystemGroup && group.name === name) return { id: group.id, name: group.name, deactivated: group.deactivated };
      }
      return undefined;
    },
    findStream(name) {
      const stream = world.streamByName(name);
      return stream && !stream.isArchived ? { id: stream.id, name: stream.name } : undefined;
    },
    findCustomEmoji(name) {
      for (const emoji of world.realmEmoji.values()) {
        if (!emoji.deactivated && emoji.name === name) return { sourceUrl: `/user_avatars/${world.realm.id}/emoji/images/${emoji.id}.png` };
      }
      return undefined;
    },
    topicLinkMessageId: (streamId, topic) => topicLinkMessageId(world, options.readableTopic ?? publicHistoryOnly, streamId, topic),
    linkifiers: [...world.linkifiers.values()].sort((a, b) => a.order - b.order || a.id - b.id),
    realmUrl: world.realm.url ?? undefined,
  };
}

/** Renders message Markdown as the real server does for this realm (and sender). */
export function render(world: World, source: string, options: RenderOptions = {}): string {
  return renderMarkdown(source, markdownContext(world, options));
}
