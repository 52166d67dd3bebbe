/**
 * Narrow terms as message predicates, with the real server's operators (by feature level) and
 * its `BAD_NARROW` errors, checked term by term in order. Terms are ANDed; a negated term
 * inverts its condition but is validated all the same. `search` terms are joined into one query
 * evaluated last (the real server drops their negation while joining them).
 */
import { MAX_USER_IDS, tooManyItems } from '../input/limits.js';
import type { Message } from '../entities/message.js';
import type { User } from '../entities/user.js';
import { FEATURES } from '../features/feature-levels.js';
import { RESOLVED_TOPIC_PREFIX, renameGeneralChat } from '../input/topic-names.js';
import { HAS_ALERT_WORD, MENTION_MASK, READ, STARRED } from '../state/history/flag-bits.js';
import { rowBits } from '../state/history/message-rows.js';
import type { World } from '../state/world.js';
import { channelByOperand, isFollowedBy, isMutedFor, participants, userByOperand } from './lookups.js';
import { matchesSearch, parseSearch, type SearchQuery } from './search.js';
import { badNarrow, operandText, type NarrowTerm, type Operand } from './terms.js';

export type MessageTest = (message: Message) => boolean;

export interface NarrowContext {
  readonly world: World;
  /** The reader; null for a spectator's web-public query. */
  readonly viewer: User | null;
}

export interface CompiledNarrow {
  readonly test: MessageTest;
  /** The joined search query, when the narrow has `search` terms. */
  readonly search: SearchQuery | undefined;
}

const MAX_MESSAGE_ID = 2 ** 31 - 1;

const topicOf = (m: Message): string | undefined => (m.recipient.kind === 'stream' ? m.recipient.topic : undefined);
const sameSet = (a: readonly number[], b: ReadonlySet<number>): boolean => a.length === b.size && a.every((id) => b.has(id));
const never: MessageTest = () => false;

/** Operators of the emulated level, the deprecated spellings included. */
function knownOperators(world: World): Set<string> {
  const ops = ['has', 'in', 'is', 'stream', 'streams', 'topic', 'sender', 'near', 'id', 'search', 'pm-with', 'group-pm-with', 'pm_with', 'group_pm_with'];
  if (world.has(FEATURES.NARROW_DM_OPERATORS)) ops.push('dm', 'dm-including');
  if (world.has(FEATURES.NARROW_CHANNEL_OPERATORS)) ops.push('channel', 'channels');
  return new Set(ops);
}

/** Tracks the real server's "both a channel message and direct message" refusal. */
class ConversationKind {
  private channel = false;
  private dm = false;
  mark(kind: 'channel' | 'dm'): void {
    if (kind === 'channel') this.channel = true;
    else this.dm = true;
    if (this.channel && this.dm) throw badNarrow('No message can be both a channel message and direct message');
  }
}

class TermCompiler {
  private readonly kind = new ConversationKind();
  private topicRenamed = false;
  constructor(private readonly ctx: NarrowContext) {}

  private get world(): World {
    return this.ctx.world;
  }

  /** Whether the reader's row has one of the flags of `mask` (no row has none). */
  private flagged(message: Message, mask: number): boolean {
    const bits = this.ctx.viewer ? rowBits(message.flags, this.ctx.viewer.id) : undefined;
    return ((bits ?? 0) & mask) !== 0;
  }

  private viewerId(): number {
    return this.ctx.viewer?.id ?? -1;
  }

  private word(term: string): string {
    return this.world.has(FEATURES.NARROW_CHANNEL_WORDING) ? term : term.replace('channel', 'stream');
  }

  compile(term: NarrowTerm): MessageTest {
    if (!knownOperators(this.world).has(term.operator)) throw badNarrow(`unknown operator ${term.operator}`);
    if (!term.negated && ['channel', 'stream', 'channels', 'streams', 'topic'].includes(term.operator)) this.kind.mark('channel');
    const test = this.condition(term);
    return term.negated ? (m) => !test(m) : test;
  }

  private condition({ operator, operand, negated }: NarrowTerm): MessageTest {
    const text = operandText(operand);
    switch (operator) {
      case 'has':
        return this.has(text);
      case 'in':
        if (text === 'all') return () => true;
        if (text === 'home') return (m) => !isMutedFor(this.world, this.viewerId(), m, { channelLevel: true });
        throw badNarrow(`unknown 'in' operand ${text}`);
      case 'is':
        return this.is(text, negated);
      case 'channel':
      case 'stream':
        return this.channel(operand);
      case 'channels':
      case 'streams':
        return this.channels(text);
      case 'topic':
        return this.topic(text);
      case 'sender': {
        const sender = typeof operand === 'object' ? undefined : userByOperand(this.world, operand);
        if (!sender) throw badNarrow(`unknown user ${text}`);
        return (m) => m.senderId === sender.id;
      }
      case 'near':
        return () => true;
      case 'id': {
        if (!/^[0-9]+$/.test(text) || Number(text) > MAX_MESSAGE_ID) throw badNarrow('Invalid message ID');
        const id = Number(text);
        return (m) => m.id === id;
      }
      case 'dm':
      case 'pm-with':
      case 'pm_with':
        if (!negated) this.kind.mark('dm');
        return this.dm(operand);
      default:
        if (!negated) this.kind.mark('dm');
        return this.dmIncluding(operand, operator === 'dm-including');
    }
  }

