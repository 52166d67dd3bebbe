/**
 * Message Markdown: the renderer lives in lib/markdown/ (markdown-it configured and extended
 * with the chat syntax); this module is its public face.
 */
export type { ChannelTarget, CustomEmojiTarget, GroupTarget, LinkifierRule, MarkdownContext, MentionTarget } from './markdown/context.js';
export { escapeAttribute, escapeHtml } from './markdown/escape.js';
export { renderMarkdown } from './markdown/setup.js';
