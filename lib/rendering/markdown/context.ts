/**
 * What the renderer needs to know about the realm, passed per rendering (markdown-it's `env`),
 * so one configured parser serves every realm and every message.
 */

export interface MentionTarget {
  readonly id: number;
  readonly fullName: string;
  /** Mentions of deactivated users render, but silently (they notify nobody). */
  readonly isActive: boolean;
}

export interface GroupTarget {
  readonly id: number;
  readonly name: string;
  /** Mentions of deactivated groups render silently. */
  readonly deactivated: boolean;
}

export interface ChannelTarget {
  readonly id: number;
  readonly name: string;
}

/** A custom emoji's image; `zulip` and Unicode emoji are resolved by the renderer itself. */
export interface CustomEmojiTarget {
  readonly sourceUrl: string;
}

/** One linkifier, in the realm's processing order. */
export interface LinkifierRule {
  readonly pattern: string;
  readonly urlTemplate: string;
}

export interface MarkdownContext {
  /** Resolves `@**Name**` (`id` undefined; case-insensitive) or `@**Name|id**` / `@**|id**`. */
  readonly findUser?: (name: string, id: number | undefined) => MentionTarget | undefined;
  /** Resolves `@*group*` by exact name. */
  readonly findGroup?: (name: string) => GroupTarget | undefined;
  /** Resolves `#**channel**` by exact name. */
  readonly findStream?: (name: string) => ChannelTarget | undefined;
  /** The message a topic link's `/with/` operand names, or undefined for a link without one. */
  readonly topicLinkMessageId?: (streamId: number, topic: string) => number | undefined;
  /** Resolves `:name:` to an active custom emoji. */
  readonly findCustomEmoji?: (name: string) => CustomEmojiTarget | undefined;
  /** The realm's linkifiers, applied in this order. */
  readonly linkifiers?: readonly LinkifierRule[];
  /** The realm's URL (no trailing slash): links to its `#narrow` views become relative. */
  readonly realmUrl?: string;
  /** The realm's default code block language, used for fences without one ('' for none). */
  readonly defaultCodeBlockLanguage?: string;
  /** The sender's `translate_emoticons`: `:)` and the other emoticons become emoji. */
  readonly translateEmoticons?: boolean;
  /** The realm's `inline_image_preview`: links to images get a `message_inline_image` preview. */
  readonly inlineImagePreview?: boolean;
}

/** The per-rendering environment markdown-it hands to every rule. */
export interface RenderEnv {
  readonly ctx: MarkdownContext;
}

/** The context of a rendering (rules receive markdown-it's untyped `env`). */
export function contextOf(env: unknown): MarkdownContext {
  const ctx = (env as Partial<RenderEnv> | undefined)?.ctx;
  return ctx ?? {};
}
