/** Markdown rendering with mentions resolved against the world's users and channels. */
import { type MarkdownContext, renderMarkdown } from './markdown.js';
import type { World } from './world.js';

export function markdownContext(world: World): MarkdownContext {
  return {
    findUser(name, id) {
      if (id !== undefined) {
        const user = world.users.get(id);
        return user && user.isActive && !user.isSystemBot ? { id: user.id, fullName: user.fullName } : undefined;
      }
      const lower = name.toLowerCase();
      for (const user of world.users.values()) {
        if (user.isActive && !user.isSystemBot && user.fullName.toLowerCase() === lower) return { id: user.id, fullName: user.fullName };
      }
      return undefined;
    },
    findStream(name) {
      const stream = world.streamByName(name);
      return stream && !stream.isArchived ? { id: stream.id, name: stream.name } : undefined;
    },
  };
}

export function render(world: World, source: string): string {
  return renderMarkdown(source, markdownContext(world));
}
