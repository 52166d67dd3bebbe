/**
 * `update_message` events of content edits (api/get-events): each queue of a user who can read
 * the message receives exactly one, with every documented field (the IDs, the editor, the edit
 * time equal to the message's `last_edit_timestamp`, the old and new raw and rendered content,
 * the reader's own flags, the channel, and no move fields); users who cannot read it (outside a
 * private channel, the guest outside a direct message) receive none, checked against a marker.
 */
import type { JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { expectEqual } from '../../expect/assert.js';
import { v, type Validator } from '../../expect/shape.js';
import type { EventQueue } from '../support/channel-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { expectEditSuccess } from './message-edit.js';
import { EDIT_LEVELS, editChannels, eventsAbout, eventsBeforeMarker, markedQueue, memberMessageRule, mustRead, oneEvent, send, sendDirect } from './message-edit-support.js';

/** Fields only moves carry: never in a content edit's event. */
export const MOVE_FIELDS = ['propagate_mode', 'orig_subject', 'subject', 'topic_links', 'new_stream_id'];
/** Fields only content edits carry. */
export const CONTENT_FIELDS = ['orig_content', 'orig_rendered_content', 'content', 'rendered_content', 'is_me_message'];

/** The fields every `update_message` has (api/get-events: required), with the editor. */
export function updateEventBase(ctx: RuleContext, editorId: number) {
  return {
    type: v.literal('update_message'),
    id: v.int(),
    message_id: v.int(),
    message_ids: v.array(v.int(), { minLength: 1 }),
    user_id: v.literal(editorId),
    edit_timestamp: v.int(),
    flags: v.array(v.string()),
    ...(ctx.featureLevel >= EDIT_LEVELS.RENDERING_ONLY ? { rendering_only: v.literal(false) } : {}),
  };
}

interface Reader {
  readonly who: IdentityName;
  readonly queue: EventQueue;
}

async function readers(ctx: RuleContext, who: readonly IdentityName[]): Promise<Reader[]> {
  const list: Reader[] = [];
  for (const name of who) list.push({ who: name, queue: await markedQueue(ctx, ctx.as(name), ['update_message']) });
  return list;
}

interface ContentCase {
  readonly what: string;
  readonly id: number;
  /** The raw content it was sent with (already in normal form). */
  readonly original: string;
  readonly channel: { readonly id: number; readonly name: string } | undefined;
  readonly sees: readonly IdentityName[];
  readonly blind: readonly IdentityName[];
}

/** Edits the case's message as its sender (the member) and checks every reader's queue. */
async function checkContentEdit(ctx: RuleContext, queues: readonly Reader[], edit: ContentCase): Promise<void> {
  const member = ctx.as('member');
  // The rendered content before and after, as GET /messages shows it, only where some reader sees the edit.
  const beforeHtml = edit.sees.length === 0 ? undefined : await mustRead(member, edit.id, true);
  const content = `${ctx.name('edited')} **bold**`;
  expectEditSuccess(ctx, await member.patch(`/messages/${edit.id}`, { content }));
  const afterHtml = edit.sees.length === 0 ? undefined : await mustRead(member, edit.id, true);
  for (const { who, queue } of queues) {
    if (!edit.sees.includes(who) && !edit.blind.includes(who)) continue;
    const client = ctx.as(who);
    const events = eventsAbout(await eventsBeforeMarker(client, queue), 'update_message', edit.id);
    const label = `update_message events in the ${who}'s queue (${edit.what})`;
    if (edit.blind.includes(who)) {
      expectEqual(events.length, 0, `${label}: the ${who} cannot read the message`);
      continue;
    }
    const channelFields: Record<string, Validator<unknown>> = edit.channel === undefined ? {} : ctx.featureLevel >= EDIT_LEVELS.STREAM_ID_ALWAYS ? { stream_id: v.literal(edit.channel.id), stream_name: v.literal(edit.channel.name) } : {};
    const shape = v.object(
      {
        ...updateEventBase(ctx, ctx.identity('member').userId),
        message_id: v.literal(edit.id),
        message_ids: v.refine(v.array(v.int()), `[${edit.id}]`, (ids) => ids.length === 1 && ids[0] === edit.id),
        orig_content: v.literal(edit.original),
        content: v.literal(content),
        orig_rendered_content: v.literal(beforeHtml!.content),
        rendered_content: v.literal(afterHtml!.content),
        is_me_message: v.literal(false),
        ...channelFields,
      },
      { forbidden: [...MOVE_FIELDS, ...(edit.channel === undefined ? ['stream_id', 'stream_name'] : [])] },
    );
    const event = oneEvent(events, shape, label) as unknown as JsonObject;
    expectEqual(event.edit_timestamp, afterHtml!.lastEditTimestamp, `${label}: edit_timestamp (the message's last_edit_timestamp)`);
    const flags = (await mustRead(client, edit.id)).flags;
    expectEqual([...(event.flags as string[])].sort(), [...flags].sort(), `${label}: flags (the ${who}'s flags of the message)`);
  }
}

const contentEditEvents: Rule = {
  id: 'message-edit/content-edit-event-per-reader',
  title: "a content edit sends each reader's queue exactly one update_message with message_id, message_ids [id], the editor as user_id, edit_timestamp equal to last_edit_timestamp, orig_content/content and orig_rendered_content/rendered_content as GET /messages showed them, is_me_message, the reader's flags, stream_id and stream_name for channel messages (content-only edits from level 112) and no move fields; users who cannot read the message get none",
  endpoint: 'PATCH /messages/{message_id}',
  section: 'api/get-events (update_message); api/update-message',
  levels: { min: EDIT_LEVELS.DRAFTS },
  writes: true,
  needs: ['admin', 'member', 'second-member', 'guest'],
  async run(ctx) {
    const { open, secret } = await editChannels(ctx);
    const member = ctx.as('member');
    const queues = await readers(ctx, ['second-member', 'guest']);
    const topic = ctx.name('topic');
    const original = ctx.name('original');
    const cases: ContentCase[] = [
      { what: 'public channel message', id: await send(member, open, topic, original), original, channel: open, sees: ['second-member', 'guest'], blind: [] },
      { what: 'private channel message', id: await send(member, secret, topic, original), original, channel: secret, sees: [], blind: ['second-member', 'guest'] },
      { what: 'direct message', id: await sendDirect(member, [ctx.identity('second-member').userId], original), original, channel: undefined, sees: ['second-member'], blind: ['guest'] },
    ];
    for (const edit of cases) await checkContentEdit(ctx, queues, edit);
  },
};

const meMessage = memberMessageRule(
  {
    id: 'message-edit/me-message-flag-in-event',
    title: 'editing a message into a /me status message gives is_me_message true in the update_message event, and back to plain text false',
    section: 'api/get-events (update_message is_me_message)',
    levels: { min: EDIT_LEVELS.DRAFTS },
    needs: ['second-member'],
  },
  async (ctx, { member, id }) => {
    const [reader] = await readers(ctx, ['second-member']);
    for (const [content, me] of [[`/me ${ctx.name('waves')}`, true], [ctx.name('plain'), false]] as const) {
      expectEditSuccess(ctx, await member.patch(`/messages/${id}`, { content }));
      const events = eventsAbout(await eventsBeforeMarker(ctx.as('second-member'), reader!.queue), 'update_message', id);
      oneEvent(events, v.object({ is_me_message: v.literal(me) }), `update_message for the edit to ${JSON.stringify(content)}`);
    }
  },
);

export const rules: readonly Rule[] = [contentEditEvents, meMessage];
