/**
 * Where a narrow's matches can be, from the history index: each non-negated term that has an
 * index (channel, topic, sender, direct conversation, `is:` flags, search words, `id`) gives the
 * list of messages it could match, and the reader's received messages bound a query that may
 * not include history. The candidates are the intersection of those lists, walked lazily; each
 * candidate is still checked against the whole narrow, so a list only has to hold every message
 * that could match. Terms without an index (negations, `has:`, `in:`, `channels:`...) filter.
 */
import type { User } from '../entities/user.js';
import { renameGeneralChat } from '../input/topic-names.js';
import { emptyIds, type IdSource } from '../state/history/id-list.js';
import { idsOf, intersectionOf, unionOf } from '../state/history/id-sources.js';
import type { UserListName } from '../state/history/user-index.js';
import type { World } from '../state/world.js';
import { channelByOperand, userByOperand } from './lookups.js';
import { parseSearch } from './search.js';
import type { NarrowTerm, Operand } from './terms.js';

const IS_LISTS: ReadonlyMap<string, UserListName> = new Map([
  ['starred', 'starred'],
  ['unread', 'unread'],
  ['mentioned', 'mentioned'],
  ['alerted', 'alerted'],
  ['dm', 'direct'],
  ['private', 'direct'],
]);

function dmParticipants(world: World, viewer: User, operand: Operand): number[] | undefined {
  const wanted = typeof operand === 'string' ? operand.split(',') : typeof operand === 'number' ? [operand] : operand;
  const ids = new Set([viewer.id]);
  for (const item of wanted) {
    const user = userByOperand(world, item);
    if (!user) return undefined;
    ids.add(user.id);
  }
  return wanted.length === 0 ? [] : [...ids].sort((a, b) => a - b);
}

/** The index list of one term, or undefined when the term has none (it filters instead). */
function termSource(world: World, viewer: User | null, term: NarrowTerm): IdSource | undefined {
  const index = world.messages.index;
  const { operator, operand } = term;
  switch (operator) {
    case 'channel':
    case 'stream': {
      const stream = channelByOperand(world, operand);
      return stream && index.channel(stream.id);
    }
    case 'topic': {
      // The first topic term reads the empty topic's display name as the empty topic.
      const text = String(operand);
      const renamed = renameGeneralChat(world, text);
      return renamed === text ? index.topicAnywhere(text) : unionOf([index.topicAnywhere(text), index.topicAnywhere(renamed)]);
    }
    case 'sender': {
      const sender = typeof operand === 'object' ? undefined : userByOperand(world, operand);
      return sender && index.sender(sender.id);
    }
    case 'id':
      return /^[0-9]+$/.test(String(operand)) ? idsOf([Number(operand)]) : undefined;
    case 'dm':
    case 'pm-with':
    case 'pm_with': {
      const ids = viewer && dmParticipants(world, viewer, operand);
      if (!ids) return undefined;
      return ids.length === 0 ? emptyIds() : index.direct(ids);
    }
    case 'dm-including':
    case 'group-pm-with':
    case 'group_pm_with':
      return viewer ? index.user(viewer.id, 'direct') : undefined;
    case 'is': {
      const list = IS_LISTS.get(String(operand));
      return viewer && list ? index.user(viewer.id, list) : undefined;
    }
    case 'channels':
    case 'streams':
      return operand === 'web-public' ? webPublicChannels(world) : undefined;
    default:
      return undefined;
  }
}

/** Web-public channels are few (what spectators read); past a few dozen their union costs more than it saves. */
const MAX_UNITED_CHANNELS = 32;

function webPublicChannels(world: World): IdSource | undefined {
  const ids: number[] = [];
  for (const stream of world.streams.values()) if (stream.isWebPublic) ids.push(stream.id);
  return ids.length > MAX_UNITED_CHANNELS ? undefined : unionOf(ids.map((id) => world.messages.index.channel(id)));
}

/** The lists of the narrow's search words, one per word the index holds (none matches nothing). */
function searchSources(world: World, narrow: readonly NarrowTerm[]): IdSource[] {
  const operands = narrow.filter((term) => term.operator === 'search').map((term) => String(term.operand));
  if (operands.length === 0) return [];
  const query = parseSearch(operands.join(' '));
  if (query.lexemes.size === 0) return [emptyIds()];
  const sources: IdSource[] = [];
  for (const word of query.lexemes) {
    const found = world.messages.index.word(word);
    if (found) sources.push(found);
  }
  return sources;
}

/**
 * Every message that can match the narrow (already compiled, so its terms are valid) for this
 * reader, ascending: `includeHistory` false bounds it by what the reader received. `base` is a
 * list to start from instead (a reader's unread messages for `first_unread`).
 */
export function narrowCandidates(world: World, viewer: User | null, narrow: readonly NarrowTerm[], includeHistory: boolean, base?: IdSource): IdSource {
  const sources: IdSource[] = [];
  if (base) sources.push(base);
  else if (!includeHistory && viewer) sources.push(world.messages.index.user(viewer.id, 'received'));
  for (const term of narrow) {
    if (term.negated || term.operator === 'search') continue;
    const source = termSource(world, viewer, term);
    if (source) sources.push(source);
  }
  sources.push(...searchSources(world, narrow));
  return sources.length === 0 ? world.messages.index.all : intersectionOf(sources);
}
