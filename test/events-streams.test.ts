import t from 'tap';
import { type ApiEvent, checkEventsConvergeFor } from './support/apply-events.js';
import { DESDEMONA, HAMLET, IAGO, OTHELLO, POLONIUS, sortedIds } from './support/channels.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

/** A full client's channel state: the three lists with subscribers, default channels, and max_message_id for the notices. */
const CHANNELS = {
  fetchEventTypes: ['subscription', 'message', 'default_streams'],
  eventTypes: ['subscription', 'stream', 'message', 'default_streams'],
  registerParams: { include_subscribers: 'true' },
} as const;

const strip = (events: ApiEvent[] | undefined) => (events ?? []).map(({ id: _id, ...e }) => e);
const nonGuests = (s: TestServer) => activeIds(s, (u) => u.role !== 600);
const admins = (s: TestServer) => activeIds(s, (u) => u.role <= 200);
const subscribersOf = (s: TestServer, name: string) =>
  sortedIds([...s.world.subscribersOf(s.streamId(name))].filter(([id, sub]) => sub.active && s.world.users.get(id)?.isActive).map(([id]) => id));
const publicAudience = (s: TestServer, name: string) => sortedIds(new Set([...nonGuests(s), ...subscribersOf(s, name)]));
const patch = (s: TestServer, email: string, name: string, params: Record<string, unknown>) => () => s.as(email).patch(`/streams/${s.streamId(name)}`, params);

interface UpdateCase {
  readonly title: string;
  readonly channel: string;
  readonly params: (s: TestServer) => Record<string, unknown>;
  readonly actor?: string;
  readonly property: string;
  readonly value: (s: TestServer) => unknown;
  readonly extra?: Record<string, unknown>;
  /** Group settings other than the posting permission change silently. */
  readonly silent?: boolean;
}

const UPDATES: UpdateCase[] = [
  { title: 'renaming', channel: 'Denmark', params: () => ({ new_name: 'Danmark' }), property: 'name', value: () => 'Danmark', extra: { name: 'Denmark' } },
  {
    title: 'a new description',
    channel: 'Denmark',
    params: () => ({ description: 'Land of *hygge*' }),
    property: 'description',
    value: () => 'Land of *hygge*',
    extra: { rendered_description: '<p>Land of <em>hygge</em></p>' },
  },
  { title: 'a retention period', channel: 'Denmark', actor: DESDEMONA, params: () => ({ message_retention_days: 7 }), property: 'message_retention_days', value: () => 7 },
  { title: 'a topics policy', channel: 'Denmark', params: () => ({ topics_policy: 'disable_empty_topic' }), property: 'topics_policy', value: () => 'disable_empty_topic' },
  {
    title: 'a group setting',
    channel: 'Denmark',
    params: (s) => ({ can_remove_subscribers_group: JSON.stringify({ new: s.world.systemGroupId('role:moderators') }) }),
    property: 'can_remove_subscribers_group',
    value: (s) => s.world.systemGroupId('role:moderators'),
    silent: true,
  },
];

for (const c of UPDATES) {
  t.test(`${c.title}: stream/update to everyone who sees the channel, a notice in "channel events"; clients converge`, async (t) => {
    const s = testServer();
    const everyone = listenAll(s);
    const id = s.streamId(c.channel);
    const [hamlet, othello] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO), s.as(POLONIUS)], {
      ...CHANNELS,
      action: patch(s, c.actor ?? IAGO, c.channel, c.params(s)),
    });
    checkEventShapes(t, [...(hamlet ?? []), ...(othello ?? [])]);
    const update = strip(hamlet).find((e) => e.type === 'stream' && e.op === 'update');
    t.same(update, { type: 'stream', op: 'update', stream_id: id, name: c.channel, property: c.property, value: c.value(s), ...c.extra });
    const received = everyone.received();
    checkRecipients(t, received, isEvent('stream', 'update'), publicAudience(s, s.world.streams.get(id)!.name), 'stream/update');
    const notices = [...s.world.messages.values()].filter((m) => m.recipient.kind === 'stream' && m.recipient.streamId === id && m.recipient.topic === 'channel events');
    t.equal(notices.length, c.silent ? 0 : 1, 'Notification Bot notice');
  });
}

t.test('posting permission: can_send_message_group with the legacy stream_post_policy and is_announcement_only updates', async (t) => {
  const s = testServer();
  const admins = s.world.systemGroupId('role:administrators');
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], {
    ...CHANNELS,
    action: patch(s, IAGO, 'Denmark', { can_send_message_group: JSON.stringify({ new: admins }) }),
  });
  t.same(
    strip(hamlet).filter((e) => e.type === 'stream').map((e) => [e.property, e.value]),
    [
      ['can_send_message_group', admins],
      ['stream_post_policy', 2],
      ['is_announcement_only', true],
    ],
  );
  t.match([...s.world.messages.values()].at(-1)?.content, /changed the \[posting permissions\]\(\/help\/channel-posting-policy\) for this channel:\n\n\* \*\*Old\*\*: @_\*role:everyone\*\n\* \*\*New\*\*: @_\*role:administrators\*/);
});

