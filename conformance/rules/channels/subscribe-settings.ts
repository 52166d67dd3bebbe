/**
 * Every allowed value of subscribe's enumerated channel settings, each used once per run and read
 * back from `GET /users/me/subscriptions` (section 4.1): privacy and history, message retention,
 * the legacy `stream_post_policy` on both sides of level 333 and `topics_policy`. Values the real
 * server refuses are checked to be refused without creating anything. The group settings are in
 * subscribe-group-settings.ts.
 */
import type { JsonObject, Reply } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectSuccess, fail } from '../../expect/assert.js';
import { attemptChannel, channelExists, ownSubscriptions } from '../support/channel-fixtures.js';
import { holdersByRole, realmState } from '../support/realm-permissions.js';
import { SUBSCRIPTION_LEVELS } from './subscription-shape.js';
import type { Rule, RuleContext } from '../types.js';
import { systemGroups } from '../groups/user-groups-support.js';

type Params = ReadonlyArray<readonly [string, unknown]>;

/** A JSON-typed parameter's text: strings are sent JSON-encoded (the client sends them raw otherwise). */
const asJson = (value: string | number): string | number => (typeof value === 'string' ? JSON.stringify(value) : value);

/** One channel to create: its parameters and what its listing entry must then show. */
export interface CreationCase {
  readonly label: string;
  readonly params: Params;
  readonly expected: ReadonlyArray<readonly [string, unknown]>;
}

/** Creates one channel per case as `who` (each a request of its own), then checks every entry in one listing. */
export async function createAndReadBack(ctx: RuleContext, who: IdentityName, cases: readonly CreationCase[]): Promise<void> {
  const created: Array<[string, CreationCase]> = [];
  for (const entry of cases) {
    const name = ctx.name(entry.label);
    expectSuccess(await attemptChannel(ctx, who, name, entry.params));
    created.push([name, entry]);
  }
  const { entries, reply } = await ownSubscriptions(ctx.as(who));
  for (const [name, entry] of created) {
    const listed = entries.find((candidate) => candidate.name === name);
    if (!listed) fail(`${name} (${entry.label}) is not among the creator's subscriptions`, reply);
    for (const [field, value] of entry.expected) expectEqual(listed[field], value, `${field} of the channel created with ${entry.label}`, reply);
  }
}

/** A refused creation: the expected error, and no channel left behind. */
export async function expectRefusedCreation(ctx: RuleContext, who: IdentityName, label: string, params: Params, error: { status: number; code: string }): Promise<Reply> {
  const name = ctx.name(label);
  const reply = await attemptChannel(ctx, who, name, params);
  expectError(reply, error);
  check(!(await channelExists(ctx.as('admin'), name)), `${name} was created by a request refused for ${label}`, reply);
  return reply;
}

const privacyAndHistory: Rule = {
  id: 'subscribe/privacy-and-history-combinations',
  title: 'every combination of invite_only and history_public_to_subscribers (absent, false, true) creates the channel it describes: public channels always have public history, private ones only when asked',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1; 3.4',
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    const cases: CreationCase[] = [];
    for (const inviteOnly of [false, true]) {
      for (const history of [undefined, false, true]) {
        cases.push({
          label: `${inviteOnly ? 'private' : 'public'}-history-${String(history)}`,
          params: [['invite_only', inviteOnly], ...(history === undefined ? [] : [['history_public_to_subscribers', history] as const])],
          expected: [['invite_only', inviteOnly], ['is_web_public', false], ['history_public_to_subscribers', inviteOnly ? history === true : true]],
        });
      }
    }
    await createAndReadBack(ctx, 'admin', cases);
  },
};

/** Level 91: the unlimited retention value is `unlimited` (it was `forever`). */
const UNLIMITED_LEVEL = 91;

