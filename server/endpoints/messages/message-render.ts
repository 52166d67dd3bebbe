/**
 * `POST /messages/render`: the HTML the server would store for `content`, rendered for the
 * caller's realm (mentions, channel links, custom emoji, linkifiers) without sending anything,
 * as the real server's `render_message_backend` does. Content over the message length limit is
 * rendered in full, as it is there through level 415, up to a bound of ours.
 */
import { MAX_RENDER_CONTENT_LENGTH } from '../../../lib/input/limits.js';
import { readableTopicFor } from '../../../lib/queries/messages/topics.js';
import { render } from '../../../lib/rendering/render.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';

const renderMessage = authed({
  params: {
    content: str({ maxLength: MAX_RENDER_CONTENT_LENGTH }).required(),
  },
  // The caller is the acting user, as the sender of the unsent message the real view renders.
  run({ world, user }, args) {
    return { rendered: render(world, args.content, { readableTopic: readableTopicFor(world, user) }) };
  },
});

export const routes: RouteDef[] = [{ path: '/messages/render', methods: { POST: renderMessage } }];
