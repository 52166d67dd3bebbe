/**
 * The sharp channel rules prove their power: limits at exactly the limit and one over, every
 * value of the enumerated settings, rights by role and repeated operations. Each deliberately
 * broken variant of our server is caught, and by the rule that targets it.
 */
import t from 'tap';
import { ROLE } from '../lib/entities/user.js';
import { failedIds, failureLines, mapJsonBody, type Mutation, runOnReference } from './support/conformance.js';
import { asUser, badRequestAnswer, caller, changeForm, codePoints, formOf, jsonParam, on, userOfRole } from './support/power-mutations.js';

/** The rules these variants target (each must pass against the unbroken server). */
export const CHANNEL_RULES = [
  'subscribe/channel-name-length-limit',
  'subscribe/channel-description-length-limit',
  'subscribe/privacy-and-history-combinations',
  'subscribe/message-retention-days-values',
  'subscribe/stream-post-policy-values-before-333',
  'subscribe/stream-post-policy-ignored-from-333',
  'subscribe/topics-policy-values',
  'subscribe/group-settings-system-groups',
  'subscribe/channel-creation-by-role',
  'subscribe/subscribing-others-by-role',
  'unsubscribe/others-by-role',
  'subscribe/repeat-and-resubscribe',
  'subscribe/new-subscription-messages-sent',
];

type Item = { name: string; description?: string };
const SUBSCRIBE = '/users/me/subscriptions';

/** Answers a subscribe request with `error` when one of its items matches `bad`. */
const refuseItems = (bad: (item: Item) => boolean, msg: string): Mutation =>
  on('POST', SUBSCRIBE, (request, next) => (jsonParam<Item[]>(formOf(request), 'subscriptions')?.some(bad) ? Promise.resolve(badRequestAnswer(msg)) : next(request)));

/** Rewrites one form parameter of subscribe requests. */
const rewrite = (name: string, change: (value: string) => string): Mutation =>
  on('POST', SUBSCRIBE, (request, next) => next(changeForm(request, (form) => form.has(name) && form.set(name, change(form.get(name)!)))));

/** Sends the caller's subscribe requests as the user of `role` when `when` holds. */
const actAs = (method: string, role: number, when: (form: URLSearchParams, callerRole: number) => boolean): Mutation =>
  on(method, SUBSCRIBE, (request, next, app) => {
    const user = caller(app, request);
    return next(user && when(formOf(request), user.role) ? asUser(request, userOfRole(app, role)) : request);
  });

