/**
 * Fixtures shared by the rules on messages and the resources that hang off them (edit history,
 * reports, reminders): channels and messages the run creates, realm state read through
 * `POST /register`. Everything is looked up, never assumed, and
 * every channel created here is archived (or, where the target cannot archive, left by each
 * identity the run subscribed) when the rule ends.
 */
import type { ApiClient } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { notArchived, principalsFor, streamIdOf } from './channel-fixtures.js';
import type { RuleContext } from '../types.js';

/** A channel the run created. */
export interface RunChannel {
  readonly id: number;
  readonly name: string;
}

export interface ChannelOptions {
  /** Private (invite-only) channel; public otherwise. */
  readonly inviteOnly?: boolean;
  /** Identities subscribed besides the creator. */
  readonly members?: readonly IdentityName[];
}

/**
 * Creates a channel named with the run tag as `creator` (through subscribing, section 4.1) with
 * the given members, and registers its removal. The rule must list every identity in `needs`.
 */
export async function createChannel(ctx: RuleContext, creator: IdentityName, label: string, options: ChannelOptions = {}): Promise<RunChannel> {
  const name = ctx.name(label);
  const members = (options.members ?? []).filter((who) => who !== creator);
  const client = ctx.as(creator);
  const principals = await principalsFor(ctx, client, [creator, ...members].map((who) => ctx.identity(who).userId));
  const reply = await client.post('/users/me/subscriptions', { subscriptions: [{ name, description: '' }], invite_only: options.inviteOnly ?? false, principals });
  expectSuccess(reply);
  const id = await streamIdOf(client, name);
  ctx.cleanup(`remove channel ${name}`, async (c) => {
    // Archiving needs an administrator of the channel; the creator is one on real servers.
    const archived = await c.as(creator).delete(`/streams/${id}`);
    if (archived.status === 200) return;
    for (const who of [creator, ...members]) await c.as(who).delete('/users/me/subscriptions', { subscriptions: [name] });
    c.note(notArchived(name, archived.status));
  });
  return { id, name };
}

/**
 * The run's one public channel, for rules that need some channel but none of their own (they keep
 * apart by topic): created by the administrator with every identity of the run subscribed,
 * archived when the run ends. The rule must list `admin` in `needs`.
 */
export function runChannel(ctx: RuleContext): Promise<RunChannel> {
  return ctx.runShared('run-channel', async () => {
    const name = ctx.name('run-channel');
    const client = ctx.as('admin');
    const principals = await principalsFor(ctx, client, ctx.identities.filter((identity) => !identity.isBot).map((identity) => identity.userId));
    const reply = await client.post('/users/me/subscriptions', { subscriptions: [{ name, description: '' }], principals });
    expectSuccess(reply);
    const id = await streamIdOf(client, name);
    ctx.cleanup(`archive the run channel ${name}`, async (c) => {
      const archived = await c.as('admin').delete(`/streams/${id}`);
      if (archived.status === 200) return;
      // An administrator may unsubscribe others: every identity of the run leaves at once.
      await c.as('admin').delete('/users/me/subscriptions', { subscriptions: [name], principals });
      c.note(notArchived(name, archived.status));
    }, { scope: 'run' });
    return { id, name };
  });
}

/** Sends a channel message as `client` and returns its ID. */
export async function sendToChannel(client: ApiClient, channelId: number, topic: string, content: string): Promise<number> {
  const reply = await client.post('/messages', { type: 'stream', to: channelId, topic, content });
  return expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }) }), 'body', reply).id;
}

/** `POST /register` with `fetch_event_types`: the state object, unchecked beyond success. */
export async function fetchState(client: ApiClient, types: readonly string[]): Promise<Readonly<Record<string, unknown>>> {
  const reply = await client.post('/register', { fetch_event_types: types, event_types: types });
  const body = expectSuccess(reply);
  const queueId = body.queue_id;
  // The queue itself is not wanted: delete it (failures are harmless, it expires anyway).
  if (typeof queueId === 'string') await client.delete('/events', { queue_id: queueId });
  return body;
}

/**
 * The realm's edit-history visibility: `all`, `moves` or `none` (FL 358), derived from the
 * older boolean `realm_allow_edit_history` on servers that predate the policy.
 */
export async function editHistoryPolicy(client: ApiClient): Promise<string> {
  const state = await fetchState(client, ['realm']);
  const policy = state.realm_message_edit_history_visibility_policy;
  if (typeof policy === 'string') return policy;
  return state.realm_allow_edit_history === false ? 'none' : 'all';
}

/** The ID of the newest message in the realm the caller may see (`max_message_id`). */
export async function maxMessageId(client: ApiClient): Promise<number> {
  const reply = await client.get('/users/me');
  return expectShape(expectSuccess(reply), v.object({ max_message_id: v.int() }), 'body', reply).max_message_id;
}

/** An ID far above any message, reminder or attachment the target has (for "unknown" checks). */
export const FAR_ID_FLOOR = 1_000_000_000;
