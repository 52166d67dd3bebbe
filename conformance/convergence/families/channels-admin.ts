/** The administrator's changes to the run's channels in the channel family. */
import type { RuleContext } from '../../rules/types.js';
import { notArchived, streamIdOf } from '../../rules/support/channel-fixtures.js';
import { type ChannelsFixture, MAX_CREATED, type TrackedChannel } from './channels-model.js';
import { outcome } from './perform.js';

/** Renames, describes, flips history visibility (private channels) or privacy. */
export async function changeChannel(ctx: RuleContext, channel: TrackedChannel, what: 'rename' | 'describe' | 'history' | 'privacy'): Promise<string> {
  const admin = ctx.as('admin');
  const path = `/streams/${channel.id}`;
  switch (what) {
    case 'rename': {
      const name = ctx.name('convergence-renamed');
      const reply = await admin.patch(path, { new_name: name });
      if (reply.status === 200) channel.name = name;
      return outcome(`admin renames channel ${channel.id} to ${name}`, reply);
    }
    case 'describe':
      return outcome(`admin describes channel ${channel.id}`, await admin.patch(path, { description: `convergence ${ctx.name('description')}` }));
    case 'history': {
      if (!channel.isPrivate) return `admin flips the history visibility of channel ${channel.id}: skipped, a public channel's history is public`;
      const reply = await admin.patch(path, { is_private: true, history_public_to_subscribers: !channel.historyPublic });
      if (reply.status === 200) channel.historyPublic = !channel.historyPublic;
      return outcome(`admin makes the history of channel ${channel.id} ${channel.historyPublic ? 'public' : 'protected'}`, reply);
    }
    case 'privacy': {
      const isPrivate = !channel.isPrivate;
      const reply = await admin.patch(path, { is_private: isPrivate, history_public_to_subscribers: true });
      if (reply.status === 200) {
        channel.isPrivate = isPrivate;
        channel.historyPublic = true;
      }
      return outcome(`admin makes channel ${channel.id} ${isPrivate ? 'private' : 'public'}`, reply);
    }
  }
}

/** A new channel, the administrator its only subscriber; archived when the rule ends. */
export async function createInSequence(ctx: RuleContext, fixture: ChannelsFixture, isPrivate: boolean): Promise<string> {
  if (fixture.channels.length >= 2 + MAX_CREATED) return 'admin creates a channel: skipped, the rule has enough';
  const name = ctx.name('convergence-new');
  const admin = ctx.as('admin');
  const reply = await admin.post('/users/me/subscriptions', { subscriptions: [{ name, description: '' }], invite_only: isPrivate });
  if (reply.status !== 200) return outcome(`admin creates ${isPrivate ? 'private' : 'public'} channel ${name}`, reply);
  const id = await streamIdOf(admin, name);
  ctx.cleanup(`archive channel ${id}`, async (c) => {
    const archived = await c.as('admin').delete(`/streams/${id}`);
    if (archived.status !== 200) c.note(notArchived(name, archived.status));
  });
  fixture.channels.push({ id, name, isPrivate, historyPublic: true, subscribed: new Set(['admin']), ever: new Set(['admin']) });
  return `admin creates ${isPrivate ? 'private' : 'public'} channel ${id}`;
}
