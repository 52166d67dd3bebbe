/**
 * `GET /streams` (api/get-streams): each filter and their combinations, read by every role, for
 * the run's own channels of each kind (channel-kinds.ts): which are listed and which are not.
 * The realm has other channels; only ours are judged, and the whole list's order.
 */
import type { JsonObject, Reply } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { byCodePoint } from '../support/arbitraries.js';
import type { Rule, RuleContext } from '../types.js';
import { type ChannelKind, channelKinds, hasContent, hasMetadata, isSubscribedTo, KINDS_NEEDS, READERS } from './channel-kinds.js';
import { isOrgAdmin, listStreams, ownChannel, STREAM_LEVELS, streamShape } from './streams-support.js';

/** One row of the filter table: the parameters and which of our channels a reader must get. */
interface FilterRow {
  readonly label: string;
  readonly params: Readonly<Record<string, boolean>>;
  readonly listed: (ctx: RuleContext, kind: ChannelKind, who: IdentityName) => boolean;
  /** The levels the row applies to. */
  readonly levels?: { readonly min?: number; readonly max?: number };
  /** Readers refused with 400 BAD_REQUEST instead. */
  readonly refused?: (ctx: RuleContext, who: IdentityName) => boolean;
}

const publicFor = (kind: ChannelKind, who: IdentityName): boolean => !kind.inviteOnly && who !== 'guest';

const ROWS: readonly FilterRow[] = [
  { label: 'defaults', params: {}, listed: (_ctx, kind, who) => publicFor(kind, who) || isSubscribedTo(kind, who) },
  { label: 'include_default', params: { include_default: true }, listed: (_ctx, kind, who) => publicFor(kind, who) || isSubscribedTo(kind, who) },
  { label: 'subscribed only', params: { include_public: false }, listed: (_ctx, kind, who) => isSubscribedTo(kind, who) },
  { label: 'public only', params: { include_subscribed: false }, listed: (_ctx, kind, who) => publicFor(kind, who) },
  { label: 'no source', params: { include_public: false, include_subscribed: false }, listed: () => false },
  // None of ours is web-public: the filter must not bring in private or public channels.
  { label: 'web-public only', params: { include_public: false, include_subscribed: false, include_web_public: true }, listed: () => false },
  {
    label: 'include_all_active before 356',
    params: { include_all_active: true },
    levels: { max: STREAM_LEVELS.INCLUDE_ALL - 1 },
    refused: (ctx, who) => !isOrgAdmin(ctx, who),
    listed: () => true,
  },
  { label: 'include_all', params: { include_all: true, include_public: false, include_subscribed: false }, levels: { min: STREAM_LEVELS.INCLUDE_ALL }, listed: (ctx, kind, who) => hasMetadata(ctx, kind, who) },
  { label: 'include_all_active from 356', params: { include_all_active: true }, levels: { min: STREAM_LEVELS.INCLUDE_ALL }, listed: (ctx, kind, who) => hasMetadata(ctx, kind, who) },
  {
    label: 'include_can_access_content',
    params: { include_can_access_content: true, include_public: false, include_subscribed: false },
    levels: { min: STREAM_LEVELS.INCLUDE_ALL },
    listed: (_ctx, kind, who) => hasContent(kind, who),
  },
];

const applies = (row: FilterRow, level: number): boolean => (row.levels?.min ?? 0) <= level && level <= (row.levels?.max ?? Infinity);

const filtersPerRole: Rule = {
  id: 'streams/filters-per-role',
  title: "GET /streams lists, for every role and filter combination, exactly those of the run's public, private and hidden channels the filters and the reader's access select; the list is sorted by name; is_default only with include_default",
  endpoint: 'GET /streams',
  section: 'api/get-streams',
  writes: true,
  needs: [...KINDS_NEEDS],
  async run(ctx) {
    const kinds = await channelKinds(ctx);
    for (const row of ROWS.filter((candidate) => applies(candidate, ctx.featureLevel))) {
      for (const who of READERS) {
        const client = ctx.as(who);
        if (row.refused?.(ctx, who)) {
          expectError(await client.get('/streams', row.params), { status: 400, code: 'BAD_REQUEST' });
          continue;
        }
        const { streams, reply } = await listStreams(client, row.params);
        const names = streams.map((entry) => String(entry.name));
        expectEqual(names, [...names].sort(byCodePoint), `the order of GET /streams (${row.label}) for the ${who}`, reply);
        for (const kind of kinds) {
          const entry = streams.find((candidate) => candidate.stream_id === kind.channel.streamId);
          const want = row.listed(ctx, kind, who);
          check(want === (entry !== undefined), `the ${kind.label} channel should ${want ? '' : 'not '}be listed for the ${who} (${row.label})`, reply);
          if (entry) checkEntry(ctx, entry, kind, row, reply);
        }
      }
    }
  },
};

function checkEntry(ctx: RuleContext, entry: JsonObject, kind: ChannelKind, row: FilterRow, reply: Reply): void {
  expectShape(entry, streamShape(ctx.featureLevel), `the ${kind.label} channel's entry`, reply);
  expectEqual([entry.name, entry.invite_only], [kind.channel.name, kind.inviteOnly], `name and invite_only of the ${kind.label} channel`, reply);
  const defaultAsked = row.params.include_default === true;
  check(defaultAsked === ('is_default' in entry), `is_default should ${defaultAsked ? '' : 'not '}be present (${row.label})`, reply);
}

const excludeArchived: Rule = {
  id: 'streams/exclude-archived',
  title: 'an archived channel is left out of GET /streams by default; from level 315 exclude_archived=false lists it (is_archived true) to who could see it, and before 315 never',
  endpoint: 'GET /streams',
  section: 'api/get-streams; changelog 315',
  writes: true,
  needs: ['admin', 'member', 'guest'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'list-archived', { members: ['member'] });
    const admin = ctx.as('admin');
    expectSuccess(await admin.delete(`/streams/${channel.streamId}`));
    const modern = ctx.featureLevel >= STREAM_LEVELS.IS_ARCHIVED;
    for (const who of ['admin', 'member', 'guest'] as const) {
      const plain = await listStreams(ctx.as(who), {});
      check(!plain.streams.some((entry) => entry.stream_id === channel.streamId), `the archived channel is listed by default for the ${who}`, plain.reply);
      const all = await listStreams(ctx.as(who), { exclude_archived: false });
      const entry = all.streams.find((candidate) => candidate.stream_id === channel.streamId);
      const want = modern && who !== 'guest';
      check(want === (entry !== undefined), `the archived channel should ${want ? '' : 'not '}be listed with exclude_archived=false for the ${who}`, all.reply);
      if (entry) expectEqual(entry.is_archived, true, 'is_archived of the archived channel', all.reply);
    }
  },
};

export const rules: readonly Rule[] = [filtersPerRole, excludeArchived];