const BREAKAGES: ReadonlyArray<{ what: string; rule: string; mutate: Mutation; level?: number }> = [
  { what: 'channel names of exactly the limit are refused', rule: 'subscribe/channel-name-length-limit', mutate: refuseItems((item) => codePoints(item.name.trim()) >= 60, 'Channel name too long (limit: 60 characters).') },
  { what: 'channel names are counted in UTF-16 units', rule: 'subscribe/channel-name-length-limit', mutate: refuseItems((item) => item.name.trim().length > 60, 'Channel name too long (limit: 60 characters).') },
  { what: 'channel names are counted before stripping spaces', rule: 'subscribe/channel-name-length-limit', mutate: refuseItems((item) => codePoints(item.name) > 60, 'Channel name too long (limit: 60 characters).') },
  {
    what: 'descriptions one over the limit are truncated instead of refused',
    rule: 'subscribe/channel-description-length-limit',
    mutate: rewrite('subscriptions', (value) => JSON.stringify((JSON.parse(value) as Item[]).map((item) => (item.description ? { ...item, description: [...item.description].slice(0, 1024).join('') } : item)))),
  },
  { what: 'descriptions are counted in UTF-16 units', rule: 'subscribe/channel-description-length-limit', mutate: refuseItems((item) => (item.description ?? '').length > 1024, 'description is too long') },
  {
    what: 'private channels get public history by default',
    rule: 'subscribe/privacy-and-history-combinations',
    mutate: on('POST', SUBSCRIBE, (request, next) => next(changeForm(request, (form) => form.get('invite_only') === 'true' && !form.has('history_public_to_subscribers') && form.set('history_public_to_subscribers', 'true')))),
  },
  {
    what: 'a public channel keeps the protected history it asked for',
    rule: 'subscribe/privacy-and-history-combinations',
    mutate: on('POST', SUBSCRIBE, async (request, next, app) => {
      const response = await next(request);
      const form = formOf(request);
      if (response.status === 200 && form.get('history_public_to_subscribers') === 'false' && form.get('invite_only') !== 'true') {
        for (const item of jsonParam<Item[]>(form, 'subscriptions') ?? []) {
          const stream = app.world.streamByName(item.name);
          if (stream) stream.historyPublicToSubscribers = false;
        }
      }
      return response;
    }),
  },
  { what: "'unlimited' retention is stored as the realm default", rule: 'subscribe/message-retention-days-values', mutate: rewrite('message_retention_days', (value) => (value === '"unlimited"' ? '"realm_default"' : value)) },
  { what: 'administrators may set a channel retention', rule: 'subscribe/message-retention-days-values', mutate: actAs('POST', ROLE.OWNER, (form, role) => role === ROLE.ADMINISTRATOR && form.has('message_retention_days')) },
  { what: 'zero retention days are accepted as one', rule: 'subscribe/message-retention-days-values', mutate: rewrite('message_retention_days', (value) => (value === '0' ? '1' : value)) },
  { what: 'stream_post_policy 3 and 4 are swapped', rule: 'subscribe/stream-post-policy-values-before-333', level: 289, mutate: rewrite('stream_post_policy', (value) => ({ '3': '4', '4': '3' })[value] ?? value) },
  {
    what: 'stream_post_policy is not reported as ignored from level 333',
    rule: 'subscribe/stream-post-policy-ignored-from-333',
    mutate: on('POST', SUBSCRIBE, async (request, next) =>
      mapJsonBody(await next(request), (body) => {
        if (Array.isArray(body.ignored_parameters_unsupported)) body.ignored_parameters_unsupported = body.ignored_parameters_unsupported.filter((name) => name !== 'stream_post_policy');
      }),
    ),
  },
  { what: 'empty_topic_only is refused at level 415', rule: 'subscribe/topics-policy-values', mutate: on('POST', SUBSCRIBE, (request, next) => (formOf(request).get('topics_policy') === '"empty_topic_only"' ? Promise.resolve(badRequestAnswer('Invalid topics_policy')) : next(request))) },
  {
    what: 'can_add_subscribers_group takes role:everyone (stored as role:members)',
    rule: 'subscribe/group-settings-system-groups',
    mutate: (request, next, app) => rewrite('can_add_subscribers_group', (value) => (value === String(app.world.systemGroupId('role:everyone')) ? String(app.world.systemGroupId('role:members')) : value))(request, next, app),
  },
  {
    what: 'can_send_message_group refuses role:nobody',
    rule: 'subscribe/group-settings-system-groups',
    mutate: on('POST', SUBSCRIBE, (request, next, app) =>
      formOf(request).get('can_send_message_group') === String(app.world.systemGroupId('role:nobody')) ? Promise.resolve(badRequestAnswer("'can_send_message_group' setting cannot be set to 'role:nobody' group.")) : next(request),
    ),
  },
  {
    what: 'register says can_remove_subscribers_group may not be role:everyone',
    rule: 'subscribe/group-settings-system-groups',
    mutate: on('POST', '/register', async (request, next) =>
      mapJsonBody(await next(request), (body) => {
        const stream = (body.server_supported_permission_settings as { stream?: Record<string, Record<string, unknown>> } | undefined)?.stream;
        if (stream?.can_remove_subscribers_group) stream.can_remove_subscribers_group.allow_everyone_group = false;
      }),
    ),
  },
  {
    what: 'members may not create private channels',
    rule: 'subscribe/channel-creation-by-role',
    mutate: on('POST', SUBSCRIBE, (request, next, app) =>
      caller(app, request)?.role === ROLE.MEMBER && formOf(request).get('invite_only') === 'true' ? Promise.resolve(badRequestAnswer('Insufficient permission')) : next(request),
    ),
  },
  { what: 'administrators create web-public channels (the realm allows owners)', rule: 'subscribe/channel-creation-by-role', mutate: actAs('POST', ROLE.OWNER, (form, role) => role === ROLE.ADMINISTRATOR && form.get('is_web_public') === 'true') },
  {
    what: 'members may not subscribe other users',
    rule: 'subscribe/subscribing-others-by-role',
    mutate: on('POST', SUBSCRIBE, (request, next, app) => {
      const user = caller(app, request);
      const principals = jsonParam<number[]>(formOf(request), 'principals') ?? [];
      return user?.role === ROLE.MEMBER && principals.some((id) => id !== user.id) ? Promise.resolve(badRequestAnswer('Insufficient permission')) : next(request);
    }),
  },
  { what: 'moderators may unsubscribe other users', rule: 'unsubscribe/others-by-role', mutate: actAs('DELETE', ROLE.ADMINISTRATOR, (form, role) => role === ROLE.MODERATOR && form.has('principals')) },
  {
    what: 'a member naming itself as principal is treated as unsubscribing others',
    rule: 'unsubscribe/others-by-role',
    mutate: on('DELETE', SUBSCRIBE, (request, next, app) => {
      const user = caller(app, request);
      const principals = jsonParam<number[]>(formOf(request), 'principals');
      return user?.role === ROLE.MEMBER && principals?.length === 1 && principals[0] === user.id ? Promise.resolve(badRequestAnswer('Insufficient permission')) : next(request);
    }),
  },
  {
    what: 'subscribing again after leaving is reported as already subscribed',
    rule: 'subscribe/repeat-and-resubscribe',
    mutate: on('POST', SUBSCRIBE, async (request, next, app) => {
      const user = caller(app, request);
      const left = (jsonParam<Item[]>(formOf(request), 'subscriptions') ?? [])
        .map((item) => app.world.streamByName(item.name))
        .filter((stream) => stream && user && app.world.subscriptions.get(stream.id)?.get(user.id)?.active === false)
        .map((stream) => stream!.name);
      return mapJsonBody(await next(request), (body) => {
        const key = String(user?.id);
        const subscribed = body.subscribed as Record<string, string[]> | undefined;
        const moved = subscribed?.[key]?.filter((name) => left.includes(name)) ?? [];
        if (!subscribed || moved.length === 0) return;
        subscribed[key] = subscribed[key]!.filter((name) => !moved.includes(name));
        if (subscribed[key]!.length === 0) delete subscribed[key];
        body.already_subscribed = { ...(body.already_subscribed as object), [key]: moved };
      });
    }),
  },
  {
    what: 'leaving a channel one is not subscribed to is an error',
    rule: 'subscribe/repeat-and-resubscribe',
    mutate: on('DELETE', SUBSCRIBE, async (request, next) => {
      const response = await next(request);
      return response.status === 200 && (JSON.parse(response.body) as { not_removed: unknown[] }).not_removed.length > 0 ? badRequestAnswer('Not subscribed') : response;
    }),
  },
  { what: 'new_subscription_messages_sent is never sent', rule: 'subscribe/new-subscription-messages-sent', mutate: on('POST', SUBSCRIBE, async (request, next) => mapJsonBody(await next(request), (body) => delete body.new_subscription_messages_sent)) },
];

t.test('the targeted rules pass against the unbroken reference server at 415, 289 and 207', async (t) => {
  for (const level of [415, 289, 207]) {
    const result = await runOnReference({ featureLevel: level, numRuns: 5, seed: 3, only: CHANNEL_RULES });
    t.same(failureLines(result), [], `level ${level}`);
    t.ok(result.results.some((r) => r.outcome === 'passed'), `level ${level}: rules ran`);
  }
});

for (const breakage of BREAKAGES) {
  t.test(`the suite fails naming ${breakage.rule} when ${breakage.what}`, async (t) => {
    const result = await runOnReference({ mutate: breakage.mutate, numRuns: 5, seed: 4, only: [breakage.rule], ...(breakage.level === undefined ? {} : { featureLevel: breakage.level }) });
    t.same(failedIds(result), [breakage.rule]);
  });
}
