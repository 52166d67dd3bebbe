/**
 * The event-convergence rules prove their power: against each deliberately broken variant of our
 * server (an event missing, duplicated, carrying one wrong field, or sent to a queue that should
 * not get it; a register answer that omits what the events added) the family's rule fails, and
 * its divergence report names the field and the event (or that no event changed the field).
 * Against the unbroken server every family converges at levels 415, 289 and 207.
 */
import fc from 'fast-check';
import t from 'tap';
import type { ChatApp } from '../server/app/app.js';
import { failedIds, type Mutation, runOnReference } from './support/conformance.js';
import { mapAnswers, mapEvents, passesUnbroken, replaceEvents } from './support/power-mutations.js';

const RULE = {
  messages: 'event-convergence/messages',
  personal: 'event-convergence/personal',
  groups: 'event-convergence/user-groups',
  channels: 'event-convergence/channels',
} as const;

type Event = Record<string, unknown>;

/** Delivers each event `when` picks twice (same ID), as a queue replaying an event would. */
const duplicated = (when: (event: Event) => boolean): Mutation =>
  mapAnswers('GET', /^\/events$/, (body) => {
    if (Array.isArray(body.events)) body.events = (body.events as Event[]).flatMap((event) => (when(event) ? [event, { ...event }] : [event]));
  });

/** Drops the events `when` picks (never a marker draft: drafts are not dropped here). */
const dropped = (type: string, when: (event: Event) => boolean = () => true): Mutation => replaceEvents(type, (event) => (when(event) ? undefined : event));

const patchedHubs = new WeakSet<object>();

/** Every direct message's event also reaches the administrator (iago), who is not a recipient. */
const directMessagesAlsoToAdmin: Mutation = (request, next, app: ChatApp) => {
  const hub = app.world.events;
  if (!patchedHubs.has(hub)) {
    patchedHubs.add(hub);
    const send = hub.send.bind(hub);
    const iago = app.world.usersByEmail.get('iago@zulip.com')?.id ?? 0;
    hub.send = (event, recipients) => {
      const direct = event.type === 'message' && (event.message as Event | undefined)?.type === 'private';
      send(event, direct && Array.isArray(recipients) && !recipients.includes(iago) ? [...recipients, iago] : recipients);
    };
  }
  return next(request);
};

const unreadIds = (groups: unknown): number => (Array.isArray(groups) ? (groups as Event[]).reduce((n, g) => n + (g.unread_message_ids as unknown[]).length, 0) : 0);

interface ConvergenceBreakage {
  readonly what: string;
  readonly rule: string;
  readonly mutate: Mutation;
  /** What the divergence report must name (the field, the event). */
  readonly names: readonly RegExp[];
}

const NO_EVENT = /no event changed it/;

