/**
 * The exact checks of the personal endpoints (typing, presence, statuses, drafts) prove their
 * power: against deliberately broken variants of our server the named rule fails; against the
 * unbroken server every one of them passes at levels on both sides of the dated behaviours.
 */
import { ROLE } from '../lib/entities/user.js';
import { type Mutation } from './support/conformance.js';
import { asIago, type Breakage, caller, codePoints, eachBreakageFailsItsRule, errorsSucceed, formOf, idIn, is, mapAnswers, passesUnbroken, refuseWhen, replaceEvents, rewriteParam } from './support/power-mutations.js';

const SHARP_RULES = [
  'typing/every-type-and-op-delivered',
  'typing/type-values-by-level',
  'presence/each-status-in-each-format',
  'presence/event-when-user-comes-online',
  'user-status/status-text-exact-limit',
  'user-status/who-may-set-a-status',
  'user-status/change-sends-user-status-event',
  'user-status/away-mirrors-presence-enabled',
  'drafts/each-type-with-events',
  'drafts/topic-at-max-topic-length',
  'drafts/null-bytes-refused-on-create-and-edit',
];

const TYPING = /^\/typing$/;
const PRESENCE = /^\/users\/me\/presence$/;
const STATUS = /^\/users\/\d+\/status$/;
const DRAFTS = /^\/drafts$/;
const DRAFT = /^\/drafts\/\d+$/;

/** Rewrites the topic of each draft a create (`drafts`) or edit (`draft`) sends. */
const rewriteDraftTopics = (change: (topic: string) => string): Mutation => (request, next, app) => {
  const rewrite = (draft: { topic?: unknown }) => (typeof draft.topic === 'string' ? { ...draft, topic: change(draft.topic) } : draft);
  const parsed = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const create = rewriteParam('POST', DRAFTS, 'drafts', (value) => {
    const drafts = parsed(value);
    return Array.isArray(drafts) ? JSON.stringify(drafts.map(rewrite)) : value;
  });
  const edit = rewriteParam('PATCH', DRAFT, 'draft', (value) => {
    const draft = parsed(value);
    return draft !== null && typeof draft === 'object' ? JSON.stringify(rewrite(draft)) : value;
  });
  return create(request, (inner) => edit(inner, next, app), app);
};

const statusText = (form: URLSearchParams): string => form.get('status_text') ?? '';

