/**
 * Legacy push registration (`POST`/`DELETE /users/me/apns_device_token` and
 * `/users/me/android_gcm_reg_id`; the real server's push_notifications views): tokens are not
 * empty and at most 4096 characters, APNs tokens must decode (a hexadecimal token of a multiple
 * of four characters always does; an odd length never does in any version), `appid` is required
 * from level 223. Tokens are the second member's own, run-tagged or random, and removed when the rule
 * ends. "Token does not exist" is asserted only where `server_settings` says no push service is
 * configured (with a bouncer, removals are forwarded to it). `POST /mobile_push/test_notification`
 * (level 217) refuses tokens that are not the caller's and, where no push service is configured,
 * succeeds without sending anything. The rules act as the second member,
 * which has more of its request budget to spare than the member.
 */
import { randomBytes } from 'node:crypto';
import type { ApiClient, Reply } from '../../client/api-client.js';
import { check, expectEqual, expectError } from '../../expect/assert.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule, RuleContext } from '../types.js';

const APNS = '/users/me/apns_device_token';
const ANDROID = '/users/me/android_gcm_reg_id';
const SECTION = 'api/add-apns-token; api/remove-apns-token; api/add-fcm-token; api/remove-fcm-token';
/** Level 223: `appid` is required for APNs tokens. */
const APPID_REQUIRED_LEVEL = 223;
const APP_ID = 'org.zulip.Zulip';
const MAX_TOKEN_LENGTH = 4096;
const TEST_NOTIFICATION = '/mobile_push/test_notification';
/** Level 217: `POST /mobile_push/test_notification`. */
const TEST_NOTIFICATION_LEVEL = 217;

/** A fresh APNs token: 32 random bytes in hexadecimal (64 characters). */
const apnsToken = (): string => randomBytes(32).toString('hex');
/** A fresh FCM registration ID carrying the run tag. */
const androidToken = (ctx: RuleContext): string => `${ctx.name('fcm')}-${randomBytes(12).toString('hex')}`;

/** Registers `token` at `path` for the second member; whatever was registered is removed when the rule ends. */
async function register(ctx: RuleContext, path: string, token: string, extra: Readonly<Record<string, string>> = {}): Promise<Reply> {
  const reply = await ctx.as('second-member').post(path, { token, ...extra });
  if (reply.status === 200) {
    ctx.cleanup(`remove the second member's push token ${token.slice(0, 24)}...`, async (c) => {
      const gone = await c.as('second-member').delete(path, { token });
      if (gone.status !== 200 && gone.status !== 400) throw new Error(`push token left registered: HTTP ${gone.status} ${gone.text.slice(0, 200)}`);
    });
  }
  return reply;
}

const registerRemove: Rule = {
  id: 'legacy-push/register-and-remove',
  title: 'an APNs token (with its app ID) and an FCM registration ID are registered (empty success, again on repeating) and removed (empty success); removing again answers 400 BAD_REQUEST where no push service is configured',
  endpoint: `POST, DELETE ${APNS}, POST, DELETE ${ANDROID}`,
  section: SECTION,
  writes: true,
  needs: ['second-member'],
  async run(ctx) {
    const client: ApiClient = ctx.as('second-member');
    for (const [path, token, extra] of [[APNS, apnsToken(), { appid: APP_ID }], [ANDROID, androidToken(ctx), {}]] as const) {
      expectPlainSuccess(await register(ctx, path, token, extra));
      expectPlainSuccess(await client.post(path, { token, ...extra }));
      expectPlainSuccess(await client.delete(path, { token }));
      const again = await client.delete(path, { token });
      if (!ctx.target.pushNotificationsEnabled) expectError(again, { status: 400, code: 'BAD_REQUEST' });
    }
  },
};

