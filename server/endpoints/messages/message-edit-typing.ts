/**
 * Typing while editing a message: `POST /message_edit_typing` (`op`, `message_id`; levels 351
 * to 360) and its successor `POST /messages/{message_id}/typing` (`op`; level 361).
 */
import { sendEditTyping } from '../../../lib/actions/messages/message-edit-typing.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { int } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, literalStr } from '../../app/params.js';

const legacy = authed({
  since: FEATURES.EDIT_TYPING,
  until: FEATURES.EDIT_TYPING_PATH,
  params: { op: literalStr('start', 'stop').required(), message_id: json(int).required() },
  run({ world, user }, args) {
    sendEditTyping(world, user, args.message_id, args.op);
    return {};
  },
});

const typing = authed({
  since: FEATURES.EDIT_TYPING_PATH,
  params: { op: literalStr('start', 'stop').required() },
  run({ world, user, path }, args) {
    sendEditTyping(world, user, Number(path.get('message_id')), args.op);
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/message_edit_typing', methods: { POST: legacy } },
  { path: '/messages/{message_id:int}/typing', methods: { POST: typing } },
];
