/**
 * Recipients described by a test instead of listed: every user of the realm for whom `includes`
 * holds. A realm-wide event (a new group, a changed default, a public channel) then costs the
 * open event queues it reaches, not a pass over every user: queue dispatch asks `includes` for
 * each user with a queue, and only callers that want the list (tests) iterate it.
 */
import type { User } from '../entities/user.js';

/** The part of the world an audience needs: the users, to enumerate on request. */
export interface AudienceSource {
  readonly users: ReadonlyMap<number, User>;
}

export class Audience implements Iterable<number> {
  constructor(
    private readonly source: AudienceSource,
    /** Must be cheap (a lookup or two): it runs once per user with an open queue. */
    readonly includes: (userId: number) => boolean,
  ) {}

  /** The same audience less `userIds`. */
  without(userIds: ReadonlySet<number>): Audience {
    return new Audience(this.source, (id) => !userIds.has(id) && this.includes(id));
  }

  /** The same audience less whoever `other` includes. */
  unless(other: Audience): Audience {
    return new Audience(this.source, (id) => this.includes(id) && !other.includes(id));
  }

  /** The same audience plus `userIds`. */
  with(userIds: ReadonlySet<number>): Audience {
    return new Audience(this.source, (id) => userIds.has(id) || this.includes(id));
  }

  *[Symbol.iterator](): Iterator<number> {
    for (const id of this.source.users.keys()) if (this.includes(id)) yield id;
  }
}

/** Whoever a hub event is for: a list of user IDs, or an audience. */
export type Recipients = readonly number[] | Audience;
