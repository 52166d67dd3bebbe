/**
 * A stored message's per-user rows, compactly: the users who have a row (one frozen array shared
 * by every message with the same holders, as a channel's messages mostly are) and their flags as
 * bits (one number when every holder has the same flags, as most rows of an old message do).
 * Read and written as a Map of Sets (`MessageFlags`); each `get` gives a view whose writes land
 * here, and every change is reported to the history index the message is stored in.
 */
import type { FlagRow, MessageFlags } from '../../entities/message.js';
import { bitsOf, flagBit, flagNames, isFlag } from './flag-bits.js';

/** Told of each row change: `before` undefined for a new row, `after` undefined for a removed one. */
export type RowObserver = (messageId: number, userId: number, before: number | undefined, after: number | undefined) => void;

const POOL_LIMIT = 10_000;
const pool = new Map<string, readonly number[]>();
const NOBODY: readonly number[] = Object.freeze([]);

/** Lists `intern` gave out, so handing one back costs a lookup, not a key. */
const interned = new WeakSet<readonly number[]>();

/** The shared frozen copy of a holder list. */
export function intern(users: readonly number[]): readonly number[] {
  if (users.length === 0) return NOBODY;
  if (interned.has(users)) return users;
  const key = users.join(',');
  let shared = pool.get(key);
  if (!shared) {
    // Bounded, so a long run of membership changes cannot grow it without end; lists already shared stay so.
    if (pool.size >= POOL_LIMIT) pool.clear();
    pool.set(key, (shared = Object.freeze([...users])));
    interned.add(shared);
  }
  return shared;
}

/** Positions in long holder lists (a channel with thousands of subscribers), built once per shared list. */
const positions = new WeakMap<readonly number[], Map<number, number>>();

function positionIn(users: readonly number[], userId: number): number {
  if (users.length <= 32) return users.indexOf(userId);
  let map = positions.get(users);
  if (!map) positions.set(users, (map = new Map(users.map((id, index) => [id, index]))));
  return map.get(userId) ?? -1;
}

export class MessageRows implements MessageFlags {
  #users: readonly number[] = NOBODY;
  /** The flags of every holder, or of each holder in `#users` order. */
  #bits: number | number[] = 0;
  #messageId = 0;
  #observer: RowObserver | undefined;

  constructor(rows?: Iterable<readonly [number, Iterable<string>]>) {
    if (rows === undefined) return;
    const byUser = new Map<number, number>();
    for (const [userId, flags] of rows) byUser.set(userId, bitsOf(flags));
    const bits = [...byUser.values()];
    this.#users = intern([...byUser.keys()]);
    this.#bits = bits.every((value) => value === bits[0]) ? (bits[0] ?? 0) : bits;
  }

  /** Rows for `users` (distinct), all with the same flag bits. */
  static uniform(users: readonly number[], bits: number): MessageRows {
    const rows = new MessageRows();
    rows.#users = intern(users);
    rows.#bits = bits;
    return rows;
  }

  /** Reports every later change of these rows, as rows of message `messageId`. */
  attach(messageId: number, observer: RowObserver | undefined): void {
    this.#messageId = messageId;
    this.#observer = observer;
  }

