/**
 * A model of the run's own reminders (sections 3.5 and 4.17): which are pending and when each is
 * due. Commands create and delete them (`POST /reminders`, `DELETE /reminders/{id}`, level 399),
 * delete one already gone (404 `BAD_REQUEST`), and after each one `GET /reminders` restricted to
 * the run's reminders must hold exactly the model's, by delivery time.
 */
import fc from 'fast-check';
import type { ApiClient } from '../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../expect/assert.js';
import { type Infer, v } from '../expect/shape.js';

export const LIST_DELETE_LEVEL = 399;

export const reminderShape = v.object({
  reminder_id: v.int({ min: 1 }),
  type: v.literal('private'),
  to: v.array(v.int()),
  content: v.string(),
  rendered_content: v.string(),
  scheduled_delivery_timestamp: v.int(),
  failed: v.bool(),
  reminder_target_message_id: v.int(),
});

export type ApiReminder = Infer<typeof reminderShape>;
const listShape = v.object({ reminders: v.array(reminderShape) });

/** `GET /reminders`, shape-checked, in the server's order. */
export async function listReminders(client: ApiClient): Promise<ApiReminder[]> {
  const reply = await client.get('/reminders');
  return expectShape(expectSuccess(reply), listShape, 'body', reply).reminders;
}

/** `POST /reminders`; returns the new `reminder_id`. */
export async function createReminder(client: ApiClient, messageId: number, at: number, extra: Record<string, unknown> = {}): Promise<number> {
  const reply = await client.post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: at, ...extra });
  return expectShape(expectSuccess(reply), v.object({ reminder_id: v.int({ min: 1 }) }), 'body', reply).reminder_id;
}

export interface ReminderModel {
  /** Pending reminders of the run: ID to delivery time. */
  readonly pending: Map<number, number>;
  /** Reminders the run deleted. */
  readonly deleted: number[];
}

export interface ReminderReal {
  readonly client: ApiClient;
  readonly userId: number;
  readonly messageId: number;
  /** The server's "now" (UNIX seconds) when the rule started. */
  readonly now: number;
  /** Every reminder this sequence created; the server's list is restricted to these. */
  readonly everCreated: Set<number>;
}

async function verify(model: ReminderModel, real: ReminderReal): Promise<void> {
  const ours = (await listReminders(real.client)).filter((item) => real.everCreated.has(item.reminder_id));
  expectEqual(ours.map((item) => item.reminder_id).sort((a, b) => a - b), [...model.pending.keys()].sort((a, b) => a - b), "the run's pending reminders in GET /reminders");
  ours.forEach((item, index) => {
    expectEqual(item.scheduled_delivery_timestamp, model.pending.get(item.reminder_id), `reminder ${item.reminder_id}: scheduled_delivery_timestamp`);
    expectEqual(item.reminder_target_message_id, real.messageId, `reminder ${item.reminder_id}: reminder_target_message_id`);
    expectEqual(item.to, [real.userId], `reminder ${item.reminder_id}: to`);
    expectEqual(item.failed, false, `reminder ${item.reminder_id}: failed`);
    const before = ours[index - 1];
    check(!before || before.scheduled_delivery_timestamp <= item.scheduled_delivery_timestamp, `GET /reminders is not sorted by scheduled_delivery_timestamp: ${before?.reminder_id} (${before?.scheduled_delivery_timestamp}) before ${item.reminder_id} (${item.scheduled_delivery_timestamp})`);
  });
}

class Create implements fc.AsyncCommand<ReminderModel, ReminderReal> {
  constructor(readonly minutesAhead: number) {}
  check = () => true;
  async run(model: ReminderModel, real: ReminderReal): Promise<void> {
    const at = real.now + this.minutesAhead * 60;
    const id = await createReminder(real.client, real.messageId, at);
    real.everCreated.add(id);
    model.pending.set(id, at);
    await verify(model, real);
  }
  toString = () => `create(+${this.minutesAhead} min)`;
}

class Delete implements fc.AsyncCommand<ReminderModel, ReminderReal> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<ReminderModel>) => model.pending.size > 0;
  async run(model: ReminderModel, real: ReminderReal): Promise<void> {
    const id = [...model.pending.keys()][this.pick % model.pending.size]!;
    expectSuccess(await real.client.delete(`/reminders/${id}`));
    model.pending.delete(id);
    model.deleted.push(id);
    await verify(model, real);
  }
  toString = () => `delete(${this.pick})`;
}

class DeleteAgain implements fc.AsyncCommand<ReminderModel, ReminderReal> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<ReminderModel>) => model.deleted.length > 0;
  async run(model: ReminderModel, real: ReminderReal): Promise<void> {
    const id = model.deleted[this.pick % model.deleted.length]!;
    expectError(await real.client.delete(`/reminders/${id}`), { status: 404, code: 'BAD_REQUEST' });
    await verify(model, real);
  }
  toString = () => `delete-again(${this.pick})`;
}

/** Delivery times of created reminders: 1 hour to 30 days ahead, in minutes. */
export const minutesAhead = fc.integer({ min: 60, max: 60 * 24 * 30 });

/** Create, delete, delete again. */
export const reminderCommands: Array<fc.Arbitrary<fc.AsyncCommand<ReminderModel, ReminderReal>>> = [
  minutesAhead.map((minutes) => new Create(minutes)),
  fc.nat().map((pick) => new Delete(pick)),
  fc.nat().map((pick) => new DeleteAgain(pick)),
];

/** Starts a sequence with reminders due `minutesAhead` from now (so deletes and ordering have material). */
export async function seedReminders(model: ReminderModel, real: ReminderReal, minutesAhead: readonly number[]): Promise<void> {
  for (const minutes of minutesAhead) await new Create(minutes).run(model, real);
}

/** Deletes what a sequence created and left pending. */
export async function deletePending(client: ApiClient, model: ReminderModel): Promise<void> {
  for (const id of model.pending.keys()) await client.delete(`/reminders/${id}`);
  model.pending.clear();
}
