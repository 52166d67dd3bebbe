/**
 * Three channels of the run, one of each kind of access, shared by the read-only channel rules
 * (`GET /streams` filters, `GET /streams/{id}`, members, email address, subscription status), and
 * the access model they are checked against (the real server's `user_has_content_access` and
 * `check_basic_stream_access`): `public` (the administrator and the member subscribed), `private`
 * (the administrator, the member and the guest) and `hidden` (private, the owner alone, so the
 * administrator has metadata access by role but no content access).
 */
import type { IdentityName } from '../../credentials/types.js';
import type { Channel } from '../support/channel-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';
import { isOrgAdmin, ownChannel } from './streams-support.js';

export interface ChannelKind {
  readonly label: 'public' | 'private' | 'hidden';
  readonly channel: Channel;
  readonly inviteOnly: boolean;
  readonly subscribers: readonly IdentityName[];
}

/** The identities the kinds are read as: every role, the guest last. */
export const READERS: readonly IdentityName[] = ['owner', 'admin', 'moderator', 'member', 'guest'];

/** What the fixture needs (a rule using it lists these). */
export const KINDS_NEEDS = ['owner', 'admin', 'moderator', 'member', 'guest'] as const;

const SPECS: ReadonlyArray<{ label: ChannelKind['label']; inviteOnly: boolean; creator: IdentityName; subscribers: IdentityName[] }> = [
  { label: 'public', inviteOnly: false, creator: 'admin', subscribers: ['admin', 'member'] },
  { label: 'private', inviteOnly: true, creator: 'admin', subscribers: ['admin', 'member', 'guest'] },
  { label: 'hidden', inviteOnly: true, creator: 'owner', subscribers: ['owner'] },
];

/** The three channels, made once per run (archived when the run ends). */
export function channelKinds(ctx: RuleContext): Promise<readonly ChannelKind[]> {
  return ctx.runShared('channel-kinds', async () => {
    const kinds: ChannelKind[] = [];
    for (const spec of SPECS) {
      const channel = await ownChannel(ctx, `kind-${spec.label}`, { inviteOnly: spec.inviteOnly, creator: spec.creator, members: spec.subscribers, scope: 'run' });
      kinds.push({ label: spec.label, channel, inviteOnly: spec.inviteOnly, subscribers: spec.subscribers });
    }
    return kinds;
  });
}

export const isSubscribedTo = (kind: ChannelKind, who: IdentityName): boolean => kind.subscribers.includes(who);

/** Content access: subscribed, or a public channel and not a guest (no group grants any on these channels). */
export const hasContent = (kind: ChannelKind, who: IdentityName): boolean => isSubscribedTo(kind, who) || (!kind.inviteOnly && who !== 'guest');

/** Metadata access: content access, or an organization administrator. */
export const hasMetadata = (ctx: RuleContext, kind: ChannelKind, who: IdentityName): boolean => hasContent(kind, who) || isOrgAdmin(ctx, who);

/**
 * A rule that reads each kind of channel as every role, one request each (`read` gets the reader,
 * the kind and the request's turn), then runs `after` once (unknown IDs and the like).
 */
export function perReaderRule(
  header: RuleHeader & { readonly endpoint: string },
  read: (ctx: RuleContext, kind: ChannelKind, who: IdentityName, turn: number) => Promise<void>,
  after: (ctx: RuleContext, kinds: readonly ChannelKind[]) => Promise<void> = async () => undefined,
): Rule {
  return fixtureRule(header, { endpoint: header.endpoint, writes: true, needs: KINDS_NEEDS }, channelKinds, async (ctx, kinds) => {
    let turn = 0;
    for (const who of READERS) for (const kind of kinds) await read(ctx, kind, who, turn++);
    await after(ctx, kinds);
  });
}
