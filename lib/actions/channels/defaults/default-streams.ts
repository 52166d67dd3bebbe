/**
 * Default channels (new users are subscribed to them): `POST`/`DELETE /default_streams` and
 * `PATCH /streams/{stream_id}` `is_default_stream`, with the `default_streams` event.
 */
import { badRequest } from '../../../errors.js';
import type { Stream } from '../../../entities/stream.js';
import type { User } from '../../../entities/user.js';
import { accessChannelById } from '../../../queries/channels/channel-list.js';
import type { World } from '../../../state/world.js';
import { addDefaultChannels, sendDefaultStreamsEvent } from '../channel-creation.js';

/** Adds (only when it is not one yet) or removes (always announced) a default channel. */
export function setDefaultChannel(world: World, stream: Stream, isDefault: boolean): void {
  if (isDefault) {
    if (!world.defaultStreamIds.has(stream.id)) addDefaultChannels(world, [stream]);
    return;
  }
  world.defaultStreamIds.delete(stream.id);
  sendDefaultStreamsEvent(world);
}

/** `POST /default_streams`: a channel the administrator can read; private channels are refused. */
export function addDefaultChannel(world: World, actor: User, streamId: number): void {
  const stream = accessChannelById(world, actor, streamId, { metadata: false });
  if (stream.inviteOnly) throw badRequest('Private channels cannot be made default.');
  setDefaultChannel(world, stream, true);
}

/** `DELETE /default_streams`: metadata access is enough. */
export function removeDefaultChannel(world: World, actor: User, streamId: number): void {
  const stream = accessChannelById(world, actor, streamId, { metadata: true });
  setDefaultChannel(world, stream, false);
}
