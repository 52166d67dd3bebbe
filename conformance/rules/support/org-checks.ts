/**
 * Checks the organization rules share (custom profile fields, emoji, playgrounds, invitations,
 * group updates, realm settings, exports), on event streams (`event-stream.ts`): the next
 * matching event, none before a sentinel, a queue settled before a change; and the refusals of
 * the real server's permission decorators.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { check, expectEqual } from '../../expect/assert.js';
import type { EventStream } from './event-stream.js';

/** The next event of `stream` that `matches` (earlier unread ones, delivered late, are passed over); fails naming `what`. */
export async function awaitEvent(stream: EventStream, matches: (event: JsonObject) => boolean, what: string): Promise<JsonObject> {
  return (await stream.next(matches, `the event showing ${what}`)).event;
}

/**
 * Proves that no event `unwanted` accepts reached the stream before the sentinel that `send`
 * causes (events reach a queue in the order they were sent).
 */
export async function expectNoEventBefore(
  stream: EventStream,
  unwanted: (event: JsonObject) => boolean,
  sentinel: { readonly send: () => Promise<void>; readonly is: (event: JsonObject) => boolean; readonly what: string },
  why: string,
): Promise<void> {
  await sentinel.send();
  const { before } = await stream.next(sentinel.is, `the sentinel event (${sentinel.what})`);
  expectEqual(before.filter(unwanted), [], `events after ${why}`);
}

/**
 * The refusal of an action reserved to administrators or owners: HTTP 400, `UNAUTHORIZED_PRINCIPAL`
 * (the real server's `OrganizationAdministratorRequiredError` and `OrganizationOwnerRequiredError`)
 * or `BAD_REQUEST` (older servers, and checks that raise a plain error).
 */
export function expectPrivilegeRefused(reply: Reply, what: string): void {
  const code = reply.body?.code;
  check(
    reply.status === 400 && reply.body?.result === 'error' && (code === 'UNAUTHORIZED_PRINCIPAL' || code === 'BAD_REQUEST'),
    `${what} should be refused with HTTP 400 UNAUTHORIZED_PRINCIPAL or BAD_REQUEST; answered HTTP ${reply.status} ${String(code ?? '')}`,
    reply,
  );
}

/** Success when `allowed`, else the privilege refusal; says who did what in the failure. */
export function expectPrivileged(reply: Reply, allowed: boolean, what: string): void {
  if (allowed) check(reply.status === 200, `${what} should be allowed; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  else expectPrivilegeRefused(reply, what);
}

/** A draft of `client` whose `drafts` event marks a point in its queues; deleted afterwards. */
export function draftSentinel(client: ApiClient, label: string): { readonly send: () => Promise<void>; readonly is: (event: JsonObject) => boolean; readonly what: string; readonly remove: () => Promise<void> } {
  const content = `${label} sentinel ${Date.now().toString(36)}`;
  let id: number | undefined;
  return {
    what: `a draft saved by the queue's owner (${label})`,
    async send() {
      const reply = await client.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content }] });
      const ids = reply.body?.ids;
      check(reply.status === 200 && Array.isArray(ids) && typeof ids[0] === 'number', 'saving the sentinel draft failed', reply);
      id = ids[0] as number;
    },
    is: (event) => event.type === 'drafts' && event.op === 'add' && JSON.stringify(event.drafts ?? []).includes(JSON.stringify(content)),
    async remove() {
      if (id !== undefined) await client.delete(`/drafts/${id}`);
    },
  };
}

/**
 * Consumes whatever reached `stream` so far (events of earlier rules a production server delivers
 * late included): `client`, the queue's owner, saves a draft and the stream is read up to its
 * event. The queue must take `drafts` events.
 */
export async function settleQueue(stream: EventStream, client: ApiClient, label: string): Promise<void> {
  const marker = draftSentinel(client, label);
  await marker.send();
  await stream.next(marker.is, marker.what);
  await marker.remove();
}
