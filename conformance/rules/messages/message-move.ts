/**
 * Moving messages (`PATCH /messages/{message_id}` with `topic` and/or `stream_id`): exactly which
 * messages `propagate_mode` moves, within a channel and to another of the run's channels, and
 * the topic as stored (stripped, cut at `max_topic_length`, the `subject` alias, the empty
 * topic and its aliases from level 334). The administrator moves: the real server lets
 * administrators move in any channel they can access, without time limits.
 */
import { check, expectEqual, expectError } from '../../expect/assert.js';
import { fetchState, type RunChannel } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { expectEditSuccess } from './message-edit.js';
import { ascending, EDIT_LEVELS, editChannels, type EditChannels, inPlace, mustRead, newestIn, QUIET, send, type StoredMessage, threeMessages } from './message-edit-support.js';

const ENDPOINT = 'PATCH /messages/{message_id}';
const MODES = ['change_one', 'change_later', 'change_all'] as const;
type Mode = (typeof MODES)[number];

/** The IDs `mode` moves when the target is `ids[at]`. */
const movedBy = (mode: Mode, ids: readonly number[], at: number): number[] =>
  mode === 'change_one' ? [ids[at]!] : mode === 'change_later' ? ids.slice(at) : [...ids];

interface MoveCase {
  readonly mode: Mode;
  readonly to: 'same' | 'other';
  readonly renamed: boolean;
}

/** Moves the middle of three messages as the case says and compares both places with the model. */
async function checkMove(ctx: RuleContext, channels: EditChannels, move: MoveCase): Promise<void> {
  const from = channels.open;
  const to = move.to === 'same' ? from : channels.other;
  const { topic, ids } = await threeMessages(ctx, from);
  const target = move.renamed ? ctx.name('topic') : topic;
  const params: Record<string, unknown> = { ...QUIET, propagate_mode: move.mode };
  if (move.renamed) params.topic = target;
  if (move.to === 'other') params.stream_id = to.id;
  expectEditSuccess(ctx, await ctx.as('admin').patch(`/messages/${ids[1]}`, params));
  const moved = movedBy(move.mode, ids, 1);
  const what = `${move.mode}${move.to === 'other' ? ' to another channel' : ''}${move.renamed ? ' with a new topic' : ''} of the middle message`;
  const reader = ctx.as('second-member');
  // One read covers both places unless both the channel and the topic changed.
  const narrows = move.to === 'same' ? [[{ operator: 'stream', operand: from.name }]] : move.renamed ? [[{ operator: 'topic', operand: topic }], [{ operator: 'topic', operand: target }]] : [[{ operator: 'topic', operand: topic }]];
  const seen: StoredMessage[] = [];
  for (const narrow of narrows) seen.push(...(await newestIn(reader, narrow, 20)));
  const idsAt = (channel: RunChannel, name: string) => ascending(inPlace(seen, channel, name).map((message) => message.id));
  expectEqual(idsAt(to, target), moved, `messages at the destination after ${what}`);
  expectEqual(idsAt(from, topic), ids.filter((id) => !moved.includes(id)), `messages left in the old topic after ${what}`);
}

/** A rule that makes each of `cases` on a fresh topic of three messages. */
const moveCasesRule = (id: string, title: string, cases: readonly MoveCase[]): Rule => ({
  id,
  title,
  endpoint: ENDPOINT,
  section: 'api/update-message',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const channels = await editChannels(ctx);
    for (const move of cases) await checkMove(ctx, channels, move);
  },
});

const propagateWithinChannel = moveCasesRule(
  'message-move/propagate-mode-within-channel',
  'a topic rename of the middle of three messages moves exactly that one (change_one), it and the later one (change_later), or all three (change_all); the others stay in the old topic',
  MODES.map((mode) => ({ mode, to: 'same', renamed: true })),
);

const propagateBetweenChannels = moveCasesRule(
  'message-move/propagate-mode-between-channels',
  'moving the middle of three messages to another channel (stream_id), keeping or changing the topic, moves exactly the messages propagate_mode names; the others stay in the old channel and topic',
  [...MODES.map((mode): MoveCase => ({ mode, to: 'other', renamed: false })), { mode: 'change_later', to: 'other', renamed: true }],
);

