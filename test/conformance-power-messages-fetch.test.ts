/**
 * The exact `GET /messages` rules prove their power: wrong anchors and windows, include_anchor
 * ignored, wrong found_* flags and anchor echoes, limits off by one, message_ids ignoring the
 * narrow, operators refused or accepted at the wrong level, narrow errors with the wrong code,
 * history leaking to a guest: each broken variant of our server fails the rule that targets it.
 */
import { ROLE } from '../lib/entities/user.js';
import { errorAnswer } from './support/power-helpers.js';
import { asIago, badRequestAnswer, type Breakage, eachBreakageFailsItsRule, passesUnbroken } from './support/power-mutations.js';
import { callerHasRole, isGet, mapGetAnswers, MESSAGES, narrowOf, onGet, queryParam, rewriteNarrow, withQueryParam } from './support/power-messages.js';
import type { Mutation } from './support/conformance.js';

const RULES = [
  'message-fetch/every-anchor-and-window',
  'message-fetch/window-parameters-checked',
  'message-fetch/message-ids',
  'message-fetch/every-operator-by-level',
  'message-fetch/narrow-errors',
  'message-fetch/readers-see-what-they-may',
  'message-fetch/apply-markdown-and-client-gravatar',
  'message-fetch/matches-narrow-parameters',
];

const ANCHORS = 'message-fetch/every-anchor-and-window';
const LIMITS = 'message-fetch/window-parameters-checked';
const IDS = 'message-fetch/message-ids';
const OPERATORS = 'message-fetch/every-operator-by-level';
const ERRORS = 'message-fetch/narrow-errors';
const MATCHES = /^\/messages\/matches_narrow$/;

const int = (request: Parameters<typeof queryParam>[0], name: string): number => Number(queryParam(request, name) ?? 0);

/** Rewrites one query parameter of `GET /messages` where it is present. */
const rewriteQuery = (name: string, change: (value: string) => string | undefined): Mutation =>
  onGet(MESSAGES, (request) => {
    const value = queryParam(request, name);
    return value === undefined ? request : withQueryParam(request, name, change(value));
  });

/** Answers `GET /messages` with `answer` when `when` holds for the request. */
const answerWhen = (when: (request: Parameters<typeof queryParam>[0]) => boolean, answer: () => ReturnType<typeof badRequestAnswer>): Mutation => (request, next) =>
  isGet(request, MESSAGES) && when(request) ? Promise.resolve(answer()) : next(request);

const hasOperator = (request: Parameters<typeof queryParam>[0], operator: string, operand?: string): boolean =>
  narrowOf(request)?.some((term) => term.operator === operator && (operand === undefined || term.operand === operand)) === true;

const badNarrowAnswer = (desc: string) => errorAnswer(400, 'BAD_NARROW', `Invalid narrow operator: ${desc}`);

