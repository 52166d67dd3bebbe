/** A data export of the organization (the real server's `RealmExport`). */
export interface RealmExport {
  readonly id: number;
  readonly actingUserId: number;
  /** 1 public data, 2 full with members' consent (FL 304). */
  readonly exportType: number;
  /** Milliseconds since the epoch. */
  readonly requestedAt: number;
  status: 'requested' | 'succeeded' | 'deleted';
  /** Where the finished tarball is served, relative to the realm URL. */
  exportPath: string | null;
  /** Milliseconds since the epoch. */
  deletedAt: number | null;
}