/** `max_topic_length` as published (60 before level 53). */
async function maxTopicLength(ctx: RuleContext): Promise<{ max: number; display: string | undefined; emptyAllowed: boolean }> {
  const state = await fetchState(ctx.as('admin'), ['realm']);
  const max = typeof state.max_topic_length === 'number' ? state.max_topic_length : 60;
  const display = typeof state.realm_empty_topic_display_name === 'string' ? state.realm_empty_topic_display_name : undefined;
  return { max, display, emptyAllowed: state.realm_topics_policy !== 'disable_empty_topic' };
}

interface TopicRow {
  readonly what: string;
  readonly param: 'topic' | 'subject';
  readonly sent: string;
  /** The stored topic, a test of it, or `refused` (400 BAD_REQUEST). */
  readonly stored: string | ((topic: string) => boolean) | 'refused';
}

function topicRows(ctx: RuleContext, max: number, display: string | undefined, emptyAllowed: boolean): TopicRow[] {
  const base = `${ctx.name('t')} \u{1F600}`;
  const exact = base + 'y'.repeat(max - [...base].length);
  const long = base + 'z'.repeat(max + 1 - [...base].length);
  const plain = ctx.name('topic');
  const empty = ctx.featureLevel >= EDIT_LEVELS.EMPTY_TOPIC && emptyAllowed;
  // Consecutive rows never store the same topic: a rename to the current topic has nothing to change.
  return [
    { what: 'exactly max_topic_length code points', param: 'topic', sent: exact, stored: exact },
    { what: 'one code point over max_topic_length', param: 'topic', sent: long, stored: (topic) => [...topic].length <= max && topic !== long && topic.startsWith(long.slice(0, base.length + 5)) },
    { what: 'surrounding whitespace', param: 'topic', sent: `  ${plain}\t `, stored: plain },
    ...(empty && display !== undefined ? [{ what: 'realm_empty_topic_display_name', param: 'topic', sent: display, stored: '' } as const] : []),
    { what: 'the legacy subject parameter', param: 'subject', sent: `${plain}-subject`, stored: `${plain}-subject` },
    ...(empty ? [{ what: 'the empty topic', param: 'topic', sent: '', stored: '' } as const] : []),
    ...(ctx.featureLevel < EDIT_LEVELS.EMPTY_TOPIC ? [{ what: 'an empty topic before level 334', param: 'topic', sent: '', stored: 'refused' } as const] : []),
  ];
}

const topicValues: Rule = {
  id: 'message-move/topic-stored-as-normalised',
  title: 'a new topic is stored stripped; max_topic_length code points are kept and one more is cut; the subject alias works; from level 334 the empty topic and realm_empty_topic_display_name store the empty topic, before 334 the empty topic answers 400 BAD_REQUEST',
  endpoint: ENDPOINT,
  section: 'api/update-message; 1 convention 6',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { open } = await editChannels(ctx);
    const { max, display, emptyAllowed } = await maxTopicLength(ctx);
    if (!emptyAllowed) ctx.note("the realm's topics_policy disables the empty topic: its rows are left out");
    const extra = ctx.featureLevel >= EDIT_LEVELS.EMPTY_TOPIC ? { allow_empty_topic_name: true } : {};
    // One message takes every row in turn: a refused row must leave the previous row's topic.
    let current = ctx.name('topic');
    const id = await send(ctx.as('member'), open, current, ctx.name('content'));
    for (const row of topicRows(ctx, max, display, emptyAllowed)) {
      const reply = await ctx.as('admin').patch(`/messages/${id}`, { ...QUIET, [row.param]: row.sent });
      const stored = (await mustRead(ctx.as('member'), id, false, extra)).topic;
      const previous = current;
      current = stored;
      if (row.stored === 'refused') {
        expectError(reply, { status: 400, code: 'BAD_REQUEST' });
        expectEqual(stored, previous, `topic after a refused rename (${row.what})`);
      } else {
        expectEditSuccess(ctx, reply);
        if (typeof row.stored === 'string') expectEqual(stored, row.stored, `stored topic (${row.what})`);
        else check(row.stored(stored), `stored topic (${row.what}): got ${JSON.stringify(stored)}`);
      }
    }
  },
};

export const rules: readonly Rule[] = [propagateWithinChannel, propagateBetweenChannels, topicValues];