const BREAKAGES: readonly Breakage[] = [
  { what: 'include_anchor false is ignored', rule: ANCHORS, mutate: rewriteQuery('include_anchor', () => 'true') },
  { what: 'found_oldest is always false', rule: ANCHORS, mutate: mapGetAnswers(MESSAGES, (body) => void (body.found_oldest = false)) },
  { what: 'found_newest is always false', rule: ANCHORS, mutate: mapGetAnswers(MESSAGES, (body) => void (body.found_newest = false)) },
  { what: 'found_anchor is always true', rule: ANCHORS, mutate: mapGetAnswers(MESSAGES, (body) => void (body.found_anchor = true)) },
  { what: 'history_limited is true', rule: ANCHORS, mutate: mapGetAnswers(MESSAGES, (body) => void (body.history_limited = true)) },
  {
    what: 'the newest anchor is echoed as the last message ID',
    rule: ANCHORS,
    mutate: mapGetAnswers(MESSAGES, (body) => {
      const messages = body.messages as Array<{ id: number }> | undefined;
      if (typeof body.anchor === 'number' && body.anchor >= 1e16) body.anchor = messages?.at(-1)?.id ?? 0;
    }),
  },
  { what: 'num_before gives one message too many', rule: ANCHORS, mutate: rewriteQuery('num_before', (value) => (Number(value) > 0 ? String(Number(value) + 1) : value)) },
  { what: 'num_after gives one message too few', rule: ANCHORS, mutate: rewriteQuery('num_after', (value) => (Number(value) > 1 ? String(Number(value) - 1) : value)) },
  {
    what: 'the window comes newest first',
    rule: ANCHORS,
    mutate: mapGetAnswers(MESSAGES, (body) => void (Array.isArray(body.messages) && body.messages.reverse())),
  },
  { what: 'first_unread anchors at the newest message', rule: ANCHORS, mutate: rewriteQuery('anchor', (value) => (value === 'first_unread' ? 'newest' : value)) },
  {
    what: 'use_first_unread_anchor is ignored (the oldest message anchors)',
    rule: ANCHORS,
    mutate: onGet(MESSAGES, (request) => (queryParam(request, 'use_first_unread_anchor') === 'true' ? withQueryParam(withQueryParam(request, 'use_first_unread_anchor', undefined), 'anchor', 'oldest') : request)),
  },
  { what: 'a negative anchor is refused', rule: ANCHORS, mutate: answerWhen((request) => queryParam(request, 'anchor')?.startsWith('-') === true, () => badRequestAnswer('Invalid anchor')) },
  { what: 'an absent anchor ID is found', rule: ANCHORS, mutate: mapGetAnswers(MESSAGES, (body) => void (body.found_anchor = Array.isArray(body.messages) && body.messages.length > 0)) },
  {
    what: '5001 messages asked for are cut to 5000',
    rule: LIMITS,
    mutate: onGet(MESSAGES, (request) => (int(request, 'num_before') + int(request, 'num_after') === 5001 ? withQueryParam(request, 'num_before', String(int(request, 'num_before') - 1)) : request)),
  },
  { what: '5000 messages asked for are refused', rule: LIMITS, mutate: answerWhen((request) => int(request, 'num_before') + int(request, 'num_after') === 5000, () => badRequestAnswer('Too many messages requested (maximum 4999).')) },
  {
    what: 'excluding the anchor with both sides asked for is allowed',
    rule: LIMITS,
    mutate: onGet(MESSAGES, (request) => (int(request, 'num_before') > 0 && int(request, 'num_after') > 0 ? withQueryParam(request, 'include_anchor', 'true') : request)),
  },
  { what: 'a missing anchor means newest', rule: LIMITS, mutate: onGet(MESSAGES, (request) => (queryParam(request, 'anchor') === undefined && queryParam(request, 'message_ids') === undefined ? withQueryParam(request, 'anchor', 'newest') : request)) },
  { what: 'message_ids ignores the narrow', rule: IDS, mutate: onGet(MESSAGES, (request) => (queryParam(request, 'message_ids') ? withQueryParam(request, 'narrow', undefined) : request)) },
  { what: 'a message_ids answer echoes an anchor', rule: IDS, mutate: mapGetAnswers(MESSAGES, (body, request) => void (queryParam(request, 'message_ids') && (body.anchor = 0))) },
  { what: 'message_ids with an anchor is accepted', rule: IDS, mutate: onGet(MESSAGES, (request) => (queryParam(request, 'message_ids') ? withQueryParam(request, 'anchor', undefined) : request)) },
  { what: 'dm-including is an unknown operator', rule: OPERATORS, mutate: answerWhen((request) => hasOperator(request, 'dm-including'), () => badNarrowAnswer('unknown operator dm-including')) },
  { what: 'has:reaction is accepted before level 249', rule: OPERATORS, level: 248, mutate: rewriteNarrow(MESSAGES, (terms) => terms.map((term) => (term.operator === 'has' && term.operand === 'reaction' ? { ...term, operand: 'link' } : term))) },
  { what: 'is:followed is refused', rule: OPERATORS, mutate: answerWhen((request) => hasOperator(request, 'is', 'followed'), () => badNarrowAnswer("unknown 'is' operand followed")) },
  { what: 'with is accepted before level 271', rule: OPERATORS, level: 270, mutate: rewriteNarrow(MESSAGES, (terms) => terms.filter((term) => term.operator !== 'with')) },
  {
    what: 'an unknown operator is a BAD_REQUEST',
    rule: ERRORS,
    mutate: mapGetAnswers(MESSAGES, (body) => void (String(body.desc ?? '').startsWith('unknown operator') && (body.code = 'BAD_REQUEST'))),
  },
  { what: 'BAD_NARROW carries no desc', rule: ERRORS, mutate: mapGetAnswers(MESSAGES, (body) => void (body.code === 'BAD_NARROW' && delete body.desc)) },
  {
    what: 'an unknown channel narrows to nothing instead of an error',
    rule: ERRORS,
    mutate: rewriteNarrow(MESSAGES, (terms) => (terms.some((term) => term.operator === 'stream' && String(term.operand).includes('no-such-channel')) ? [{ operator: 'id', operand: '1' }] : terms)),
  },
  {
    what: 'a channel term with a direct-message term is accepted',
    rule: ERRORS,
    mutate: rewriteNarrow(MESSAGES, (terms) => (terms.some((term) => term.operator === 'stream') ? terms.filter((term) => term.operator !== 'pm-with') : terms)),
  },
  { what: 'a guest reads public history', rule: 'message-fetch/readers-see-what-they-may', mutate: (request, next, app) => next(isGet(request, MESSAGES) && callerHasRole(app, request, ROLE.GUEST) ? asIago(app, request) : request) },
  {
    what: 'is: narrows include history',
    rule: 'message-fetch/readers-see-what-they-may',
    mutate: rewriteNarrow(MESSAGES, (terms) => (terms.some((term) => term.operator === 'stream') ? terms.filter((term) => term.operator !== 'is') : terms)),
  },
  {
    what: 'historical messages lack the historical flag',
    rule: 'message-fetch/readers-see-what-they-may',
    mutate: mapGetAnswers(MESSAGES, (body) => {
      for (const message of (body.messages ?? []) as Array<{ flags: string[] }>) message.flags = message.flags.filter((flag) => flag !== 'historical');
    }),
  },
  { what: 'apply_markdown false is ignored', rule: 'message-fetch/apply-markdown-and-client-gravatar', mutate: rewriteQuery('apply_markdown', () => 'true') },
  {
    what: 'client_gravatar false leaves avatar URLs out',
    rule: 'message-fetch/apply-markdown-and-client-gravatar',
    mutate: mapGetAnswers(MESSAGES, (body, request) => {
      if (queryParam(request, 'client_gravatar') !== 'false') return;
      for (const message of (body.messages ?? []) as Array<{ avatar_url: unknown }>) message.avatar_url = null;
    }),
  },
  {
    what: 'matches_narrow works without a narrow',
    rule: 'message-fetch/matches-narrow-parameters',
    mutate: onGet(MATCHES, (request) => (queryParam(request, 'narrow') === undefined ? withQueryParam(request, 'narrow', '[]') : request)),
  },
  {
    what: 'matches_narrow keys its answer by position',
    rule: 'message-fetch/matches-narrow-parameters',
    mutate: mapGetAnswers(MATCHES, (body) => {
      if (body.messages && typeof body.messages === 'object') body.messages = Object.fromEntries(Object.values(body.messages).map((value, i) => [String(i), value]));
    }),
  },
];

passesUnbroken('every exact message-fetch rule', RULES, [415, 289, 207], 3, 6);

eachBreakageFailsItsRule(BREAKAGES, 3);
