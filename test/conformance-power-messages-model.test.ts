/**
 * The narrow model's property, the single-message read and render prove their power: a narrow
 * ignoring negation, an operator ignored, the channel term dropped (other traffic leaks in),
 * matches_narrow ignoring the narrow, wrong flags; a guest reading what it may not, a missing
 * historical flag or raw content, apply_markdown ignored; render without paragraphs or refused
 * to a role. Each broken variant fails the rule that targets it.
 */
import { ROLE } from '../lib/entities/user.js';
import type { Mutation } from './support/conformance.js';
import { asIago, type Breakage, caller, eachBreakageFailsItsRule, is, mapAnswers, passesUnbroken, refuseWhen } from './support/power-mutations.js';
import { isGet, mapGetAnswers, MESSAGES, onGet, queryParam, rewriteNarrow, type WireTerm, withQueryParam } from './support/power-messages.js';

const MODEL = 'message-fetch/narrows-and-windows-match-the-model';
const MATCHES = /^\/messages\/matches_narrow$/;
const SINGLE = /^\/messages\/\d+$/;

/** Rewrites the narrow of both `GET /messages` and `matches_narrow`. */
const everyNarrow = (change: (terms: WireTerm[]) => WireTerm[]): Mutation => {
  const fetch = rewriteNarrow(MESSAGES, change);
  const matches = rewriteNarrow(MATCHES, change);
  return (request, next, app) => fetch(request, (inner) => matches(inner, next, app), app);
};

const dropOperator = (operator: string): Mutation => everyNarrow((terms) => terms.filter((term) => term.operator !== operator));

const MODEL_BREAKAGES: readonly Breakage[] = [
  { what: 'negated terms are read as positive', rule: MODEL, mutate: everyNarrow((terms) => terms.map((term) => ({ ...term, negated: false }))) },
  { what: 'search terms are ignored', rule: MODEL, mutate: dropOperator('search') },
  { what: 'topic terms are ignored', rule: MODEL, mutate: dropOperator('topic') },
  { what: 'sender terms are ignored', rule: MODEL, mutate: dropOperator('sender') },
  { what: 'is terms are ignored', rule: MODEL, mutate: dropOperator('is') },
  { what: 'has terms are ignored', rule: MODEL, mutate: dropOperator('has') },
  { what: 'the channel term is ignored (other traffic comes in)', rule: MODEL, mutate: everyNarrow((terms) => terms.filter((term, i) => i > 0 || !['stream', 'channel'].includes(term.operator))) },
  {
    what: 'a direct conversation narrow also matches the group conversations with that person',
    rule: MODEL,
    mutate: everyNarrow((terms) =>
      terms.map((term) => {
        const operand = Array.isArray(term.operand) && term.operand.length === 1 ? term.operand[0] : undefined;
        return ['dm', 'pm-with'].includes(term.operator) && typeof operand === 'number' ? { ...term, operator: 'dm-including', operand } : term;
      }),
    ),
  },
  { what: 'matches_narrow ignores the narrow', rule: MODEL, mutate: onGet(MATCHES, (request) => withQueryParam(request, 'narrow', '[]')) },
  {
    what: "the reader's unread messages are reported read",
    rule: MODEL,
    mutate: mapGetAnswers(MESSAGES, (body) => {
      for (const message of (body.messages ?? []) as Array<{ flags: string[] }>) if (!message.flags.includes('read')) message.flags.push('read');
    }),
  },
  { what: 'found_newest is inverted', rule: MODEL, mutate: mapGetAnswers(MESSAGES, (body) => void (typeof body.found_newest === 'boolean' && !('message_ids' in body) && (body.found_newest = !body.found_newest))) },
];

const GET = 'message-get/access-by-role-and-channel-kind';
const RAW = 'message-get/message-and-raw-content';
const RENDER = 'message-render/html-for-every-role-and-nothing-sent';

const BREAKAGES: readonly Breakage[] = [
  { what: 'a guest reads a public message it is not subscribed to', rule: GET, mutate: (request, next, app) => next(isGet(request, SINGLE) && caller(app, request)?.role === ROLE.GUEST ? asIago(app, request) : request) },
  { what: 'an owner reads a private channel it is not subscribed to', rule: GET, mutate: (request, next, app) => next(isGet(request, SINGLE) && caller(app, request)?.role === ROLE.OWNER ? asIago(app, request) : request) },
  {
    what: 'messages read without a copy lack the historical flag',
    rule: GET,
    mutate: mapGetAnswers(SINGLE, (body) => {
      const message = body.message as { flags?: string[] } | undefined;
      if (message?.flags) message.flags = message.flags.filter((flag) => flag !== 'historical');
    }),
  },
  { what: 'apply_markdown false is ignored', rule: RAW, mutate: onGet(SINGLE, (request) => (queryParam(request, 'apply_markdown') === 'false' ? withQueryParam(request, 'apply_markdown', 'true') : request)) },
  { what: 'raw_content is missing', rule: RAW, mutate: mapGetAnswers(SINGLE, (body) => void delete body.raw_content) },
  { what: 'the content_type is always text/html', rule: RAW, mutate: mapGetAnswers(SINGLE, (body) => void ((body.message as { content_type?: string } | undefined) && ((body.message as { content_type: string }).content_type = 'text/html'))) },
  { what: 'rendered paragraphs lose their <p>', rule: RENDER, mutate: mapAnswers('POST', /^\/messages\/render$/, (body) => void (typeof body.rendered === 'string' && (body.rendered = body.rendered.replace(/<\/?p>/g, '')))) },
  { what: 'guests may not render', rule: RENDER, mutate: refuseWhen('POST', /^\/messages\/render$/, (_form, request, app) => caller(app, request)?.role === ROLE.GUEST, 'Not allowed for guest users') },
  { what: 'content is optional for render', rule: RENDER, mutate: (request, next) => next(request).then((response) => (is(request, 'POST', /^\/messages\/render$/) && response.status === 400 ? { ...response, status: 200, body: '{"result":"success","msg":"","rendered":""}\n' } : response)) },
];

passesUnbroken('the narrow model, the single-message read and render', [MODEL, GET, RAW, RENDER], [415, 289, 207], 12, 4);

eachBreakageFailsItsRule(MODEL_BREAKAGES, 15);
eachBreakageFailsItsRule(BREAKAGES, 3);