const retention: Rule = {
  id: 'subscribe/message-retention-days-values',
  title: 'an owner creates channels with each message_retention_days value (realm_default: null, unlimited: -1, a number of days); an administrator only with realm_default (else 400 UNAUTHORIZED_PRINCIPAL); zero, negative and unknown values are refused',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1',
  levels: { min: SUBSCRIPTION_LEVELS.RETENTION },
  writes: true,
  needs: ['owner', 'admin'],
  async run(ctx) {
    const [unlimited, oldName] = ctx.featureLevel >= UNLIMITED_LEVEL ? ['unlimited', 'forever'] : ['forever', 'unlimited'];
    const probe = await attemptChannel(ctx, 'owner', ctx.name('retention-probe'), [['message_retention_days', 30]]);
    // Zulip Cloud's free plan refuses any value but the realm default, for owners too.
    if (probe.status === 400 && /Cloud Standard/.test(String(probe.body?.msg))) ctx.skip('the organization plan does not allow channel retention settings');
    expectSuccess(probe);
    const cases: Array<[string | number, number | null]> = [['realm_default', null], [unlimited, -1], [1, 1], [3650, 3650]];
    await createAndReadBack(ctx, 'owner', cases.map(([value, stored]) => ({ label: `retention-${value}`, params: [['message_retention_days', asJson(value)]], expected: [['message_retention_days', stored]] })));
    await createAndReadBack(ctx, 'admin', [{ label: 'retention-admin-default', params: [['message_retention_days', asJson('realm_default')]], expected: [['message_retention_days', null]] }]);
    for (const value of [unlimited, 7]) {
      await expectRefusedCreation(ctx, 'admin', `retention-admin-${value}`, [['message_retention_days', asJson(value)]], { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
    }
    for (const value of [0, -1, oldName, 'never']) {
      await expectRefusedCreation(ctx, 'owner', `retention-bad-${value}`, [['message_retention_days', asJson(value)]], { status: 400, code: 'REQUEST_VARIABLE_INVALID' });
    }
  },
};

/** Level 333: `stream_post_policy` and `is_announcement_only` removed (can_send_message_group instead). */
const POST_POLICY_REMOVED = 333;
/** Level 33: the moderators-only policy (4). */
const MODERATORS_POLICY_LEVEL = 33;

const postPolicy: Rule = {
  id: 'subscribe/stream-post-policy-values-before-333',
  title: 'before level 333 each stream_post_policy value (1-4) is the created channel\'s policy, is_announcement_only means 2, and other numbers are refused with 400 BAD_REQUEST',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1; 9',
  levels: { max: POST_POLICY_REMOVED - 1 },
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    const values = ctx.featureLevel >= MODERATORS_POLICY_LEVEL ? [1, 2, 3, 4] : [1, 2, 3];
    const cases: CreationCase[] = values.map((value) => ({ label: `post-policy-${value}`, params: [['stream_post_policy', value]], expected: [['stream_post_policy', value]] }));
    cases.push({ label: 'announcement-only', params: [['is_announcement_only', true]], expected: [['stream_post_policy', 2]] });
    await createAndReadBack(ctx, 'admin', cases);
    for (const value of [0, 5]) await expectRefusedCreation(ctx, 'admin', `post-policy-${value}`, [['stream_post_policy', value]], { status: 400, code: 'BAD_REQUEST' });
  },
};

const postPolicyRemoved: Rule = {
  id: 'subscribe/stream-post-policy-ignored-from-333',
  title: 'from level 333 stream_post_policy and is_announcement_only are reported as ignored and the channel keeps the default can_send_message_group (role:everyone)',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1; 9',
  levels: { min: POST_POLICY_REMOVED },
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    const everyone = (await systemGroups(ctx.as('admin'))).get('role:everyone');
    const name = ctx.name('post-policy-removed');
    const reply = await attemptChannel(ctx, 'admin', name, [['stream_post_policy', 2], ['is_announcement_only', true]]);
    expectSuccess(reply, { ignored: ['is_announcement_only', 'stream_post_policy'] });
    const { entries, reply: listed } = await ownSubscriptions(ctx.as('admin'));
    expectEqual(entries.find((entry) => entry.name === name)?.can_send_message_group, everyone, 'can_send_message_group', listed);
  },
};

/** Level 404: `empty_topic_only`. */
const EMPTY_TOPIC_ONLY_LEVEL = 404;

const topicsPolicy: Rule = {
  id: 'subscribe/topics-policy-values',
  title: 'each topics_policy value creates a channel with that policy (for a holder of the realm\'s can_set_topics_policy_group; others may only ask for inherit); empty_topic_only only from level 404; unknown values are refused',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1',
  levels: { min: SUBSCRIPTION_LEVELS.TOPICS_POLICY },
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    const state: JsonObject = await realmState(ctx.as('admin'));
    const allowed = (await holdersByRole(ctx, state, 'realm_can_set_topics_policy_group', ['admin'])).get('admin') === true;
    const values = ['inherit', 'allow_empty_topic', 'disable_empty_topic', ...(ctx.featureLevel >= EMPTY_TOPIC_ONLY_LEVEL ? ['empty_topic_only'] : [])];
    const accepted = allowed ? values : ['inherit'];
    await createAndReadBack(ctx, 'admin', accepted.map((value) => ({ label: `topics-${value}`, params: [['topics_policy', asJson(value)]], expected: [['topics_policy', value]] })));
    for (const value of values.filter((candidate) => !accepted.includes(candidate))) {
      await expectRefusedCreation(ctx, 'admin', `topics-${value}`, [['topics_policy', asJson(value)]], { status: 400, code: 'BAD_REQUEST' });
    }
    const unknown = ['bogus', ...(ctx.featureLevel < EMPTY_TOPIC_ONLY_LEVEL ? ['empty_topic_only'] : [])];
    for (const value of unknown) await expectRefusedCreation(ctx, 'admin', `topics-${value}`, [['topics_policy', asJson(value)]], { status: 400, code: 'BAD_REQUEST' });
  },
};

export const rules: readonly Rule[] = [privacyAndHistory, retention, postPolicy, postPolicyRemoved, topicsPolicy];
