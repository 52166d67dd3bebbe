/**
 * The channel email sender rule proves its power: against deliberately broken variants of our
 * server (`sender_id` ignored, humans accepted as senders, other people's bots accepted) the rule
 * fails; against the unbroken server it passes.
 */
import type { Mutation } from './support/conformance.js';
import { asUser, type Breakage, caller, eachBreakageFailsItsRule, passesUnbroken } from './support/power-mutations.js';
import type { ApiRequest } from '../server/app/request.js';

const RULE = 'streams/email-address-sender';
const ADDRESS = /\/streams\/\d+\/email_address$/;

const senderOf = (request: ApiRequest): number | undefined => {
  const value = request.query.find(([name]) => name === 'sender_id')?.[1];
  return value === undefined ? undefined : Number(value);
};

/** Applies `change` to the email address requests that name a sender. */
const onSender = (change: (request: ApiRequest, senderId: number, app: Parameters<Mutation>[2]) => ApiRequest): Mutation => (request, next, app) => {
  const senderId = senderOf(request);
  return next(request.method === 'GET' && ADDRESS.test(request.path) && senderId !== undefined ? change(request, senderId, app) : request);
};

const BREAKAGES: readonly Breakage[] = [
  { what: 'sender_id is ignored', rule: RULE, mutate: onSender((request) => ({ ...request, query: request.query.filter(([name]) => name !== 'sender_id') })) },
  {
    what: 'any human may be named as the sender',
    rule: RULE,
    mutate: onSender((request, senderId, app) => {
      const sender = app.world.users.get(senderId);
      const me = caller(app, request);
      return sender && !sender.isBot && me ? { ...request, query: request.query.map(([name, value]) => (name === 'sender_id' ? [name, String(me.id)] : [name, value])) } : request;
    }),
  },
  {
    what: "anyone may name someone else's bot",
    rule: RULE,
    mutate: onSender((request, senderId, app) => {
      const ownerId = app.world.users.get(senderId)?.botOwnerId;
      const owner = ownerId === null || ownerId === undefined ? undefined : app.world.users.get(ownerId);
      return owner ? asUser(request, owner) : request;
    }),
  },
];

passesUnbroken('the channel email sender rule', [RULE], [415, 335], 3);

eachBreakageFailsItsRule(BREAKAGES, 3);
