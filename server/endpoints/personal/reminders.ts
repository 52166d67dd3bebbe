/** Message reminders (spec 4.17): create (FL 381), list and delete (FL 399). */
import { createReminder, deleteReminder } from '../../../lib/actions/personal/reminders.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { remindersState } from '../../../lib/queries/personal/reminders.js';
import { int } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

/**
 * The real server requires `message_id` and `scheduled_delivery_timestamp` although the
 * OpenAPI description marks them optional (reference §4.1).
 */
const create = authed({
  since: FEATURES.REMINDERS,
  params: {
    message_id: json(int).required(),
    scheduled_delivery_timestamp: json(int).required(),
    note: str().availableFrom(FEATURES.REMINDER_NOTE),
  },
  run({ app, world, user, request }, args) {
    const id = createReminder(
      world,
      user,
      { messageId: args.message_id, scheduledDeliveryTimestamp: args.scheduled_delivery_timestamp, note: args.note ?? '' },
      app.realmUrl(request),
    );
    return { reminder_id: id };
  },
});

const list = authed({
  since: FEATURES.LIST_DELETE_REMINDERS,
  params: {},
  run({ world, user }) {
    return { reminders: remindersState(world, user) };
  },
});

const remove = authed({
  since: FEATURES.LIST_DELETE_REMINDERS,
  params: {},
  run({ world, user, path }) {
    deleteReminder(world, user, Number(path.get('reminder_id')));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/reminders', methods: { POST: create, GET: list } },
  { path: '/reminders/{reminder_id:int}', methods: { DELETE: remove } },
];
