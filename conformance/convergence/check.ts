/**
 * One run of the convergence check: every observer registers a queue, the actions run, each
 * queue is drained up to its owner's marker, each observer registers afresh, and the state built
 * from the first register plus the events must equal the fresh one (compare.ts). A difference,
 * or an event the state contradicts, fails the run with a report naming the event, the field,
 * both values and the actions (report.ts).
 */
import type { ApiClient } from '../client/api-client.js';
import type { IdentityName } from '../credentials/types.js';
import { fail } from '../expect/assert.js';
import type { RuleContext } from '../rules/types.js';
import { compareStates } from './compare.js';
import type { Family } from './family.js';
import { GUEST_CREATE_EVENTS_LEVEL, GUEST_PEER_EVENTS_LEVEL, type Scope } from './normalize.js';
import { eventsBeforeMarker, modernCapabilities, type ObserverQueue, type RegisterParams, registerQueue } from './queues.js';
import { replayEvents } from './replay.js';
import { type ObserverOutcome, renderReport } from './report.js';
import type { ClientView, QueueEvent, State } from './types.js';

const MARKER_TYPE = 'drafts';

export function registerParams<F, A>(family: Family<F, A>, level: number): RegisterParams {
  const eventTypes = family.eventTypes(level);
  return {
    eventTypes: eventTypes.includes(MARKER_TYPE) ? eventTypes : [...eventTypes, MARKER_TYPE],
    fetchTypes: family.fetchTypes(level),
    includeSubscribers: family.includeSubscribers,
    capabilities: modernCapabilities(level),
  };
}

/** Whether the queues keep drafts (then the marker's removal must not reach a later queue). */
export const keepsDrafts = (params: RegisterParams): boolean => params.fetchTypes.includes(MARKER_TYPE);

interface Opened {
  readonly who: IdentityName;
  readonly client: ApiClient;
  readonly queue: ObserverQueue;
  readonly view: ClientView;
}

/** Message IDs of `message` events in the run's channels or among the run's users. */
function ownMessages(events: readonly QueueEvent[], channels: ReadonlySet<number>, users: ReadonlySet<number>): number[] {
  const ids: number[] = [];
  for (const event of events) {
    if (event.type !== 'message') continue;
    const message = event.message as State;
    const recipients = Array.isArray(message.display_recipient) ? (message.display_recipient as State[]).map((r) => r.id as number) : [];
    if (message.type === 'stream' ? channels.has(message.stream_id as number) : recipients.every((id) => users.has(id))) ids.push(message.id as number);
  }
  return ids;
}

/**
 * Runs `actions` and checks every observer converges. Notes (parts not compared, and why) go to
 * `notes`, which the rule reports once.
 */
export async function checkSequence<F, A>(ctx: RuleContext, family: Family<F, A>, fixture: F, actions: readonly A[], notes: Set<string>): Promise<void> {
  const params = registerParams(family, ctx.featureLevel);
  const opened: Opened[] = [];
  const log: string[] = [];
  try {
    for (const who of family.observers) {
      const client = ctx.as(who);
      const queue = await registerQueue(client, params);
      opened.push({ who, client, queue, view: { userId: ctx.identity(who).userId, featureLevel: ctx.featureLevel, capabilities: params.capabilities, includeSubscribers: params.includeSubscribers } });
    }
    if (family.restore) log.push(...(await family.restore((who) => ctx.as(who), fixture, false)));
    for (const action of actions) log.push(await family.perform(ctx, fixture, action));
    // Each observer waits for its own marker: in parallel, so delivery delays overlap.
    const drained = await Promise.all(opened.map((observer) => eventsBeforeMarker(observer.client, observer.queue, observer.who, keepsDrafts(params))));
    const fresh = await Promise.all(
      opened.map(async (observer) => {
        const again = await registerQueue(observer.client, params);
        await again.close();
        return again.state;
      }),
    );
    const owned = family.owned(ctx, fixture);
    const channelIds = new Set(owned.channelIds);
    const userIds = new Set(owned.userIds);
    const messageIds = new Set([...owned.messageIds, ...drained.flatMap((events) => ownMessages(events, channelIds, userIds))]);
    const outcomes: ObserverOutcome[] = opened.map((observer, index) => {
      const events = drained[index] as QueueEvent[];
      const replayed = replayEvents(observer.queue.state, events, observer.view);
      const scope: Scope = {
        channelIds,
        groupIds: new Set(owned.groupIds),
        userIds,
        messageIds,
        unknowableConversations: replayed.unknowable,
        guestWithoutPeerEvents: ctx.identity(observer.who).role === 'guest' && ctx.featureLevel < GUEST_PEER_EVENTS_LEVEL,
        guestWithoutCreateEvents: ctx.identity(observer.who).role === 'guest' && ctx.featureLevel < GUEST_CREATE_EVENTS_LEVEL,
      };
      const comparison = compareStates({ initial: observer.queue.state, fresh: fresh[index] as State, replayed: replayed.state, scope, deleted: replayed.deleted });
      return { who: observer.who, userId: observer.view.userId, view: observer.view, initial: observer.queue.state, events, scope, comparison, problems: replayed.problems };
    });
    for (const outcome of outcomes) for (const note of outcome.comparison.notes) notes.add(note);
    if (outcomes.some((o) => o.comparison.divergences.length > 0 || o.problems.length > 0)) fail(renderReport(outcomes, log));
  } finally {
    for (const observer of opened) await observer.queue.close();
  }
}
