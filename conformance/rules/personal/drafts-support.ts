/**
 * What the drafts rules share: the target's drafts world (a channel the member is subscribed to,
 * other users to address), the sync-setting precondition, drafts created with cleanup, a fixed
 * draft to edit and its read-back, and the skeleton of a rule the member runs on its drafts.
 */
import type { ApiClient } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type DraftInput, type DraftWorld, draftDifference, type ExpectedDraft } from '../../model/draft-cases.js';
import { listDrafts } from '../../model/drafts-model.js';
import { ownSettings } from '../support/state-fetch.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

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

export const ENDPOINT = 'PATCH /drafts/{draft_id}';
/** For rules that check every drafts endpoint. */
export const EVERY_ENDPOINT = 'GET, POST /drafts, PATCH, DELETE /drafts/{draft_id}';
export const LEVELS = { min: DRAFTS_LEVEL } as const;

/** A fixed, exactly-known draft to edit (explicit timestamp, so it reads back exactly). */
export const BASE_DRAFT = { type: '' as const, to: [], topic: '', content: 'conformance draft', timestamp: 1_700_000_000 };
export const BASE_EXPECTED: ExpectedDraft = { type: '', to: [], topic: '', content: BASE_DRAFT.content, timestamp: BASE_DRAFT.timestamp };

/** Fails unless draft `id` is listed and reads as `expected`. */
export async function expectDraft(setup: DraftsSetup, id: number, expected: ExpectedDraft, what: string): Promise<void> {
  const listed = (await listDrafts(setup.client)).find((draft) => draft.id === id);
  if (!listed) fail(`${what}: draft ${id} is not listed by GET /drafts`);
  const difference = draftDifference(listed, expected);
  if (difference !== '') fail(`${what}: draft ${id}: ${difference}`);
}

/** An edit of draft `id` to `draft` (an object, or raw wire text) is refused with 400 BAD_REQUEST and the draft still reads as `BASE_DRAFT`. */
export async function expectEditRefused(setup: DraftsSetup, id: number, draft: unknown, what: string): Promise<void> {
  expectError(await setup.client.patch(`/drafts/${id}`, { draft }), { status: 400, code: 'BAD_REQUEST' });
  await expectDraft(setup, id, BASE_EXPECTED, what);
}

/** A drafts rule (`PATCH /drafts/{draft_id}` and the endpoints around it; from level 87 unless narrowed) the member runs on its own drafts. */
export function memberDraftsRule(header: RuleHeader, body: (ctx: RuleContext, setup: DraftsSetup) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: ENDPOINT, levels: LEVELS, writes: true, needs: ['member'] }, (ctx) => draftsSetup(ctx), body);
}
