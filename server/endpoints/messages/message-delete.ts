/** `DELETE /messages/{message_id}`: the real server's access and permission checks, then the deletion. */
import { checkCanDeleteMessage, deleteMessages } from '../../../lib/actions/messages/message-delete.js';
import { accessMessage } from '../../../lib/queries/messages/messages.js';
import { authed, type RouteDef } from '../../app/endpoint.js';

const remove = authed({
  params: {},
  run({ world, user, path }) {
    const message = accessMessage(world, user, Number(path.get('message_id')), { modifying: true });
    checkCanDeleteMessage(world, user, message);
    deleteMessages(world, [message], user);
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/messages/{message_id:int}', methods: { DELETE: remove } }];
