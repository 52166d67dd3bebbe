/**
 * `PATCH /streams/{id}` (api/update-stream): the settings beyond name, description and privacy,
 * each value read back: `message_retention_days` (owners only, level 17), `topics_policy`
 * (holders of the realm's can_set_topics_policy_group, level 392) and `folder_id` (level 389).
 */
import { expectError, expectSuccess } from '../../expect/assert.js';
import { holdersByRole, mayAct, realmState } from '../support/realm-permissions.js';
import type { Rule } from '../types.js';
import { updateRule, expectFields } from './streams-update.js';
import { patchChannel, STREAM_LEVELS } from './streams-support.js';

/** Level 91: the unlimited retention value is `unlimited` (it was `forever`). */
const UNLIMITED_LEVEL = 91;

/** A JSON-typed parameter's text: strings are sent JSON-encoded. */
const asJson = (value: string | number): string | number => (typeof value === 'string' ? JSON.stringify(value) : value);

const retention = updateRule({
  id: 'streams-update/retention-owners-only',
  title: 'an owner sets message_retention_days to realm_default (null), unlimited (-1) and a number of days, each read back; an administrator is refused with 400 UNAUTHORIZED_PRINCIPAL; zero, negative and unknown values with 400 REQUEST_VARIABLE_INVALID; refusals leave the value',
  section: 'api/update-stream; changelog 17, 91',
  levels: { min: STREAM_LEVELS.RETENTION },
}, async (ctx, channel) => {
  const owner = ctx.as('owner');
  const probe = await patchChannel(owner, channel, { message_retention_days: 30 });
  // Zulip Cloud's free plan refuses any value but the realm default, for owners too.
  if (probe.status === 400 && /Cloud Standard/.test(String(probe.body?.msg))) ctx.skip('the organization plan does not allow channel retention settings');
  expectSuccess(probe);
  const unlimited = ctx.featureLevel >= UNLIMITED_LEVEL ? 'unlimited' : 'forever';
  const cases: ReadonlyArray<readonly [string | number, number | null]> = [[1, 1], [unlimited, -1], [3650, 3650], ['realm_default', null]];
  let stored: number | null = 30;
  for (const [value, expected] of cases) {
    expectSuccess(await patchChannel(owner, channel, { message_retention_days: asJson(value) }));
    await expectFields(ctx, channel, [['message_retention_days', expected]], `message_retention_days=${value}`);
    stored = expected;
  }
  expectError(await patchChannel(ctx.as('admin'), channel, { message_retention_days: 7 }), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
  for (const value of [0, -2, 'never']) {
    expectError(await patchChannel(owner, channel, { message_retention_days: asJson(value) }), { status: 400, code: 'REQUEST_VARIABLE_INVALID' });
  }
  await expectFields(ctx, channel, [['message_retention_days', stored]], 'the refused retention changes');
});

const topicsPolicy = updateRule({
  id: 'streams-update/topics-policy-values',
  title: "a holder of the realm's can_set_topics_policy_group sets topics_policy to inherit, allow_empty_topic and disable_empty_topic, each read back; others are refused the non-inherit values; an unknown value is refused with 400 BAD_REQUEST",
  section: 'api/update-stream; changelog 392',
  levels: { min: STREAM_LEVELS.TOPICS_POLICY },
}, async (ctx, channel) => {
  const admin = ctx.as('admin');
  const holds = mayAct(await holdersByRole(ctx, await realmState(admin), 'realm_can_set_topics_policy_group', ['admin']), 'admin');
  // empty_topic_only is left out: newer servers refuse it for a channel with named topics (the creation notice has one).
  for (const value of ['allow_empty_topic', 'disable_empty_topic', 'inherit']) {
    const reply = await patchChannel(admin, channel, { topics_policy: value });
    if (!holds && value !== 'inherit') {
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
      continue;
    }
    if (holds) {
      expectSuccess(reply);
      await expectFields(ctx, channel, [['topics_policy', value]], `topics_policy=${value}`);
    }
  }
  expectError(await patchChannel(admin, channel, { topics_policy: 'bogus' }), { status: 400, code: 'BAD_REQUEST' });
  await expectFields(ctx, channel, [['topics_policy', 'inherit']], 'the refused topics_policy');
});

const folder = updateRule({
  id: 'streams-update/folder-id',
  title: 'folder_id=null leaves the channel in no folder (read back as null); a folder ID that does not exist is refused with 400 BAD_REQUEST',
  section: 'api/update-stream; changelog 389',
  levels: { min: STREAM_LEVELS.FOLDERS },
}, async (ctx, channel) => {
  const admin = ctx.as('admin');
  expectSuccess(await patchChannel(admin, channel, { folder_id: null }));
  await expectFields(ctx, channel, [['folder_id', null]], 'folder_id=null');
  expectError(await patchChannel(admin, channel, { folder_id: 2_000_000_000 }), { status: 400, code: 'BAD_REQUEST' });
  await expectFields(ctx, channel, [['folder_id', null]], 'an unknown folder_id');
});

export const rules: readonly Rule[] = [retention, topicsPolicy, folder];
