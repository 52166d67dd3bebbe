/**
 * The `has_alert_word` flag, as the real server's Markdown processor sets it
 * (`AlertWordNotificationProcessor` in zerver/lib/markdown): a recipient's alert word found in
 * the lowercased message source, preceded by the start, a space, a newline or one of `(".,';[*`>`
 * and followed by the end, a space, a newline or one of `)?:.,';]!*``. Set when a message is sent
 * and re-derived when its content is edited (`update_user_message_flags`).
 */
import type { Message } from '../../../entities/message.js';
import type { World } from '../../../state/world.js';

const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/**
 * Whether `word` (lowercased) occurs in `content` (lowercased) on word boundaries. The real
 * server tests the character before a match with `index <= 0`, so a match at the second
 * character counts whatever the first one is; kept here.
 */
export function containsAlertWord(content: string, word: string): boolean {
  if (word === '') return false;
  for (let at = content.indexOf(word); at >= 0; at = content.indexOf(word, at + 1)) {
    const end = at + word.length;
    if ((at <= 1 || BEFORE.has(content[at - 1] as string)) && (end >= content.length || AFTER.has(content[end] as string))) return true;
  }
  return false;
}

/** Sets or clears `has_alert_word` on every row of `message` from its source. */
export function setAlertWordFlags(world: World, message: Message): void {
  const content = message.content.toLowerCase();
  for (const [userId, flags] of message.flags) {
    const words = world.alertWords.get(userId) ?? [];
    const alerted = words.some((word) => containsAlertWord(content, word.toLowerCase()));
    if (alerted) flags.add('has_alert_word');
    else flags.delete('has_alert_word');
  }
}
