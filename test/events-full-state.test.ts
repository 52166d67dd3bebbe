import t from 'tap';
import { checkEventsConvergeFor, type ConvergenceCheck, MODERN_CAPABILITIES, type State } from './support/apply-events.js';
import { CORDELIA, HAMLET, IAGO, OTHELLO, POLONIUS } from './support/channels.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const common: Pick<ConvergenceCheck, 'fetchEventTypes' | 'ignore' | 'setAside'> = {
  fetchEventTypes: null,
  // The register value moves with every presence write; clients track it through the presence endpoint.
  ignore: ['presence_last_update_id'],
  // Clients fill in first_message_id from message events on their subscriptions only (the real
  // server's apply_event too), so a channel never subscribed to learns it at the next register.
  setAside: (state: State) => {
    for (const channel of (state.never_subscribed ?? []) as State[]) channel.first_message_id = null;
    // The same channels in the register `streams` list.
    const neverSubscribed = new Set(((state.never_subscribed ?? []) as State[]).map((channel) => channel.stream_id));
    for (const channel of (state.streams ?? []) as State[]) if (neverSubscribed.has(channel.stream_id)) channel.first_message_id = null;
  },
};

/** Many operations by several users, each checked to succeed. */
async function dayOfActivity(s: TestServer): Promise<void> {
  const ok = async (reply: Promise<{ status: number; text: string }>) => {
    const r = await reply;
    if (r.status !== 200) throw new Error(r.text);
    return r;
  };
  s.clock.advance(140_000);
  await ok(s.as(HAMLET).post('/users/me/presence', { status: 'active' }));
  await ok(s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: [{ name: 'garden' }], principals: [s.id(HAMLET), s.id(CORDELIA)], announce: true }));
  const sent = await ok(s.as(OTHELLO).post('/messages', { type: 'stream', to: 'garden', topic: 'roses', content: 'hello' }));
  const messageId = JSON.parse(sent.text).id as number;
  await ok(s.as(OTHELLO).patch(`/messages/${messageId}`, { content: 'hello there' }));
  await ok(s.as(HAMLET).post('/mark_topic_as_read', { stream_id: s.streamId('garden'), topic_name: 'roses' }));
  await ok(s.as(HAMLET).post('/typing', { op: 'start', type: 'stream', stream_id: s.streamId('garden'), topic: 'roses' }));
  await ok(s.as(HAMLET).post('/user_groups/create', { name: 'gardeners', description: 'green thumbs', members: [s.id(HAMLET), s.id(POLONIUS)] }));
  await ok(s.as(HAMLET).post('/users/me/status', { status_text: 'weeding' }));
  await ok(s.as(HAMLET).post('/user_topics', { stream_id: s.streamId('Verona'), topic: 'noise', visibility_policy: 1 }));
  await ok(s.as(IAGO).post('/realm/filters', { pattern: 'G(?P<id>[0-9]+)', url_template: 'https://garden.example.com/{id}' }));
  await ok(s.as(IAGO).patch('/realm/user_settings_defaults', { twenty_four_hour_time: true }));
  await ok(s.as(HAMLET).post('/drafts', { drafts: [{ type: 'stream', to: [s.streamId('Verona')], topic: 'x', content: 'draft' }] }));
  await ok(s.as(HAMLET).post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: true }));
  await ok(s.as(HAMLET).post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: Math.floor(s.clock.now() / 1000) + 3600 }));
  await ok(s.as(IAGO).delete(`/users/${s.id(OTHELLO)}`));
  await ok(s.as(HAMLET).delete('/users/me/subscriptions', { subscriptions: ['garden'] }));
}

t.test('a modern client following every event ends up where a fresh register of everything starts', async (t) => {
  const s = testServer();
  const results = await checkEventsConvergeFor(t, [s.as(IAGO), s.as(HAMLET), s.as(POLONIUS)], {
    ...common,
    registerParams: {
      include_subscribers: 'true',
      client_capabilities: {
        ...MODERN_CAPABILITIES,
        linkifier_url_template: true,
        stream_typing_notifications: true,
        bulk_message_deletion: true,
        include_deactivated_groups: true,
        simplified_presence_events: true,
      },
    },
    action: () => dayOfActivity(s),
  });
  for (const events of results) checkEventShapes(t, events);
});

t.test('a legacy client (no capabilities, legacy presence, no subscriber lists) converges too', async (t) => {
  const s = testServer();
  await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(CORDELIA)], {
    ...common,
    registerParams: { client_capabilities: { notification_settings_null: false } },
    action: () => dayOfActivity(s),
  });
});
