/**
 * The personal-list and own-settings rules (alert words, muted users, saved snippets, legacy
 * push tokens, PATCH /settings, presence reads) prove their power: against deliberately broken
 * variants of our server the named rule fails; against the unbroken server every one of them
 * passes at several feature levels.
 */
import type { User } from '../lib/entities/user.js';
import type { ChatApp } from '../server/app/app.js';
import { mapJsonBody, type Mutation } from './support/conformance.js';
import { cutTo } from './support/power-cuts.js';
import { asUser, badRequestAnswer, type Breakage, caller, eachBreakageFailsItsRule, errorsSucceed, formOf, idIn, is, jsonParam, mapAnswers, mapEvents, passesUnbroken, rewriteParam, SUCCESS, withForm } from './support/power-mutations.js';

const PERSONAL_LIST_RULES = ['alert-words/*', 'muted-users/*', 'saved-snippets/*', 'legacy-push/*', 'settings/*', 'presence/user-presence-no-data-and-deactivated', 'presence/realm-presence-readable-by-guest'];

const ALERT_WORDS = /^\/users\/me\/alert_words$/;
const MUTED = /^\/users\/me\/muted_users\/\d+$/;
const SNIPPETS = /^\/saved_snippets$/;
const SNIPPET = /^\/saved_snippets\/\d+$/;
const APNS = /^\/users\/me\/apns_device_token$/;
const ANDROID = /^\/users\/me\/android_gcm_reg_id$/;
const TEST_NOTIFICATION = /^\/mobile_push\/test_notification$/;
const SETTINGS = /^\/settings$/;
const PRESENCE = /^\/users\/\d+\/presence$/;

/** Runs `change` on the caller's stored alert words after a successful request matching `method`. */
const afterAlertWords = (method: string, change: (words: string[], sent: string[]) => string[]): Mutation => async (request, next, app) => {
  const sent = jsonParam<string[]>(formOf(request), 'alert_words') ?? [];
  const response = await next(request);
  const user = caller(app, request);
  if (!is(request, method, ALERT_WORDS) || response.status !== 200 || !user) return response;
  app.world.alertWords.set(user.id, change(app.world.alertWords.get(user.id) ?? [], sent));
  return response;
};

