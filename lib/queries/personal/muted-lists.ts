/** A user's alert words and muted users, as `GET /users/me/alert_words` and `/register` give them. */
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

/** The user's alert words, oldest first. */
export const alertWordsOf = (world: World, user: User): string[] => [...(world.alertWords.get(user.id) ?? [])];

/** The `muted_users` list: `{id, timestamp}` in muting order. */
export const mutedUsersOf = (world: World, user: User): Array<{ id: number; timestamp: number }> =>
  (world.mutedUsers.get(user.id) ?? []).map((m) => ({ id: m.id, timestamp: m.timestamp }));