const invalid: Rule = {
  id: 'legacy-push/invalid-tokens-refused',
  title: 'an empty token, one of 4097 characters, an APNs token of odd length and a missing token answer 400 (BAD_REQUEST, REQUEST_VARIABLE_MISSING) on both kinds; from level 223 an APNs token without appid answers 400 REQUEST_VARIABLE_MISSING',
  endpoint: `POST ${APNS}, POST ${ANDROID}`,
  section: SECTION,
  writes: true,
  needs: ['second-member'],
  async run(ctx) {
    const tooLong = 'a'.repeat(MAX_TOKEN_LENGTH + 1);
    const cases: Array<readonly [string, string, string | undefined, Record<string, string>, string]> = [
      ['an empty APNs token', APNS, '', { appid: APP_ID }, 'BAD_REQUEST'],
      ['a 4097-character APNs token', APNS, tooLong, { appid: APP_ID }, 'BAD_REQUEST'],
      ['an APNs token of 3 characters', APNS, 'abc', { appid: APP_ID }, 'BAD_REQUEST'],
      ['an APNs token of 65 characters', APNS, `${apnsToken()}f`, { appid: APP_ID }, 'BAD_REQUEST'],
      ['no APNs token', APNS, undefined, { appid: APP_ID }, 'REQUEST_VARIABLE_MISSING'],
      ['an empty FCM token', ANDROID, '', {}, 'BAD_REQUEST'],
      ['a 4097-character FCM token', ANDROID, tooLong, {}, 'BAD_REQUEST'],
      ['no FCM token', ANDROID, undefined, {}, 'REQUEST_VARIABLE_MISSING'],
    ];
    if (ctx.featureLevel >= APPID_REQUIRED_LEVEL) cases.push(['an APNs token without appid', APNS, apnsToken(), {}, 'REQUEST_VARIABLE_MISSING']);
    for (const [what, path, token, extra, code] of cases) {
      const reply = token === undefined ? await ctx.as('second-member').post(path, extra) : await register(ctx, path, token, extra);
      check(reply.status === 400 && reply.body?.code === code, `${what} should answer 400 ${code}; got HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
    }
    for (const [path, token] of [[APNS, ''], [ANDROID, '']] as const) expectError(await ctx.as('second-member').delete(path, { token }), { status: 400, code: 'BAD_REQUEST' });
  },
};

const testNotification: Rule = {
  id: 'legacy-push/test-notification',
  title: 'from level 217 a test notification to a token that is not one of the caller\'s devices (unknown, or another user\'s) answers 400 INVALID_PUSH_DEVICE_TOKEN "Device not recognized"; where no push service is configured, one to the caller\'s own device or to all its devices is an empty success',
  endpoint: `POST ${TEST_NOTIFICATION}`,
  section: 'api/test-notify',
  writes: true,
  needs: ['second-member', 'member'],
  async run(ctx) {
    if (ctx.featureLevel < TEST_NOTIFICATION_LEVEL) ctx.skip('POST /mobile_push/test_notification is new in feature level 217');
    const client = ctx.as('second-member');
    const notRecognized = (reply: Reply, what: string): void => {
      expectEqual(expectError(reply, { status: 400, code: 'INVALID_PUSH_DEVICE_TOKEN' }).msg, 'Device not recognized', `the error message for ${what}`);
    };
    notRecognized(await client.post(TEST_NOTIFICATION, { token: androidToken(ctx) }), 'an unknown token');
    const token = androidToken(ctx);
    expectPlainSuccess(await register(ctx, ANDROID, token));
    notRecognized(await ctx.as('member').post(TEST_NOTIFICATION, { token }), "another user's token");
    // With a push service a test would reach the service (and the run's made-up token): not sent.
    if (ctx.target.pushNotificationsEnabled) return ctx.note('a push service is configured: no test notification was sent');
    expectPlainSuccess(await client.post(TEST_NOTIFICATION, { token }));
    expectPlainSuccess(await client.post(TEST_NOTIFICATION));
  },
};

const noCredentials = credentialsRequired({
  id: 'legacy-push/requires-credentials',
  endpoint: `POST, DELETE ${APNS}, POST, DELETE ${ANDROID}`,
  section: SECTION,
  requests: [['POST', APNS, { token: 'abcd', appid: APP_ID }], ['DELETE', APNS, { token: 'abcd' }], ['POST', ANDROID, { token: 'x' }], ['DELETE', ANDROID, { token: 'x' }]],
});

export const rules: readonly Rule[] = [registerRemove, invalid, testNotification, noCredentials];