t.test('making a private channel public: stream/create and peer_add for those who could not see it, invite_only update for the others', async (t) => {
  const s = testServer();
  await s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], invite_only: true, principals: [s.id(HAMLET)] });
  const everyone = listenAll(s);
  const [othello, hamlet, iago] = await checkEventsConvergeFor(t, [s.as(OTHELLO), s.as(HAMLET), s.as(IAGO)], {
    ...CHANNELS,
    action: patch(s, HAMLET, 'hidden', { is_private: false }),
  });
  checkEventShapes(t, [...(othello ?? []), ...(hamlet ?? []), ...(iago ?? [])]);
  t.same(strip(othello).slice(0, 2).map((e) => [e.type, e.op]), [['stream', 'create'], ['subscription', 'peer_add']]);
  t.match(strip(iago).find((e) => e.type === 'stream'), { op: 'update', property: 'invite_only', value: false, history_public_to_subscribers: true, is_web_public: false });
  const received = everyone.received();
  const sawBefore = sortedIds(new Set([s.id(HAMLET), ...admins(s)]));
  checkRecipients(t, received, isEvent('stream', 'create'), nonGuests(s).filter((u) => !sawBefore.includes(u)), 'stream/create');
  checkRecipients(t, received, isEvent('stream', 'update'), sawBefore, 'stream/update');
  t.match([...s.world.messages.values()].at(-1)?.content, /from \*\*Private, protected history\*\* to \*\*Public\*\*\./);
});

t.test('making a public channel private: invite_only update for subscribers and administrators, who converge', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(IAGO)], { ...CHANNELS, action: patch(s, IAGO, 'Denmark', { is_private: true }) });
  checkRecipients(t, everyone.received(), isEvent('stream', 'update'), sortedIds(new Set([...subscribersOf(s, 'Denmark'), ...admins(s)])), 'stream/update');
});

t.test('making a member channel administrator of a private channel: create and peer_add for them; removing it: delete', async (t) => {
  const s = testServer();
  const value = (members: number[]) => JSON.stringify({ new: { direct_members: members, direct_subgroups: [] } });
  const [othello] = await checkEventsConvergeFor(t, [s.as(OTHELLO), s.as(HAMLET)], {
    ...CHANNELS,
    action: patch(s, IAGO, 'core team', { can_administer_channel_group: value([s.id(OTHELLO)]) }),
  });
  t.same(strip(othello).map((e) => [e.type, e.op]), [['stream', 'create'], ['subscription', 'peer_add']]);
  const [lost] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], {
    ...CHANNELS,
    action: patch(s, IAGO, 'core team', { can_administer_channel_group: value([s.id(DESDEMONA)]) }),
  });
  t.same(strip(lost).map((e) => [e.type, e.op]), [['stream', 'delete']]);
});

t.test('default channels: PATCH is_default_stream and POST/DELETE /default_streams send default_streams to every non-guest', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  for (const action of [
    patch(s, IAGO, 'Denmark', { is_default_stream: true }),
    () => s.as(IAGO).delete('/default_streams', { stream_id: denmark }),
    () => s.as(IAGO).post('/default_streams', { stream_id: denmark }),
  ]) {
    const everyone = listenAll(s);
    const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], { ...CHANNELS, action });
    t.same(strip(hamlet), [{ type: 'default_streams', default_streams: sortedIds(s.world.defaultStreamIds) }]);
    checkRecipients(t, everyone.received(), isEvent('default_streams'), nonGuests(s), 'default_streams');
  }
});

t.test('archiving: is_archived update then stream/delete to everyone who saw it; the channel leaves every list; a notice is posted', async (t) => {
  const s = testServer();
  const id = s.streamId('Denmark');
  const everyone = listenAll(s);
  const [hamlet, othello] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO), s.as(POLONIUS)], {
    ...CHANNELS,
    action: () => s.as(IAGO).delete(`/streams/${id}`),
  });
  checkEventShapes(t, [...(hamlet ?? []), ...(othello ?? [])]);
  t.same(strip(hamlet).filter((e) => e.type === 'stream'), [
    { type: 'stream', op: 'update', stream_id: id, name: 'Denmark', property: 'is_archived', value: true },
    { type: 'stream', op: 'delete', streams: [{ stream_id: id }], stream_ids: [id] },
  ]);
  checkRecipients(t, everyone.received(), isEvent('stream', 'delete'), publicAudience(s, 'Denmark'), 'stream/delete');
  t.match([...s.world.messages.values()].at(-1), { content: 'Channel #**Denmark** has been archived.', recipient: { streamId: id, topic: 'channel events' } });
});