const BREAKAGES: readonly ConvergenceBreakage[] = [
  { what: 'message events never arrive', rule: RULE.messages, mutate: dropped('message'), names: [/unread_msgs|max_message_id/, NO_EVENT] },
  {
    what: 'starring a message is announced twice',
    rule: RULE.messages,
    mutate: duplicated((e) => e.type === 'update_message_flags' && e.flag === 'starred' && e.op === 'add'),
    names: [/starred_messages/, /update_message_flags\/add starred/],
  },
  {
    what: "a move's orig_subject names a topic the messages were not in",
    rule: RULE.messages,
    mutate: mapEvents('update_message', (e) => void (typeof e.orig_subject === 'string' && (e.orig_subject = 'stale topic'))),
    names: [/event #\d+ update_message/, /orig_subject/, /"stale topic"/],
  },
  {
    what: 'a topic move announces the wrong new topic',
    rule: RULE.messages,
    mutate: mapEvents('update_message', (e) => void (typeof e.subject === 'string' && (e.subject = `${e.subject} wrong`))),
    names: [/unread_msgs\.streams\[channel \d+ topic/, /update_message/],
  },
  // The report names what the deletion should have removed (the entry, or the message ID in it).
  { what: 'deletions are not announced', rule: RULE.messages, mutate: dropped('delete_message'), names: [/(unread_msgs|starred_messages|max_message_id)\S*/] },
  {
    what: 'marking messages unread leaves out message_details',
    rule: RULE.messages,
    mutate: mapEvents('update_message_flags', (e) => void (e.op === 'remove' && e.flag === 'read' && (e.message_details = {}))),
    names: [/unread_msgs/],
  },
  { what: "a direct message's event also reaches the administrator, no recipient", rule: RULE.messages, mutate: directMessagesAlsoToAdmin, names: [/admin \(user \d+\)/, /#\d+ message /] },
  {
    what: "register's unread count leaves out direct messages",
    rule: RULE.messages,
    mutate: mapAnswers('POST', /^\/register$/, (body) => {
      const unread = body.unread_msgs as Event | undefined;
      if (unread) unread.count = (unread.count as number) - unreadIds(unread.pms) - unreadIds(unread.huddles);
    }),
    names: [/unread_msgs\.count \(a total\)/],
  },
  {
    what: "register's starred_messages leaves out the newest starred message",
    rule: RULE.messages,
    mutate: mapAnswers('POST', /^\/register$/, (body) => {
      if (Array.isArray(body.starred_messages)) body.starred_messages = [...(body.starred_messages as number[])].sort((a, b) => a - b).slice(0, -1);
    }),
    names: [/starred_messages/],
  },
  { what: 'settings changes are not announced', rule: RULE.personal, mutate: dropped('user_settings'), names: [/user_settings\.[a-z_]+/, NO_EVENT] },
  { what: 'alert word changes are not announced', rule: RULE.personal, mutate: dropped('alert_words'), names: [/alert_words/, NO_EVENT] },
  {
    what: 'a status event carries another text',
    rule: RULE.personal,
    mutate: mapEvents('user_status', (e) => void (typeof e.status_text === 'string' && e.status_text !== '' && (e.status_text = `${e.status_text} (wrong)`))),
    names: [/user_status\[user \d+\]/, /user_status \(event id/],
  },
  {
    what: "a draft's event carries other content than the draft has",
    rule: RULE.personal,
    mutate: mapEvents('drafts', (e) => {
      // The marker drafts that bound each queue are left alone.
      const stale = (draft: Event) => (String(draft.content).startsWith('convergence draft') ? { ...draft, content: 'stale content' } : draft);
      if (e.op === 'update') e.draft = stale(e.draft as Event);
      if (e.op === 'add') e.drafts = (e.drafts as Event[]).map(stale);
    }),
    names: [/drafts\[id \d+\]\.content/, /drafts\/(add|update)/],
  },
  {
    what: 'a topic policy event carries another policy',
    rule: RULE.personal,
    mutate: mapEvents('user_topic', (e) => void (e.visibility_policy !== 0 && (e.visibility_policy = ((e.visibility_policy as number) % 3) + 1))),
    names: [/user_topics\[channel \d+ topic "[a-z]+"\]\.visibility_policy/, /user_topic/],
  },
  { what: 'muting is not announced', rule: RULE.personal, mutate: dropped('muted_users'), names: [/muted_users/, NO_EVENT] },
  { what: 'new saved snippets are not announced', rule: RULE.personal, mutate: dropped('saved_snippets', (e) => e.op === 'add'), names: [/saved_snippets\[id \d+\]/] },
  {
    what: 'add_members leaves out a user',
    rule: RULE.groups,
    mutate: mapEvents('user_group', (e) => void (e.op === 'add_members' && (e.user_ids = (e.user_ids as number[]).slice(1)))),
    names: [/realm_user_groups\[group \d+\]\.members/, /user_group\/add_members/],
  },
  {
    what: 'adding members is announced twice',
    rule: RULE.groups,
    mutate: duplicated((e) => e.type === 'user_group' && e.op === 'add_members'),
    names: [/realm_user_groups\[group \d+\]\.members/, /user_group\/add_members/],
  },
  {
    what: 'a group rename event carries another name',
    rule: RULE.groups,
    mutate: mapEvents('user_group', (e) => void (e.op === 'update' && typeof (e.data as Event).name === 'string' && ((e.data as Event).name = 'wrong name'))),
    names: [/realm_user_groups\[group \d+\]\.name/, /user_group\/update/],
  },
  {
    what: 'a subscription property event carries another value',
    rule: RULE.channels,
    mutate: mapEvents('subscription', (e) => void (e.op === 'update' && (e.value = typeof e.value === 'boolean' ? !e.value : '#000000'))),
    names: [/subscriptions\[channel \d+\]\.[a-z_]+/, /subscription\/update/],
  },
  { what: 'peer_add events never arrive', rule: RULE.channels, mutate: dropped('subscription', (e) => e.op === 'peer_add'), names: [/\.subscribers/] },
  { what: 'renames are not announced', rule: RULE.channels, mutate: dropped('stream', (e) => e.op === 'update' && e.property === 'name'), names: [/\[channel \d+\]\.name/, NO_EVENT] },
  { what: 'leaving a channel is not announced to the user', rule: RULE.channels, mutate: dropped('subscription', (e) => e.op === 'remove'), names: [/subscriptions\[channel \d+\]|unsubscribed\[channel \d+\]/] },
];

passesUnbroken('every event-convergence rule', Object.values(RULE), [415, 289, 207], 8, 4);

for (const breakage of BREAKAGES) {
  t.test(`${breakage.rule} fails when ${breakage.what}, and its report names the field and the event`, async (t) => {
    // Only whether the variant is caught matters: its first failing sequence is reported as it is,
    // not shrunk (each shrinking step is a whole sequence against the server). Test files share a
    // process, so fast-check's global settings are put back afterwards.
    const settings = fc.readConfigureGlobal();
    fc.configureGlobal({ ...settings, endOnFailure: true });
    const result = await runOnReference({ mutate: breakage.mutate, numRuns: 8, seed: 3, only: [breakage.rule] }).finally(() => fc.configureGlobal(settings));
    t.same(failedIds(result), [breakage.rule]);
    const report = result.results.find((r) => r.id === breakage.rule)?.failure?.message ?? '';
    for (const name of breakage.names) t.match(report, name);
  });
}

t.test('against a target refusing drafts (synchronization turned off) the rules are skipped, saying no marker bounds the queues', async (t) => {
  const refuseDrafts: Mutation = (request, next) =>
    request.method === 'POST' && request.path === '/api/v1/drafts'
      ? Promise.resolve({ status: 400, headers: { 'content-type': 'application/json' }, body: '{"result":"error","msg":"User has disabled synchronizing drafts.","code":"BAD_REQUEST"}\n' })
      : next(request);
  const result = await runOnReference({ mutate: refuseDrafts, numRuns: 2, seed: 1, only: [RULE.groups] });
  const outcome = result.results.find((r) => r.id === RULE.groups);
  t.equal(outcome?.outcome, 'skipped');
  t.match(outcome?.skipReason ?? '', /cannot save drafts.*no marker bounds its queue/);
});