const BREAKAGES: readonly Breakage[] = [
  {
    what: "typing of type 'channel' always sends op start",
    rule: 'typing/every-type-and-op-delivered',
    mutate: (request, next, app) => (formOf(request).get('type') === 'channel' ? rewriteParam('POST', TYPING, 'op', () => 'start')(request, next, app) : next(request)),
  },
  {
    what: 'typing topics are cut to 60 UTF-16 units',
    rule: 'typing/every-type-and-op-delivered',
    mutate: rewriteParam('POST', TYPING, 'topic', (topic) => topic.slice(0, 60)),
  },
  {
    what: 'direct typing events are delivered without the recipients',
    rule: 'typing/every-type-and-op-delivered',
    mutate: replaceEvents('typing', (event) => (event.message_type === 'stream' ? event : { ...event, recipients: [] })),
  },
  {
    what: "type 'channel' is accepted before level 248",
    rule: 'typing/type-values-by-level',
    level: 240,
    mutate: rewriteParam('POST', TYPING, 'type', (type) => (type === 'channel' ? 'stream' : type)),
  },
  {
    what: "type 'direct' is refused before level 215",
    rule: 'typing/type-values-by-level',
    level: 200,
    mutate: refuseWhen('POST', TYPING, (form) => form.get('type') === 'direct', 'Invalid type'),
  },
  {
    what: 'idle reports ignore slim_presence',
    rule: 'presence/each-status-in-each-format',
    mutate: (request, next, app) => (formOf(request).get('status') === 'idle' ? rewriteParam('POST', PRESENCE, 'slim_presence', () => undefined)(request, next, app) : next(request)),
  },
  {
    what: 'last_update_id=-1 is read as no last_update_id',
    rule: 'presence/each-status-in-each-format',
    mutate: rewriteParam('POST', PRESENCE, 'last_update_id', (value) => (value === '-1' ? undefined : value)),
  },
  {
    what: 'presence events report every user as idle',
    rule: 'presence/event-when-user-comes-online',
    mutate: replaceEvents('presence', (event) => {
      const website = (event.presence as { website: Record<string, unknown> }).website;
      return { ...event, presence: { website: { ...website, status: 'idle' } } };
    }),
  },
  {
    what: 'presence event timestamps are in milliseconds',
    rule: 'presence/event-when-user-comes-online',
    mutate: replaceEvents('presence', (event) => {
      const website = (event.presence as { website: { timestamp: number } }).website;
      return { ...event, presence: { website: { ...website, timestamp: website.timestamp * 1000 } } };
    }),
  },
  {
    what: 'the status text limit is 59 code points',
    rule: 'user-status/status-text-exact-limit',
    mutate: refuseWhen('POST', STATUS, (form) => codePoints(statusText(form).trim()) > 59, 'status_text is too long (limit: 59 characters)'),
  },
  {
    what: 'a status text over the limit is cut to 60 code points',
    rule: 'user-status/status-text-exact-limit',
    mutate: rewriteParam('POST', STATUS, 'status_text', (text) => [...text.trim()].slice(0, 60).join('')),
  },
  {
    what: 'the status text limit applies before stripping',
    rule: 'user-status/status-text-exact-limit',
    mutate: refuseWhen('POST', STATUS, (form) => codePoints(statusText(form)) > 60, 'status_text is too long (limit: 60 characters)'),
  },
  {
    what: 'users may set their own status through the administrators’ endpoint',
    rule: 'user-status/who-may-set-a-status',
    mutate: (request, next, app) => (is(request, 'POST', STATUS) && caller(app, request)?.id === idIn(request) ? next(asIago(app, request)) : next(request)),
  },
  {
    what: "owners may not set users' statuses",
    rule: 'user-status/who-may-set-a-status',
    mutate: refuseWhen('POST', STATUS, (_form, request, app) => caller(app, request)?.role === ROLE.OWNER, 'Insufficient permission'),
  },
  {
    what: 'user_status events leave out the emoji',
    rule: 'user-status/change-sends-user-status-event',
    mutate: replaceEvents('user_status', ({ emoji_name: _name, emoji_code: _code, reaction_type: _type, ...rest }) => rest),
  },
  {
    what: 'user_status events carry away: false',
    rule: 'user-status/change-sends-user-status-event',
    mutate: replaceEvents('user_status', (event) => ({ ...event, away: false })),
  },
  {
    what: 'away is never shown',
    rule: 'user-status/away-mirrors-presence-enabled',
    mutate: mapAnswers('GET', STATUS, (body) => delete (body.status as Record<string, unknown>).away),
  },
  {
    what: 'away is shown for every user with a status',
    rule: 'user-status/away-mirrors-presence-enabled',
    mutate: mapAnswers('GET', STATUS, (body) => Object.keys(body.status as object).length > 0 && ((body.status as Record<string, unknown>).away = true)),
  },
  {
    what: 'an edit sends no drafts event',
    rule: 'drafts/each-type-with-events',
    mutate: replaceEvents('drafts', (event) => (event.op === 'update' ? undefined : event)),
  },
  {
    what: "the drafts remove event has op 'delete'",
    rule: 'drafts/each-type-with-events',
    mutate: replaceEvents('drafts', (event) => (event.op === 'remove' ? { ...event, op: 'delete' } : event)),
  },
  {
    what: 'deleting a deleted draft answers success',
    rule: 'drafts/each-type-with-events',
    mutate: errorsSucceed('DELETE', DRAFT),
  },
  {
    what: 'draft topics are cut to 60 UTF-16 units',
    rule: 'drafts/topic-at-max-topic-length',
    mutate: rewriteDraftTopics((topic) => topic.slice(0, 60)),
  },
  {
    what: 'draft topics over the limit are cut without the ellipsis',
    rule: 'drafts/topic-at-max-topic-length',
    mutate: rewriteDraftTopics((topic) => [...topic].slice(0, 60).join('')),
  },
  {
    what: 'null bytes are stripped from new drafts',
    rule: 'drafts/null-bytes-refused-on-create-and-edit',
    mutate: rewriteParam('POST', DRAFTS, 'drafts', (value) => value.replace(/\\u0000/g, '')),
  },
  {
    what: 'null bytes are stripped from draft topics',
    rule: 'drafts/null-bytes-refused-on-create-and-edit',
    mutate: rewriteDraftTopics((topic) => topic.replace(/\0/g, '')),
  },
];

passesUnbroken('every exact personal rule', SHARP_RULES, [415, 300, 240, 200, 100], 3);

eachBreakageFailsItsRule(BREAKAGES, 3);
