/**
 * What the drafts rules share: the target's drafts world (a channel the member is subscribed to,
 * other users to address), the sync-setting precondition, and drafts created with cleanup.
 */
import type { ApiClient } from '../client/api-client.js';
import type { CleanupContext } from '../cleanup.js';
import { expectShape, expectSuccess } from '../expect/assert.js';
import { v } from '../expect/shape.js';
import type { DraftInput, DraftWorld } from '../model/draft-cases.js';
import { ownSettings } from './state-fetch.js';
import type { RuleContext } from './types.js';

/** Level 87: the drafts endpoints. */
export const DRAFTS_LEVEL = 87;

export interface DraftsSetup {
  readonly client: ApiClient;
  readonly world: DraftWorld;
  /** Drafts created through `create`; deleted (if still there) when the rule ends. */
  readonly created: Set<number>;
  create(draft: DraftInput): Promise<number>;
}

/**
 * Prepares a drafts rule for the `member` identity: skips when the member turned draft
 * synchronisation off (every drafts request is refused then, section 4.3).
 */
export async function draftsSetup(ctx: RuleContext, who: 'member' | 'second-member' = 'member'): Promise<DraftsSetup> {
  const client = ctx.as(who);
  const settings = await ownSettings(client);
  if (settings.enable_drafts_synchronization === false) ctx.skip(`${who} has enable_drafts_synchronization off`);
  const subscriptions = await client.get('/users/me/subscriptions');
  const { subscriptions: list } = expectShape(
    expectSuccess(subscriptions),
    v.object({ subscriptions: v.array(v.object({ stream_id: v.int(), is_archived: v.optional(v.bool()) })) }),
    'body',
    subscriptions,
  );
  const channel = list.find((sub) => sub.is_archived !== true)?.stream_id;
  const self = ctx.identity(who);
  const otherIds = ctx.identities.filter((identity) => identity.userId !== self.userId && !identity.isBot).map((identity) => identity.userId);
  const created = new Set<number>();
  ctx.cleanup(`delete the drafts of ${who}`, async (c: CleanupContext) => {
    const owner = c.as(who);
    for (const id of created) await owner.delete(`/drafts/${id}`);
  });
  return {
    client,
    world: { ...(channel === undefined ? {} : { channelId: channel }), selfId: self.userId, otherIds: [...new Set(otherIds)] },
    created,
    async create(draft) {
      const reply = await client.post('/drafts', { drafts: [draft] });
      const { ids } = expectShape(expectSuccess(reply), v.object({ ids: v.array(v.int({ min: 1 }), { minLength: 1 }) }), 'body', reply);
      const id = ids[0] as number;
      created.add(id);
      return id;
    },
  };
}
