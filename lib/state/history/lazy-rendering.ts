/**
 * Rendering a message when its HTML is first read instead of when it is stored: a realm loaded
 * with a million messages renders the few that are read, not all of them. Only plain text is
 * left for later (lib/rendering/plain-text.ts), rendered with the linkifiers of the moment it was
 * stored, so the HTML is the same as if it had been rendered then.
 *
 * `renderedContent` becomes an accessor that fills a symbol-keyed slot on first read; saved worlds
 * read it like any field (world-snapshot walks enumerable own properties).
 */
import type { Message } from '../../entities/message.js';

/** What renders a message's content later, as it would have been rendered now. */
export interface DeferredRendering {
  render(content: string): string;
}

const SLOT = Symbol('renderedContent');

type Slot = string | DeferredRendering;
type WithSlot = { content: string; [SLOT]?: Slot };

// One getter and setter for every message, so V8 gives them all one shape.
function readRendered(this: WithSlot): string {
  const slot = this[SLOT];
  if (typeof slot === 'string') return slot;
  const html = slot === undefined ? '' : slot.render(this.content);
  this[SLOT] = html;
  return html;
}

function writeRendered(this: WithSlot, html: string): void {
  this[SLOT] = html;
}

const ACCESSOR: PropertyDescriptor = { get: readRendered, set: writeRendered, enumerable: true, configurable: true };

/** Gives a message under construction (without `renderedContent`) HTML rendered on first read. */
export function renderOnFirstRead(message: Omit<Message, 'renderedContent'>, rendering: DeferredRendering): Message {
  (message as WithSlot)[SLOT] = rendering;
  Object.defineProperty(message, 'renderedContent', ACCESSOR);
  return message as Message;
}

/** Whether the message's HTML has not been rendered yet (its content is plain text). */
export function isRenderingDeferred(message: Message): boolean {
  const slot = (message as unknown as WithSlot)[SLOT];
  return slot !== undefined && typeof slot !== 'string';
}
