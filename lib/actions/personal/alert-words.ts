/**
 * Alert words (`GET`/`POST`/`DELETE /users/me/alert_words`), as the real server keeps them:
 * stripped, blank ones dropped, unique case-insensitively (the first spelling stays), removed
 * case-insensitively. Every change, even one that changes nothing, sends the user an
 * `alert_words` event with the whole list.
 */
import type { User } from '../../entities/user.js';
import { alertWordsOf } from '../../queries/personal/muted-lists.js';
import type { World } from '../../state/world.js';
import { badRequest } from '../../errors.js';
import { MAX_ALERT_WORDS } from '../../input/limits.js';

/** The longest alert word, in characters (`AlertWord.MAX_ALERT_WORD_LENGTH`). */
export const MAX_ALERT_WORD_LENGTH = 100;

function store(world: World, user: User, words: string[]): string[] {
  world.alertWords.set(user.id, words);
  world.events.send({ type: 'alert_words', alert_words: [...words] }, [user.id]);
  return [...words];
}

/**
 * Adds the words not already there. Among new words equal but for case the last spelling wins,
 * kept at the position of the first (the real server collects them in a dictionary).
 */
export function addAlertWords(world: World, user: User, words: readonly string[]): string[] {
  const current = alertWordsOf(world, user);
  const existing = new Set(current.map((w) => w.toLowerCase()));
  const added = new Map<string, string>();
  for (const raw of words) {
    const word = raw.trim();
    if (word === '' || existing.has(word.toLowerCase())) continue;
    added.set(word.toLowerCase(), word);
  }
  const all = [...current, ...added.values()];
  // Every message a user receives is searched for their words: their number has a ceiling.
  if (all.length > MAX_ALERT_WORDS) throw badRequest(`Too many alert words (limit: ${MAX_ALERT_WORDS}).`);
  return store(world, user, all);
}

/** Removes each given word, matched case-insensitively and without stripping; unknown words are ignored. */
export function removeAlertWords(world: World, user: User, words: readonly string[]): string[] {
  const gone = new Set(words.map((w) => w.toLowerCase()));
  return store(world, user, alertWordsOf(world, user).filter((w) => !gone.has(w.toLowerCase())));
}
