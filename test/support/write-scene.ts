/**
 * The development realm with one of each thing a write can name, owned by someone who is none of
 * the callers (othello, a member), for the authorization tables (test/support/write-auth-*.ts):
 * a private channel only he is in, an archived channel, his messages (in a public channel, in his
 * private channel, and a direct message between two other users; he reacted to the first with
 * `octopus`), his group and a deactivated
 * one, his draft, reminder, scheduled message, snippet, upload, navigation view, bot, invitation and custom emoji,
 * and a deactivated user. Each role calls as one development user.
 */
import { basic, Client, type Reply, testServer, type TestServer } from './harness.js';

export const ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot'] as const;
export type Role = (typeof ROLES)[number];

const CALLERS: Readonly<Record<Role, string>> = {
  owner: 'desdemona@zulip.com',
  administrator: 'iago@zulip.com',
  moderator: 'shiva@zulip.com',
  member: 'hamlet@zulip.com',
  guest: 'polonius@zulip.com',
  bot: 'default-bot@zulip.com',
};

const OTHELLO = 'othello@zulip.com';

export interface Scene {
  readonly s: TestServer;
  as(role: Role): Client;
  id(role: Role): number;
  /** othello: the owner of everything below. */
  readonly other: number;
  /** prospero, deactivated. */
  readonly deactivated: number;
  /** A public channel every human caller but the guest is in. */
  readonly denmark: number;
  /** A private channel only othello is in. */
  readonly secret: number;
  /** A public channel only othello is in. */
  readonly lonely: number;
  readonly archived: number;
  /** othello's message in Verona (every human caller is subscribed). */
  readonly message: number;
  readonly secretMessage: number;
  /** othello to cordelia: no caller is a participant. */
  readonly directMessage: number;
  /** A default channel. */
  readonly defaultChannel: number;
  /** A default channel group holding Rome. */
  readonly streamGroup: number;
  readonly group: number;
  readonly deactivatedGroup: number;
  /** role:members. */
  readonly systemGroup: number;
  readonly draft: number;
  readonly reminder: number;
  readonly scheduledMessage: number;
  readonly snippet: number;
  readonly attachment: number;
  /** The fragment of othello's navigation view. */
  readonly view: string;
  readonly bot: number;
  readonly invite: number;
  readonly multiuseInvite: number;
  readonly export: number;
  readonly emoji: string;
  readonly linkifier: number;
  readonly playground: number;
  readonly profileField: number;
  readonly channelFolder: number;
  /** A custom profile field administrators made not editable by users. */
  readonly lockedField: number;
}

async function ok(reply: Promise<Reply>, what: string): Promise<Record<string, unknown>> {
  const answer = await reply;
  if (answer.status !== 200) throw new Error(`scene: ${what}: ${answer.status} ${answer.text}`);
  return answer.body as Record<string, unknown>;
}

async function uploadAs(client: Client, name: string, bytes: Uint8Array, path = '/user_uploads', type = 'text/plain'): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const response = new Response(form);
  const rawBody = { contentType: response.headers.get('content-type') as string, body: new Uint8Array(await response.arrayBuffer()) };
  return ok(client.post(path, {}, { rawBody }), `upload ${name}`);
}

