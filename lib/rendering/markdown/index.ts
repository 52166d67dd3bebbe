/**
 * Message Markdown: the renderer lives in lib/rendering/markdown/ (markdown-it configured and extended
 * with the chat syntax); this module is its public face.
 */
export type { ChannelTarget, CustomEmojiTarget, GroupTarget, LinkifierRule, MarkdownContext, MentionTarget } from './context.js';
export { escapeAttribute, escapeHtml } from './escape.js';
export { renderMarkdown } from './setup.js';