t.test('archiving before level 343: the delete event carries the whole channel', async (t) => {
  const s = testServer({ featureLevel: 342 });
  const id = s.streamId('Denmark');
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], { ...CHANNELS, action: () => s.as(IAGO).delete(`/streams/${id}`) });
  t.match(strip(hamlet).find((e) => e.op === 'delete'), { streams: [{ stream_id: id, name: 'Denmark' }] });
  t.notOk('stream_ids' in (strip(hamlet).find((e) => e.op === 'delete') ?? {}));
});

t.test('subscription properties: subscription/update to the user (in_home_view, then is_muted); the user converges', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  const data = [
    { stream_id: denmark, property: 'is_muted', value: true },
    { stream_id: denmark, property: 'color', value: '#aabbcc' },
    { stream_id: denmark, property: 'pin_to_top', value: true },
    { stream_id: denmark, property: 'desktop_notifications', value: false },
  ];
  const everyone = listenAll(s);
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], {
    ...CHANNELS,
    action: () => s.as(HAMLET).post('/users/me/subscriptions/properties', { subscription_data: data }),
  });
  checkEventShapes(t, hamlet ?? []);
  t.same(strip(hamlet).map((e) => [e.property, e.value]), [
    ['in_home_view', false],
    ['is_muted', true],
    ['color', '#aabbcc'],
    ['pin_to_top', true],
    ['desktop_notifications', false],
  ]);
  checkRecipients(t, everyone.received(), isEvent('subscription', 'update'), [s.id(HAMLET)], 'subscription/update');
});

t.test('before level 139 muting sends only the in_home_view subscription update, not is_muted; the user converges', async (t) => {
  const s = testServer({ featureLevel: 138 });
  const denmark = s.streamId('Denmark');
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], {
    ...CHANNELS,
    action: () => s.as(HAMLET).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: denmark, property: 'is_muted', value: true }] }),
  });
  t.same(strip(hamlet).map((e) => [e.property, e.value]), [['in_home_view', false]]);
});

t.test('legacy topic muting: muted_topics and user_topic events; the user converges', async (t) => {
  const s = testServer();
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], {
    fetchEventTypes: ['user_topic', 'muted_topics'],
    action: () => s.as(HAMLET).patch('/users/me/subscriptions/muted_topics', { stream_id: s.streamId('Denmark'), topic: 'lunch', op: 'add' }),
  });
  t.match(strip(hamlet), [{ type: 'user_topic', topic_name: 'lunch', visibility_policy: 1 }]);
});

t.test('unarchiving: is_archived update and stream/create to everyone who can see the channel, then the notice', async (t) => {
  const s = testServer();
  const id = s.streamId('Denmark');
  await s.as(IAGO).delete(`/streams/${id}`);
  const everyone = listenAll(s);
  t.equal((await s.as(IAGO).patch(`/streams/${id}`, { is_archived: false })).status, 200);
  const received = everyone.received();
  checkRecipients(t, received, isEvent('stream', 'update'), publicAudience(s, 'Denmark'), 'stream/update');
  checkRecipients(t, received, isEvent('stream', 'create'), publicAudience(s, 'Denmark'), 'stream/create');
  const hamlet = (received.get(s.id(HAMLET)) ?? []).filter((e) => e.type === 'stream');
  t.match(hamlet, [{ op: 'update', property: 'is_archived', value: false }, { op: 'create', streams: [{ stream_id: id, is_archived: false }] }]);
  t.equal([...s.world.messages.values()].at(-1)?.content, 'Channel #**Denmark** has been unarchived.');
});

t.test('archiving the new-channel announcements channel unsets that realm setting (realm update_dict, -1); clients converge', async (t) => {
  const s = testServer();
  const id = s.streamId('Verona');
  t.equal(s.world.realm.newStreamAnnouncementsStreamId, id, 'the development realm announces new channels in Verona');
  const everyone = listenAll(s);
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(POLONIUS)], {
    fetchEventTypes: ['realm', 'default_streams'],
    eventTypes: ['realm', 'default_streams'],
    action: () => s.as(IAGO).delete(`/streams/${id}`),
  });
  t.match(strip(hamlet).find((e) => e.type === 'realm'), { op: 'update_dict', property: 'default', data: { new_stream_announcements_stream_id: -1 } });
  t.equal(s.world.realm.newStreamAnnouncementsStreamId, null);
  checkRecipients(t, everyone.received(), isEvent('realm', 'update_dict'), activeIds(s), 'realm/update_dict');
});