/** A 1x1 PNG, for the custom emoji. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export async function buildScene(): Promise<Scene> {
  const s = testServer();
  const othello = s.as(OTHELLO);
  const iago = s.as('iago@zulip.com');
  const other = s.id(OTHELLO);
  await ok(othello.post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true }), 'private channel');
  await ok(othello.post('/users/me/subscriptions', { subscriptions: [{ name: 'lonely' }] }), 'public channel');
  await ok(iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'archived' }] }), 'channel to archive');
  const archived = s.streamId('archived');
  // Reports need a moderation request channel (a private one).
  await ok(iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'moderation' }], invite_only: true }), 'moderation channel');
  await ok(iago.patch('/realm', { moderation_request_channel_id: s.streamId('moderation') }), 'moderation request channel');
  await ok(iago.delete(`/streams/${archived}`), 'archive');
  const send = async (params: Record<string, unknown>) => (await ok(othello.post('/messages', params), 'message')).id as number;
  const message = await send({ type: 'stream', to: 'Verona', topic: 'his topic', content: 'othello writes' });
  const secretMessage = await send({ type: 'stream', to: 'secret', topic: 'hidden', content: 'secret words' });
  const directMessage = await send({ type: 'direct', to: [s.id('cordelia@zulip.com')], content: 'between us' });
  await ok(othello.post(`/messages/${message}/reactions`, { emoji_name: 'octopus' }), 'reaction');
  const group = (await ok(othello.post('/user_groups/create', { name: 'writers', description: 'his', members: [other] }), 'group')).group_id as number;
  const retired = (await ok(othello.post('/user_groups/create', { name: 'retired', description: 'gone', members: [other] }), 'group')).group_id as number;
  await ok(othello.post(`/user_groups/${retired}/deactivate`), 'deactivate group');
  const draft = ((await ok(othello.post('/drafts', { drafts: [{ type: 'stream', to: [s.streamId('Verona')], topic: 't', content: 'his draft', timestamp: 1_700_000_000 }] }), 'draft')).ids as number[])[0] as number;
  const scheduledMessage = (await ok(othello.post('/scheduled_messages', { type: 'stream', to: String(s.streamId('secret')), topic: 'later', content: 'later', scheduled_delivery_timestamp: Math.floor(s.clock.now() / 1000) + 86_400 }), 'scheduled message')).scheduled_message_id as number;
  const reminder = (await ok(othello.post('/reminders', { message_id: message, scheduled_delivery_timestamp: Math.floor(s.clock.now() / 1000) + 86_400 }), 'reminder')).reminder_id as number;
  const snippet = (await ok(othello.post('/saved_snippets', { title: 'his', content: 'snippet' }), 'snippet')).saved_snippet_id as number;
  await uploadAs(othello, 'his.txt', Buffer.from('his file'));
  const attachment = [...s.world.attachments.values()].find((entry) => entry.ownerId === other)!.id;
  const view = 'narrow/channel/4-Denmark';
  await ok(othello.post('/navigation_views', { fragment: view, is_pinned: true, name: 'his view' }), 'navigation view');
  const bot = (await ok(othello.post('/bots', { full_name: 'His Bot', short_name: 'his' }), 'bot')).user_id as number;
  await ok(othello.post('/invites', { invitee_emails: 'friend@example.com', stream_ids: [s.streamId('Verona')], invite_expires_in_minutes: 60 }), 'invite');
  const invite = [...s.world.invites.keys()][0] as number;
  await ok(iago.post('/invites/multiuse', { stream_ids: [], invite_expires_in_minutes: 60 }), 'invitation link');
  const multiuseInvite = [...s.world.multiuseInvites.keys()][0] as number;
  const exported = (await ok(iago.post('/export/realm'), 'export')).id as number;
  await uploadAs(othello, 'his.png', PNG, '/realm/emoji/his_emoji', 'image/png');
  const linkifier = [...s.world.linkifiers.keys()][0] as number;
  const playground = (await ok(iago.post('/realm/playgrounds', { name: 'Python', pygments_language: 'Python', url_template: 'https://python.example/?code={code}' }), 'playground')).id as number;
  await ok(iago.post('/default_stream_groups/create', { group_name: 'newcomers', description: '', stream_names: ['Rome'] }), 'default channel group');
  const streamGroup = [...s.world.defaultStreamGroups.keys()][0] as number;
  const profileField = (s.world.customProfileFields[0] as { id: number }).id;
  const channelFolder = (await ok(iago.post('/channel_folders/create', { name: 'Folder', description: '' }), 'channel folder')).channel_folder_id as number;
  const lockedField = (s.world.customProfileFields[1] as { id: number }).id;
  await ok(iago.patch(`/realm/profile_fields/${lockedField}`, { editable_by_user: false }), 'lock a profile field');
  const deactivated = s.id('prospero@zulip.com');
  await ok(iago.delete(`/users/${deactivated}`), 'deactivate user');
  return {
    s,
    as: (role) => (role === 'bot' ? new Client(s.app, basic(CALLERS.bot, s.world.usersByEmail.get(CALLERS.bot)!.apiKey)) : s.as(CALLERS[role])),
    id: (role) => s.id(CALLERS[role]),
    other,
    deactivated,
    denmark: s.streamId('Denmark'),
    secret: s.streamId('secret'),
    lonely: s.streamId('lonely'),
    archived,
    message,
    secretMessage,
    directMessage,
    defaultChannel: [...s.world.defaultStreamIds][0] as number,
    streamGroup,
    group,
    deactivatedGroup: retired,
    systemGroup: s.world.systemGroupId('role:members'),
    draft,
    reminder,
    scheduledMessage,
    snippet,
    attachment,
    view,
    bot,
    invite,
    multiuseInvite,
    export: exported,
    emoji: 'his_emoji',
    linkifier,
    playground,
    profileField,
    channelFolder,
    lockedField,
  };
}