/** The owner of a saved snippet, if it exists. */
const snippetOwner = (app: ChatApp, id: number): User | undefined => {
  const snippet = app.world.savedSnippets.get(id);
  return snippet ? app.world.users.get(snippet.userId) : undefined;
};

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'alert words are stored unstripped',
    rule: 'alert-words/added-normalised',
    mutate: afterAlertWords('POST', (words, sent) => [...words, ...sent.filter((word) => word.trim() !== '' && word !== word.trim())]),
  },
  {
    what: 'case variants of an alert word are each kept',
    rule: 'alert-words/added-normalised',
    mutate: afterAlertWords('POST', (words, sent) => [...words, ...sent.filter((word) => word.trim() !== '' && !words.includes(word.trim())).map((word) => word.trim())]),
  },
  {
    what: 'alert words are removed only in their stored case',
    rule: 'alert-words/removed-without-regard-to-case',
    mutate: (request, next, app) => {
      const user = caller(app, request);
      if (!is(request, 'DELETE', ALERT_WORDS) || !user) return next(request);
      const stored = app.world.alertWords.get(user.id) ?? [];
      const form = formOf(request);
      form.set('alert_words', JSON.stringify((jsonParam<string[]>(form, 'alert_words') ?? []).filter((word) => stored.includes(word))));
      return next(withForm(request, form));
    },
  },
  {
    what: 'alert words over 100 characters are cut instead of refused',
    rule: 'alert-words/length-limit',
    mutate: rewriteParam('POST', ALERT_WORDS, 'alert_words', (value) => {
      try {
        return JSON.stringify((JSON.parse(value) as unknown[]).map((word) => (typeof word === 'string' ? cutTo(100)(word) : word)));
      } catch {
        return value;
      }
    }),
  },
  {
    what: 'the alert_words event lists only the words just added',
    rule: 'alert-words/events-and-register',
    mutate: (() => {
      let lastSent: string[] = [];
      const rewrite = mapEvents('alert_words', (event) => {
        if (Array.isArray(event.alert_words) && lastSent.some((word) => (event.alert_words as string[]).includes(word))) event.alert_words = [...lastSent, 'a word nobody added'];
      });
      const mutation: Mutation = (request, next, app) => {
        if (is(request, 'POST', ALERT_WORDS)) lastSent = (jsonParam<string[]>(formOf(request), 'alert_words') ?? []).map((word) => word.trim());
        return rewrite(request, next, app);
      };
      return mutation;
    })(),
  },
  {
    what: 'muting oneself succeeds',
    rule: 'muted-users/self-and-unknown-refused',
    mutate: (request, next, app) => (is(request, 'POST', MUTED) && caller(app, request)?.id === idIn(request) ? Promise.resolve(SUCCESS) : next(request)),
  },
  {
    what: 'muting a muted user again succeeds',
    rule: 'muted-users/mute-unmute-round-trip',
    mutate: errorsSucceed('POST', MUTED),
  },
  {
    what: 'muted_users events list the muted users without their timestamps',
    rule: 'muted-users/mute-unmute-round-trip',
    mutate: mapEvents('muted_users', (event) => {
      event.muted_users = (event.muted_users as Array<{ id: number }>).map(({ id }) => ({ id }));
    }),
  },
  {
    what: 'bots cannot be muted at level 415',
    rule: 'muted-users/bots-and-deactivated-users',
    mutate: (request, next, app) => (is(request, 'POST', MUTED) && app.world.users.get(idIn(request))?.isBot ? Promise.resolve(badRequestAnswer('No such user')) : next(request)),
  },
  {
    what: 'snippet titles over 60 characters are cut instead of refused',
    rule: 'saved-snippets/title-and-content-limits',
    mutate: rewriteParam('POST', SNIPPETS, 'title', cutTo(60)),
  },
  {
    what: "another user may delete a member's snippet (sent as its owner)",
    rule: 'saved-snippets/private-to-owner',
    mutate: (request, next, app) => {
      const owner = is(request, 'DELETE', SNIPPET) ? snippetOwner(app, idIn(request)) : undefined;
      return owner && caller(app, request)?.id !== owner.id ? next(asUser(request, owner)) : next(request);
    },
  },
  {
    what: 'an edited content is stored unstripped',
    rule: 'saved-snippets/edit',
    mutate: async (request, next, app) => {
      const content = formOf(request).get('content');
      const response = await next(request);
      const snippet = is(request, 'PATCH', SNIPPET) && response.status === 200 ? app.world.savedSnippets.get(idIn(request)) : undefined;
      if (snippet && content !== null) snippet.content = content;
      return response;
    },
  },
  {
    what: 'the remove event names another snippet',
    rule: 'saved-snippets/create-list-delete',
    mutate: mapEvents('saved_snippets', (event) => {
      if (event.op === 'remove') event.saved_snippet_id = Number(event.saved_snippet_id) + 1;
    }),
  },
  {
    what: 'APNs tokens of odd length are accepted',
    rule: 'legacy-push/invalid-tokens-refused',
    mutate: (request, next) => (is(request, 'POST', APNS) && (formOf(request).get('token') ?? '').length % 2 === 1 ? Promise.resolve(SUCCESS) : next(request)),
  },
  {
    what: 'removing an unknown token succeeds',
    rule: 'legacy-push/register-and-remove',
    mutate: errorsSucceed('DELETE', ANDROID),
  },
  {
    what: 'a test notification to an unknown token succeeds',
    rule: 'legacy-push/test-notification',
    mutate: errorsSucceed('POST', TEST_NOTIFICATION),
  },
  {
    what: 'an unrecognized device is a plain BAD_REQUEST',
    rule: 'legacy-push/test-notification',
    mutate: mapAnswers('POST', TEST_NOTIFICATION, (body) => {
      if (body.code === 'INVALID_PUSH_DEVICE_TOKEN') body.code = 'BAD_REQUEST';
    }),
  },
  {
    what: 'a test notification to the caller\'s own device is refused',
    rule: 'legacy-push/test-notification',
    mutate: (request, next) => (is(request, 'POST', TEST_NOTIFICATION) && formOf(request).has('token') ? Promise.resolve(badRequestAnswer('Device not recognized')) : next(request)),
  },
  {
    what: 'an email batching period of 0 s is dropped instead of refused',
    rule: 'settings/invalid-values-refused',
    mutate: rewriteParam('PATCH', SETTINGS, 'email_notifications_batching_period_seconds', (value) => (value === '0' ? undefined : value)),
  },
  {
    what: 'enter_sends is answered but not stored',
    rule: 'settings/every-value-applied',
    mutate: rewriteParam('PATCH', SETTINGS, 'enter_sends', () => undefined),
  },
  {
    what: 'the default_language event has no language_name',
    rule: 'settings/user-settings-events',
    mutate: mapEvents('user_settings', (event) => {
      delete event.language_name;
    }),
  },
  {
    what: 'full names over 100 characters are cut by PATCH /settings',
    rule: 'settings/full-name',
    mutate: rewriteParam('PATCH', SETTINGS, 'full_name', cutTo(100)),
  },
  {
    what: 'a wrong old password is taken as the right one',
    rule: 'settings/password-change',
    mutate: (request, next, app) => {
      const user = caller(app, request);
      const form = formOf(request);
      if (!is(request, 'PATCH', SETTINGS) || !form.has('old_password') || !user?.password) return next(request);
      form.set('old_password', user.password);
      return next(withForm(request, form));
    },
  },
  {
    what: 'unknown PATCH /settings parameters are not reported',
    rule: 'settings/unknown-parameters-reported',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'PATCH', SETTINGS) ? mapJsonBody(response, (body) => delete body.ignored_parameters_unsupported) : response;
    },
  },
  {
    what: 'a deactivated user still has presence',
    rule: 'presence/user-presence-no-data-and-deactivated',
    mutate: (request, next, app) => {
      const target = is(request, 'GET', PRESENCE) ? app.world.users.get(idIn(request)) : undefined;
      if (!target || target.isActive) return next(request);
      const entry = { status: 'offline', timestamp: 1 };
      return Promise.resolve(mapJsonBody(SUCCESS, (body) => { body.presence = { aggregated: entry, website: entry }; }));
    },
  },
];

passesUnbroken('every personal-list and own-settings rule', PERSONAL_LIST_RULES, [415, 289, 207], 3, 20);

eachBreakageFailsItsRule(BREAKAGES, 3);
