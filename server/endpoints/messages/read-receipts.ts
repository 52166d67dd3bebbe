/** `GET /messages/{message_id}/read_receipts` (level 137): the IDs of users who have read the message. */
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { readReceipts } from '../../../lib/queries/messages/read-receipts.js';
import { authed, type RouteDef } from '../../app/endpoint.js';

const list = authed({
  since: FEATURES.READ_RECEIPTS,
  params: {},
  run({ world, user, path }) {
    return { user_ids: readReceipts(world, user, Number(path.get('message_id'))) };
  },
});

export const routes: RouteDef[] = [{ path: '/messages/{message_id:int}/read_receipts', methods: { GET: list } }];
