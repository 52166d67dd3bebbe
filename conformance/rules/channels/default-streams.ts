/**
 * Default channels (api/add-default-stream, api/remove-default-stream, api/update-stream
 * `is_default_stream`): administrators add and remove them, read back through
 * `GET /streams?include_default=true`, with `default_streams` events (channel IDs from level 330,
 * channel objects before); private channels cannot be default; other roles are refused before
 * the parameters are read. Changing the default channels changes what new users inherit: the
 * rule that does is realm-wide, and puts everything back.
 */
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { type Channel, openQueue } from '../support/channel-fixtures.js';
import { pollUntil } from '../support/event-waits.js';
import type { Rule, RuleContext } from '../types.js';
import { listStreams, ownChannel, patchChannel, STREAM_LEVELS } from './streams-support.js';

/** `is_default` of the channel in the administrator's `GET /streams?include_default=true`. */
async function isDefault(ctx: RuleContext, channel: Channel): Promise<unknown> {
  const { streams, reply } = await listStreams(ctx.as('admin'), { include_default: true });
  const entry = streams.find((candidate) => candidate.stream_id === channel.streamId);
  check(entry !== undefined, `channel ${channel.name} is not listed`, reply);
  return entry.is_default;
}

/** The channel IDs of a `default_streams` event (IDs from 330, channel objects before). */
const defaultIds = (event: JsonObject): number[] =>
  Array.isArray(event.default_streams) ? (event.default_streams as unknown[]).map((entry) => (typeof entry === 'number' ? entry : Number((entry as JsonObject).stream_id))) : [];

/** Removes the channel from the default channels when the rule ends (a no-op when it is not one). */
function removeDefaultLater(ctx: RuleContext, channel: Channel): void {
  ctx.cleanup(`remove ${channel.name} from the default channels`, async (c) => {
    const reply = await c.as('admin').delete('/default_streams', { stream_id: channel.streamId });
    if (reply.status !== 200 && reply.status !== 400) throw new Error(`removing the default channel ${channel.name}: HTTP ${reply.status}`);
  });
}

const addAndRemove: Rule = {
  id: 'default-streams/add-remove-read-back-and-events',
  title: 'an administrator makes a public channel default and not default again, by POST/DELETE /default_streams and (from level 200) by is_default_stream, each read back as is_default and announced to members by a default_streams event listing it or not; a private channel is refused with 400 BAD_REQUEST',
  endpoint: 'POST, DELETE /default_streams',
  section: 'api/add-default-stream; api/remove-default-stream; changelog 200, 330',
  writes: true,
  realmWide: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const channel = await ownChannel(ctx, 'default', { members: ['member'] });
    const secret = await ownChannel(ctx, 'default-private', { inviteOnly: true });
    removeDefaultLater(ctx, channel);
    const queue = await openQueue(ctx.as('member'), ['default_streams']);
    ctx.cleanup("close the member's queue", async () => queue.close());
    const idsOnly = ctx.featureLevel >= STREAM_LEVELS.DEFAULT_STREAMS_EVENT_IDS;
    const announced = async (listed: boolean, how: string) => {
      const matches = (event: JsonObject) => event.type === 'default_streams' && defaultIds(event).includes(channel.streamId) === listed;
      const event = (await pollUntil(queue, (events) => events.some(matches))).find(matches);
      check(event !== undefined, `no default_streams event ${listed ? 'listing' : 'without'} the channel after ${how}`);
      const entries = event.default_streams as unknown[];
      check(entries.every((entry) => (typeof entry === 'number') === idsOnly), () => `the default_streams event should list channel ${idsOnly ? 'IDs' : 'objects'}: ${JSON.stringify(event)}`);
    };
    const changes: Array<[boolean, string, () => Promise<unknown>]> = [
      [true, 'POST /default_streams', () => admin.post('/default_streams', { stream_id: channel.streamId })],
      [false, 'DELETE /default_streams', () => admin.delete('/default_streams', { stream_id: channel.streamId })],
    ];
    if (ctx.featureLevel >= STREAM_LEVELS.IS_DEFAULT_STREAM) {
      changes.push([true, 'is_default_stream=true', () => patchChannel(admin, channel, { is_default_stream: true })]);
      changes.push([false, 'is_default_stream=false', () => patchChannel(admin, channel, { is_default_stream: false })]);
    }
    for (const [listed, how, send] of changes) {
      expectSuccess((await send()) as Parameters<typeof expectSuccess>[0]);
      expectEqual(await isDefault(ctx, channel), listed, `is_default after ${how}`);
      await announced(listed, how);
    }
    expectError(await admin.post('/default_streams', { stream_id: secret.streamId }), { status: 400, code: 'BAD_REQUEST' });
    if (ctx.featureLevel >= STREAM_LEVELS.IS_DEFAULT_STREAM) expectError(await patchChannel(admin, secret, { is_default_stream: true }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual(await isDefault(ctx, secret), false, 'is_default of the private channel after the refusals');
  },
};

const administratorsOnly: Rule = {
  id: 'default-streams/administrators-only',
  title: 'moderators, members and guests are refused POST and DELETE /default_streams with 400 UNAUTHORIZED_PRINCIPAL, even without parameters, and nothing changes; an administrator is told REQUEST_VARIABLE_MISSING without stream_id and 400 BAD_REQUEST for an unknown channel',
  endpoint: 'POST, DELETE /default_streams',
  section: 'api/add-default-stream; api/remove-default-stream',
  writes: true,
  needs: ['admin', 'moderator', 'member', 'guest'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'default-refused', { members: ['member', 'guest'] });
    removeDefaultLater(ctx, channel);
    for (const who of ['moderator', 'member', 'guest'] as const) {
      const client = ctx.as(who);
      expectError(await client.post('/default_streams', { stream_id: channel.streamId }), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
      expectError(await client.post('/default_streams', {}), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
      expectError(await client.delete('/default_streams', { stream_id: channel.streamId }), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
    }
    expectEqual(await isDefault(ctx, channel), false, 'is_default after the refused requests');
    expectError(await ctx.as('admin').post('/default_streams', {}), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    expectError(await ctx.as('admin').post('/default_streams', { stream_id: 2_000_000_000 }), { status: 400, code: 'BAD_REQUEST' });
  },
};

export const rules: readonly Rule[] = [addAndRemove, administratorsOnly];