  private has(operand: string): MessageTest {
    const rendered = (m: Message): string => m.renderedContent;
    switch (operand) {
      case 'link':
        return (m) => /<a\s[^>]*href=/i.test(rendered(m));
      case 'image':
        // An inline image, or a link to an image file the real server would preview inline.
        return (m) => /<img\s|href="[^"]*\.(?:png|jpe?g|gif|webp|bmp)(?:\?[^"]*)?"/i.test(rendered(m));
      case 'attachment':
        return (m) => /href="[^"]*\/user_uploads\//.test(rendered(m));
      case 'reaction':
        if (this.world.has(FEATURES.NARROW_HAS_REACTION)) return (m) => m.reactions.length > 0;
        break;
    }
    throw badNarrow(`unknown 'has' operand ${operand}`);
  }

  private is(operand: string, negated: boolean): MessageTest {
    const world = this.world;
    switch (operand) {
      case 'dm':
      case 'private':
        if (operand === 'dm' && !world.has(FEATURES.NARROW_DM_OPERATORS)) break;
        // A negated `is:dm` asks for channel messages.
        this.kind.mark(negated ? 'channel' : 'dm');
        return (m) => m.recipient.kind === 'direct';
      case 'starred':
        return (m) => this.flagged(m, STARRED);
      case 'unread':
        return (m) => !this.flagged(m, READ);
      case 'mentioned':
        return (m) => this.flagged(m, MENTION_MASK);
      case 'alerted':
        return (m) => this.flagged(m, HAS_ALERT_WORD);
      case 'resolved':
        return (m) => topicOf(m)?.startsWith(RESOLVED_TOPIC_PREFIX) === true;
      case 'followed':
        if (world.has(FEATURES.NARROW_IS_FOLLOWED)) return (m) => isFollowedBy(world, this.viewerId(), m);
        break;
      case 'muted':
        if (world.has(FEATURES.NARROW_IS_MUTED)) return (m) => isMutedFor(world, this.viewerId(), m, { channelLevel: true });
        break;
    }
    throw badNarrow(`unknown 'is' operand ${operand}`);
  }

  private channel(operand: Operand): MessageTest {
    const stream = channelByOperand(this.world, operand);
    if (!stream) throw badNarrow(`${this.word('unknown channel')} ${operandText(operand)}`);
    if (this.ctx.viewer === null && !stream.isWebPublic) throw badNarrow(`${this.word('unknown web-public channel')} ${operandText(operand)}`);
    return (m) => m.recipient.kind === 'stream' && m.recipient.streamId === stream.id;
  }

  private channels(operand: string): MessageTest {
    const world = this.world;
    if (operand === 'public') {
      return (m) => {
        const stream = m.recipient.kind === 'stream' ? world.streams.get(m.recipient.streamId) : undefined;
        return stream !== undefined && !stream.inviteOnly && stream.historyPublicToSubscribers;
      };
    }
    if (operand === 'web-public') {
      return (m) => m.recipient.kind === 'stream' && world.streams.get(m.recipient.streamId)?.isWebPublic === true;
    }
    throw badNarrow(`${this.word('unknown channels operand')} ${operand}`);
  }

  private topic(operand: string): MessageTest {
    // The empty topic's display name means the empty topic (only the first topic term is read so).
    let wanted = operand;
    if (!this.topicRenamed) {
      this.topicRenamed = true;
      wanted = renameGeneralChat(this.world, operand);
    }
    const lower = wanted.toLowerCase();
    return (m) => topicOf(m)?.toLowerCase() === lower;
  }

  private dm(operand: Operand): MessageTest {
    const viewerId = this.viewerId();
    const wanted = typeof operand === 'string' ? operand.split(',') : typeof operand === 'number' ? [operand] : operand;
    if (wanted.length > MAX_USER_IDS) throw tooManyItems('operand', MAX_USER_IDS);
    if (wanted.length === 0) return never;
    const ids = new Set<number>([viewerId]);
    for (const item of wanted) {
      const user = userByOperand(this.world, item);
      if (!user) throw badNarrow(`unknown user in ${operandText(operand)}`);
      ids.add(user.id);
    }
    return (m) => m.recipient.kind === 'direct' && sameSet(participants(m), ids);
  }

  /** `dm-including` (all DMs with that user) or the deprecated `group-pm-with` (group DMs only). */
  private dmIncluding(operand: Operand, includeOneToOne: boolean): MessageTest {
    const user = typeof operand === 'object' ? undefined : userByOperand(this.world, operand);
    if (!user) throw badNarrow(`unknown user ${operandText(operand)}`);
    const viewerId = this.viewerId();
    if (includeOneToOne && user.id === viewerId) return (m) => m.recipient.kind === 'direct';
    return (m) => {
      const ids = participants(m);
      if (m.recipient.kind !== 'direct' || !ids.includes(user.id) || !ids.includes(viewerId)) return false;
      return includeOneToOne || ids.length > 2;
    };
  }
}

/**
 * Compiles a narrow (already cleaned of `with`) for a reader, throwing the first term's error.
 * Content, topic and flags are read when the returned test runs.
 */
export function compileNarrow(ctx: NarrowContext, terms: readonly NarrowTerm[]): CompiledNarrow {
  const compiler = new TermCompiler(ctx);
  const tests: MessageTest[] = [];
  const searches: string[] = [];
  for (const term of terms) {
    if (term.operator === 'search') searches.push(String(term.operand));
    else tests.push(compiler.compile(term));
  }
  if (searches.length === 0) return { test: (m) => tests.every((t) => t(m)), search: undefined };
  const query = parseSearch(searches.join(' '));
  const matches: MessageTest = (m) => matchesSearch(query, topicOf(m) ?? '', m.content, m.renderedContent);
  return { test: (m) => tests.every((t) => t(m)) && matches(m), search: query };
}
