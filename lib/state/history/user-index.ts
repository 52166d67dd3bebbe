/**
 * Per-user lists kept from the rows of stored messages: what each user received, what is unread
 * for them (a row without `read`), starred, mentioned, alerted, and the direct messages they
 * have a row for. Every row change passes through `rowChanged` (MessageRows reports them), so
 * the lists never go stale, whoever writes the flags.
 */
import { HAS_ALERT_WORD, MENTION_MASK, READ, STARRED } from './flag-bits.js';
import { emptyIds, IdList, type IdSource } from './id-list.js';

export type UserListName = 'received' | 'unread' | 'starred' | 'mentioned' | 'alerted' | 'direct';

type UserLists = Record<UserListName, IdList>;

const NAMES: readonly UserListName[] = ['received', 'unread', 'starred', 'mentioned', 'alerted', 'direct'];

/** Whether a row with these bits (undefined: no row) belongs in each list; `direct` is the message's kind. */
function membership(bits: number | undefined, direct: boolean): Record<UserListName, boolean> {
  const row = bits !== undefined;
  const has = (mask: number) => row && (bits & mask) !== 0;
  return { received: row, unread: row && !has(READ), starred: has(STARRED), mentioned: has(MENTION_MASK), alerted: has(HAS_ALERT_WORD), direct: row && direct };
}

export class UserIndex {
  private readonly users = new Map<number, UserLists>();

  private listsOf(userId: number): UserLists {
    let lists = this.users.get(userId);
    if (!lists) {
      lists = { received: new IdList(), unread: new IdList(), starred: new IdList(), mentioned: new IdList(), alerted: new IdList(), direct: new IdList() };
      this.users.set(userId, lists);
    }
    return lists;
  }

  /** A row of message `messageId` (direct or not) went from `before` to `after` bits (undefined: no row). */
  rowChanged(messageId: number, direct: boolean, userId: number, before: number | undefined, after: number | undefined): void {
    const lists = this.listsOf(userId);
    const was = membership(before, direct);
    const is = membership(after, direct);
    for (const name of NAMES) {
      if (was[name] === is[name]) continue;
      if (is[name]) lists[name].add(messageId);
      else lists[name].delete(messageId);
    }
  }

  /** A new row, on the path every stored message takes (the common case of `rowChanged`, without the allocations). */
  rowAdded(messageId: number, direct: boolean, userId: number, bits: number): void {
    const lists = this.listsOf(userId);
    lists.received.add(messageId);
    if ((bits & READ) === 0) lists.unread.add(messageId);
    if (bits & STARRED) lists.starred.add(messageId);
    if (bits & MENTION_MASK) lists.mentioned.add(messageId);
    if (bits & HAS_ALERT_WORD) lists.alerted.add(messageId);
    if (direct) lists.direct.add(messageId);
  }

  list(userId: number, name: UserListName): IdSource {
    return this.users.get(userId)?.[name] ?? emptyIds();
  }

  clear(): void {
    this.users.clear();
  }
}