  /** The user's flag bits, undefined without a row. */
  bitsOf(userId: number): number | undefined {
    const at = positionIn(this.#users, userId);
    if (at < 0) return undefined;
    return typeof this.#bits === 'number' ? this.#bits : this.#bits[at];
  }

  /** Sets the flag bits of an existing row (nothing happens without one). */
  setBits(userId: number, bits: number): void {
    const at = positionIn(this.#users, userId);
    if (at < 0) return;
    const before = typeof this.#bits === 'number' ? this.#bits : (this.#bits[at] as number);
    if (before === bits) return;
    if (typeof this.#bits === 'number') this.#bits = this.#users.map(() => before);
    this.#bits[at] = bits;
    if (this.#bits.every((value) => value === bits)) this.#bits = bits;
    this.#observer?.(this.#messageId, userId, before, bits);
  }

  /** The users with a row (a shared frozen list: read it, never keep it past a change). */
  get holders(): readonly number[] {
    return this.#users;
  }

  /** The flag bits of the `index`th holder. */
  bitsAt(index: number): number {
    return typeof this.#bits === 'number' ? this.#bits : (this.#bits[index] as number);
  }

  /** Each row's user and flag bits, without a view per row. */
  forEachBits(callback: (userId: number, bits: number) => void): void {
    const users = this.#users;
    const bits = this.#bits;
    for (let i = 0; i < users.length; i++) callback(users[i] as number, typeof bits === 'number' ? bits : (bits[i] as number));
  }

  get size(): number {
    return this.#users.length;
  }

  has(userId: number): boolean {
    return positionIn(this.#users, userId) >= 0;
  }

  get(userId: number): FlagRow | undefined {
    return this.has(userId) ? new RowView(this, userId) : undefined;
  }

  set(userId: number, flags: Iterable<string>): this {
    const bits = bitsOf(flags);
    if (this.has(userId)) {
      this.setBits(userId, bits);
      return this;
    }
    const old = this.#bits;
    const uniform = typeof old === 'number' && (old === bits || this.#users.length === 0);
    this.#bits = uniform ? bits : [...(typeof old === 'number' ? this.#users.map(() => old) : old), bits];
    this.#users = intern([...this.#users, userId]);
    this.#observer?.(this.#messageId, userId, undefined, bits);
    return this;
  }

  delete(userId: number): boolean {
    const at = positionIn(this.#users, userId);
    if (at < 0) return false;
    const before = this.bitsOf(userId) as number;
    this.#users = intern(this.#users.filter((id) => id !== userId));
    if (typeof this.#bits !== 'number') {
      const rest = this.#bits.filter((_, index) => index !== at);
      this.#bits = rest.every((value) => value === rest[0]) ? (rest[0] ?? 0) : rest;
    }
    this.#observer?.(this.#messageId, userId, before, undefined);
    return true;
  }

  clear(): void {
    for (const userId of [...this.#users]) this.delete(userId);
  }

  *keys(): IterableIterator<number> {
    yield* this.#users;
  }

  *values(): IterableIterator<FlagRow> {
    for (const userId of this.#users) yield new RowView(this, userId);
  }

  *entries(): IterableIterator<[number, FlagRow]> {
    for (const userId of this.#users) yield [userId, new RowView(this, userId)];
  }

  [Symbol.iterator](): IterableIterator<[number, FlagRow]> {
    return this.entries();
  }

  forEach(callback: (row: FlagRow, userId: number, rows: MessageRows) => void): void {
    for (const [userId, row] of this) callback(row, userId, this);
  }
}

/** One user's row as a set of flag names, reading and writing the bits in `MessageRows`. */
class RowView implements FlagRow {
  get [Symbol.toStringTag](): string {
    return 'FlagRow';
  }

  readonly #rows: MessageRows;
  readonly #userId: number;

  constructor(rows: MessageRows, userId: number) {
    this.#rows = rows;
    this.#userId = userId;
  }

  get #bits(): number {
    return this.#rows.bitsOf(this.#userId) ?? 0;
  }

  get size(): number {
    return flagNames(this.#bits).length;
  }

  has(flag: string): boolean {
    return isFlag(flag) && (this.#bits & flagBit(flag)) !== 0;
  }

  add(flag: string): this {
    this.#rows.setBits(this.#userId, this.#bits | flagBit(flag));
    return this;
  }

  delete(flag: string): boolean {
    if (!this.has(flag)) return false;
    this.#rows.setBits(this.#userId, this.#bits & ~flagBit(flag));
    return true;
  }

  clear(): void {
    this.#rows.setBits(this.#userId, 0);
  }

  /** The flags now, as a Set (iterating it does not see later changes). */
  private now(): Set<string> {
    return new Set(flagNames(this.#bits));
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.now().values();
  }

  values(): SetIterator<string> {
    return this.now().values();
  }

  keys(): SetIterator<string> {
    return this.now().keys();
  }

  entries(): SetIterator<[string, string]> {
    return this.now().entries();
  }

  forEach(callback: (flag: string, same: string, row: Set<string>) => void): void {
    for (const flag of this.now()) callback(flag, flag, this);
  }
}

/** Whether `value` is a row view (saved worlds write it as the Set it reads as). */
export const isRowView = (value: object): value is FlagRow => value instanceof RowView;

/** A user's flag bits on a message, stored (MessageRows) or being built (a Map of Sets); undefined without a row. */
export function rowBits(flags: MessageFlags, userId: number): number | undefined {
  if (flags instanceof MessageRows) return flags.bitsOf(userId);
  const row = flags.get(userId);
  return row === undefined ? undefined : bitsOf(row);
}
