/** Invitations: email invitations (the real server's `PreregistrationUser`) and reusable links (`MultiuseInvite`). */

/** What both kinds of invitation give the account created from them. */
export interface InviteTerms {
  readonly referrerId: number;
  /** The role the new account gets (100 owner ... 600 guest). */
  readonly invitedAs: number;
  readonly streamIds: readonly number[];
  readonly groupIds: readonly number[];
  readonly includeRealmDefaultSubscriptions: boolean;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Milliseconds since the epoch; null never expires. */
  readonly expiresAt: number | null;
}

export interface EmailInvite extends InviteTerms {
  readonly id: number;
  readonly email: string;
  readonly notifyReferrerOnJoin: boolean;
  revoked: boolean;
}

export interface MultiuseInvite extends InviteTerms {
  readonly id: number;
  /** The reusable link (`<realm URL>/join/<key>/`). */
  readonly linkUrl: string;
  revoked: boolean;
}
