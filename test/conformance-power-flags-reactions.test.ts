/**
 * The reaction rules prove their power: against deliberately broken variants of our server
 * (duplicates accepted, absent reactions removed, votes renamed, emoji checks skipped, events
 * missing, doubled, of the wrong level's shape or sent to users who cannot read the message) the
 * named rule fails; against the unbroken server every one of them passes at levels on both sides
 * of the dated behaviours.
 */
import type { Reaction } from '../lib/entities/message.js';
import type { Mutation } from './support/conformance.js';
import { alsoToEveryone, errorSucceeds, eventsPerCaller, MESSAGE, REACTIONS } from './support/power-flags.js';
import { asUser, type Breakage, caller, eachBreakageFailsItsRule, formOf, idIn, is, mapAnswers, passesUnbroken, replaceEvents, rewriteParam, withForm } from './support/power-mutations.js';

const RULES = [
  'reactions/every-emoji-type-added-and-removed-each-way',
  'reactions/duplicate-refused-vote-keeps-first-name',
  'reactions/removing-absent-reaction-refused',
  'reactions/invalid-emoji-refused',
  'reactions/unreadable-message-refused',
  'reactions/events-reach-every-reader-once',
  'reactions/no-event-for-unreadable-message',
  'reactions/no-credentials-unauthorized',
];

/** The reactions of `GET /messages/{id}` answers, each changed in place. */
const eachReadBack = (change: (reaction: Record<string, unknown>) => void): Mutation =>
  mapAnswers('GET', MESSAGE, (body) => {
    const reactions = (body.message as { reactions?: Array<Record<string, unknown>> } | undefined)?.reactions ?? [];
    for (const reaction of reactions) change(reaction);
  });

/** A vote stores the name the voter sent instead of keeping the first reaction's name. */
const voteRenames: Mutation = async (request, next, app) => {
  const response = await next(request);
  const name = formOf(request).get('emoji_name');
  const message = app.world.messages.get(idIn(request));
  if (!is(request, 'POST', REACTIONS) || response.status !== 200 || name === null || !message) return response;
  const added = message.reactions.at(-1) as Reaction;
  message.reactions[message.reactions.length - 1] = { ...added, emojiName: name };
  return response;
};

/** Adding a name and a code without a type looks the code up from the name (the code sent is ignored). */
const codeIgnored: Mutation = (request, next) => {
  const form = formOf(request);
  if (!is(request, 'POST', REACTIONS) || form.has('reaction_type') || !form.has('emoji_name')) return next(request);
  form.delete('emoji_code');
  return next(withForm(request, form));
};

/** Reactions are made as the message's sender, whoever asks (so anyone may react to anything). */
const actAsSender: Mutation = (request, next, app) => {
  const sender = app.world.users.get(app.world.messages.get(idIn(request))?.senderId ?? 0);
  return is(request, request.method, REACTIONS) && sender ? next(asUser(request, sender)) : next(request);
};

const legacyUser = (event: Record<string, unknown>) => ({ ...event, user: { user_id: event.user_id, email: 'x@example.com', full_name: 'X' } });

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'adding a reaction twice succeeds',
    rule: 'reactions/duplicate-refused-vote-keeps-first-name',
    mutate: errorSucceeds('POST', REACTIONS, (body) => body.code === 'REACTION_ALREADY_EXISTS'),
  },
  {
    what: 'a duplicate reaction is answered BAD_REQUEST at level 415',
    rule: 'reactions/duplicate-refused-vote-keeps-first-name',
    mutate: mapAnswers('POST', REACTIONS, (body) => body.code === 'REACTION_ALREADY_EXISTS' && (body.code = 'BAD_REQUEST')),
  },
  {
    what: 'a vote is stored under the name the voter sent',
    rule: 'reactions/duplicate-refused-vote-keeps-first-name',
    mutate: voteRenames,
  },
  {
    what: 'removing a reaction that is not there succeeds',
    rule: 'reactions/removing-absent-reaction-refused',
    mutate: errorSucceeds('DELETE', REACTIONS, (body) => body.code === 'REACTION_DOES_NOT_EXIST'),
  },
  {
    what: 'an absent reaction is answered REACTION_DOES_NOT_EXIST before level 193',
    rule: 'reactions/removing-absent-reaction-refused',
    level: 180,
    mutate: mapAnswers('DELETE', REACTIONS, (body) => body.code === 'BAD_REQUEST' && (body.code = 'REACTION_DOES_NOT_EXIST')),
  },
  {
    what: 'reactions read back without user_id',
    rule: 'reactions/every-emoji-type-added-and-removed-each-way',
    mutate: eachReadBack((reaction) => delete reaction.user_id),
  },
  {
    what: 'reactions read back with the legacy user object at level 415',
    rule: 'reactions/every-emoji-type-added-and-removed-each-way',
    mutate: eachReadBack((reaction) => (reaction.user = { id: reaction.user_id, email: 'x@example.com', full_name: 'X' })),
  },
  {
    what: 'removing ignores reaction_type',
    rule: 'reactions/every-emoji-type-added-and-removed-each-way',
    mutate: rewriteParam('DELETE', REACTIONS, 'reaction_type', () => undefined),
  },
  {
    what: 'an unknown reaction type is read as unicode_emoji',
    rule: 'reactions/invalid-emoji-refused',
    mutate: rewriteParam('POST', REACTIONS, 'reaction_type', (type) => (type === 'no_such_type' ? 'unicode_emoji' : type)),
  },
  {
    what: 'a name with the wrong code is accepted (the code is looked up from the name)',
    rule: 'reactions/invalid-emoji-refused',
    mutate: codeIgnored,
  },
  {
    what: 'anyone may react to any message',
    rule: 'reactions/unreadable-message-refused',
    mutate: actAsSender,
  },
  {
    what: 'reaction events reach the reactor only',
    rule: 'reactions/events-reach-every-reader-once',
    mutate: eventsPerCaller('reaction', (event, callerId) => (event.user_id === callerId ? [event] : [])),
  },
  {
    what: 'reaction events are delivered twice',
    rule: 'reactions/events-reach-every-reader-once',
    mutate: eventsPerCaller('reaction', (event) => [event, { ...event }]),
  },
  {
    what: 'reaction events lack the legacy user object at level 415',
    rule: 'reactions/events-reach-every-reader-once',
    mutate: replaceEvents('reaction', ({ user: _user, ...event }) => event),
  },
  {
    what: 'reaction events carry the legacy user object at level 330',
    rule: 'reactions/events-reach-every-reader-once',
    level: 330,
    mutate: replaceEvents('reaction', legacyUser),
  },
  {
    what: 'reaction events report the emoji name the remover sent',
    rule: 'reactions/events-reach-every-reader-once',
    mutate: replaceEvents('reaction', (event) => (event.op === 'remove' ? { ...event, emoji_name: String(event.emoji_code) } : event)),
  },
  {
    what: 'reaction events go to every user of the realm',
    rule: 'reactions/no-event-for-unreadable-message',
    mutate: alsoToEveryone('POST', REACTIONS, (request, app) => {
      const form = formOf(request);
      return { type: 'reaction', op: 'add', user_id: caller(app, request)?.id ?? 0, message_id: idIn(request), emoji_name: form.get('emoji_name') ?? '', emoji_code: form.get('emoji_code') ?? '', reaction_type: form.get('reaction_type') ?? 'unicode_emoji' };
    }),
  },
];

passesUnbroken('every reaction rule', RULES, [415, 330, 289, 207, 180], 3, RULES.length);

eachBreakageFailsItsRule(BREAKAGES, 3);
