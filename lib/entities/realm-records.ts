/** Realm-wide records: linkifiers, reminders, attachments, custom profile fields, custom emoji. */

export interface Linkifier {
  readonly id: number;
  pattern: string;
  urlTemplate: string;
  order: number;
}

export interface Reminder {
  readonly id: number;
  readonly userId: number;
  readonly targetMessageId: number;
  /** Seconds since the epoch. */
  readonly scheduledDeliveryTimestamp: number;
  readonly note: string;
  content: string;
  renderedContent: string;
  delivered: boolean;
  failed: boolean;
  deliveredMessageId: number | null;
  /** The realm URL the creating request used, for links regenerated at delivery. */
  readonly realmUrl?: string;
}

export interface Attachment {
  readonly id: number;
  readonly ownerId: number;
  readonly name: string;
  readonly pathId: string;
  readonly size: number;
  /** Milliseconds since the epoch. */
  readonly createTime: number;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  /** Messages that reference the file. */
  readonly messageIds: Set<number>;
}

export interface CustomProfileField {
  readonly id: number;
  readonly name: string;
  readonly hint: string;
  /** 1 short text, 2 long text, 3 list, 4 date, 5 link, 6 user, 7 external account, 8 pronouns. */
  readonly type: number;
  readonly order: number;
  /** JSON text configuring list (3) and external account (7) fields; `''` (absent) for other types. */
  readonly fieldData?: string;
  readonly displayInProfileSummary?: boolean;
  /** Whether administrators ask every user to fill the field in (absent: false). */
  readonly required?: boolean;
  /** Whether users may change their own value (absent: true). */
  readonly editableByUser?: boolean;
}

export interface RealmEmoji {
  readonly id: number;
  readonly name: string;
  readonly authorId: number | null;
  deactivated: boolean;
  /** The stored image's name (`<id>.<extension>`); absent for fixture emoji (`<id>.png`). */
  readonly fileName?: string;
  readonly contentType?: string;
  /** The uploaded image, kept in memory. */
  readonly bytes?: Uint8Array;
}

/** A code playground: a link from code blocks of one language to an external tool. */
/** A domain whose addresses may join when the realm restricts emails to its domains (`RealmDomain`). */
export interface RealmDomain {
  readonly id: number;
  /** Lowercase, as `validate_domain` accepts it; the key of `World.realmDomains`. */
  readonly domain: string;
  allowSubdomains: boolean;
}

export interface RealmPlayground {
  readonly id: number;
  readonly name: string;
  readonly pygmentsLanguage: string;
  /** An RFC 6570 template with the one variable `code` (FL 196); before, a URL prefix. */
  readonly urlTemplate: string;
}
