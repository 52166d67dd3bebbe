/**
 * `POST /mobile_push/register` (sections 2.9 and 4.12, feature level 406). The rules send only
 * requests that cannot register a device: invalid ones (every target), and valid ones only where
 * `server_settings` says push notifications are not configured, to see the documented error.
 * The real server answers that error with code BAD_REQUEST (deviation `push-not-configured-code`).
 */
import fc from 'fast-check';
import { check, expectEqual, expectError } from '../../expect/assert.js';
import { expectDocumentedError } from '../../expect/deviation.js';
import { printableText } from '../support/arbitraries.js';
import { expectUnauthorized } from '../conventions/credentials-required.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

const PUSH_LEVEL = 406;
const REQUIRED = ['token_kind', 'push_account_id', 'push_public_key', 'bouncer_public_key', 'encrypted_push_registration'] as const;
type Field = (typeof REQUIRED)[number];

const base64 = fc.uint8Array({ minLength: 1, maxLength: 48 }).map((bytes) => Buffer.from(bytes).toString('base64'));

/** A well-formed registration (the relay would only decrypt it later). */
const validRegistration = fc.record({
  token_kind: fc.constantFrom('fcm', 'apns'),
  push_account_id: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  push_public_key: base64,
  bouncer_public_key: base64,
  encrypted_push_registration: base64,
});
type Registration = { readonly [K in Field]: string | number };

const asPairs = (registration: Registration, omit: ReadonlySet<string> = new Set()): Array<[string, unknown]> =>
  REQUIRED.filter((name) => !omit.has(name)).map((name) => [name, registration[name]]);

const noCredentials: Rule = {
  id: 'push/no-credentials-unauthorized',
  title: 'registering a push device without credentials answers 401 UNAUTHORIZED',
  endpoint: 'POST /mobile_push/register',
  section: '4.12; 5.4',
  levels: { min: PUSH_LEVEL },
  writes: false,
  async run(ctx) {
    await ctx.property('any registration', [validRegistration], async (registration) => {
      expectUnauthorized(await ctx.anonymous.post('/mobile_push/register', asPairs(registration)));
    }, { maxRuns: 5 });
  },
};

const missingParameter: Rule = {
  id: 'push/missing-parameter-request-variable-missing',
  title: 'leaving out any required registration field answers 400 REQUEST_VARIABLE_MISSING naming one of the fields left out',
  endpoint: 'POST /mobile_push/register',
  section: '4.12; 7',
  levels: { min: PUSH_LEVEL },
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const omitted = fc.subarray([...REQUIRED], { minLength: 1 });
    await ctx.property('registration x fields left out', [validRegistration, omitted], async (registration, left) => {
      const reply = await ctx.as('member').post('/mobile_push/register', asPairs(registration, new Set(left)));
      const body = expectError(reply, { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
      check(left.includes(body.var_name as Field), `var_name: expected one of ${left.join(', ')}, got ${JSON.stringify(body.var_name)}`, reply);
    });
  },
};

const invalidTokenKind: Rule = {
  id: 'push/invalid-token-kind-bad-request',
  title: "a token_kind other than 'fcm' or 'apns' answers 400 BAD_REQUEST",
  endpoint: 'POST /mobile_push/register',
  section: '4.12',
  levels: { min: PUSH_LEVEL },
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const kind = fc.oneof(fc.constantFrom('FCM', 'APNS', 'gcm', 'apns ', ' fcm', '"fcm"', '', 'ios', 'android'), printableText(10)).filter((text) => text !== 'fcm' && text !== 'apns');
    await ctx.property('token kinds', [validRegistration, kind], async (registration, tokenKind) => {
      expectError(await ctx.as('member').post('/mobile_push/register', asPairs({ ...registration, token_kind: tokenKind })), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const accountIdNotInteger: Rule = {
  id: 'push/push-account-id-not-integer-bad-request',
  title: 'a push_account_id that is not a JSON integer answers 400 BAD_REQUEST',
  endpoint: 'POST /mobile_push/register',
  section: '4.12; 1 convention 2',
  levels: { min: PUSH_LEVEL },
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const notInteger = fc.oneof(fc.constantFrom('abc', '1.5', '"7"', 'true', 'null', '[1]', '{}', '', '1e3x'), fc.double({ noInteger: true, noDefaultInfinity: true, noNaN: true }).map(String));
    await ctx.property('values', [validRegistration, notInteger], async (registration, value) => {
      expectError(await ctx.as('member').post('/mobile_push/register', asPairs({ ...registration, push_account_id: value })), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

/**
 * A rule about valid registrations on a server without a push notification service (the member
 * registers; skipped where `server_settings` says the service is configured, since a valid
 * registration would then register a device).
 */
function notConfiguredRule(header: RuleHeader, body: (ctx: RuleContext) => Promise<void>): Rule {
  const prepare = async (ctx: RuleContext): Promise<void> => {
    if (ctx.target.pushNotificationsEnabled) ctx.skip('server_settings says push notifications are configured: a valid registration would register a device');
  };
  const defaults = { endpoint: 'POST /mobile_push/register', levels: { min: PUSH_LEVEL }, writes: false, needs: ['member'] } as const;
  return fixtureRule({ deviation: 'push-not-configured-code', ...header }, defaults, prepare, body);
}

const notConfigured = notConfiguredRule({
  id: 'push/not-configured-error',
  title: 'a valid registration on a server without a push notification service answers 400 PUSH_SERVICE_NOT_CONFIGURED',
  section: '4.12; 7',
}, async (ctx) => {
  await ctx.property('valid registrations', [validRegistration], async (registration) => {
    expectDocumentedError(ctx, await ctx.as('member').post('/mobile_push/register', asPairs(registration)), 'push-not-configured-code');
  }, { maxRuns: 10 });
});

/** The documented text of the not-configured error (OpenAPI register-push-device). */
const NOT_CONFIGURED_TEXT = 'Server is not configured to use push notification service.';

const eachTokenKind = notConfiguredRule({
  id: 'push/each-token-kind-passes-validation',
  title: "each token_kind, 'fcm' and 'apns', passes validation on every run: on a server without a push notification service both answer the not-configured error, with its documented text",
  section: '4.12; 2.9',
}, async (ctx) => {
  const key = Buffer.from(ctx.runTag).toString('base64');
  for (const [index, kind] of ['fcm', 'apns'].entries()) {
    const registration = { token_kind: kind, push_account_id: index + 1, push_public_key: key, bouncer_public_key: key, encrypted_push_registration: key };
    const reply = await ctx.as('member').post('/mobile_push/register', asPairs(registration));
    // The real server's code is BAD_REQUEST, like a validation error: the text tells them apart.
    expectEqual(expectDocumentedError(ctx, reply, 'push-not-configured-code').msg, NOT_CONFIGURED_TEXT, `msg for token_kind ${kind}`, reply);
  }
});

export const rules: readonly Rule[] = [noCredentials, missingParameter, invalidTokenKind, accountIdNotInteger, notConfigured, eachTokenKind];
