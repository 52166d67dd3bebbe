/** What reminders and scheduled messages share: a delivery time, and whether they were sent or failed. */

export interface Deliverable {
  readonly scheduledDeliveryTimestamp: number;
  readonly delivered: boolean;
  readonly failed: boolean;
}

/** Not yet sent nor failed, and its time has come. */
export const isDue = (nowMs: number, item: Deliverable): boolean => !item.delivered && !item.failed && item.scheduledDeliveryTimestamp * 1000 <= nowMs;

/** When the next of `items` still to send falls due (ms), or undefined. */
export function nextDue(items: Iterable<Deliverable>): number | undefined {
  let next: number | undefined;
  for (const item of items) {
    if (item.delivered || item.failed) continue;
    const at = item.scheduledDeliveryTimestamp * 1000;
    if (next === undefined || at < next) next = at;
  }
  return next;
}
