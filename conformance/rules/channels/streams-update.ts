/**
 * `PATCH /streams/{id}` (api/update-stream), the properties an organization administrator
 * changes on a channel of the rule, each read back: `new_name` (limit, stripping, the same name,
 * another channel's name, a change of case only), `description` (limit, newlines), and privacy
 * (`is_private`, `history_public_to_subscribers`, `is_web_public`, the combinations refused).
 * The real server applies a request part by part, so every refused request here changes one
 * thing only and the rule reads back that nothing changed.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../client/api-client.js';
import { expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { realmLimits } from '../support/channel-fixtures.js';
import { holdersByRole, mayAct, realmState } from '../support/realm-permissions.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Channel } from '../support/channel-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { codePoints, filledTo } from './subscribe-support.js';
import { expectRefused, ownChannel, patchChannel, readChannel, STREAM_LEVELS } from './streams-support.js';

const INVALID = { status: 400, code: 'BAD_REQUEST' } as const;

/**
 * A `PATCH /streams/{id}` rule on a public channel the owner created, the member subscribed too
 * (the requests are spread over the owner, the administrator and the member, who reads back).
 */
export function updateRule(header: RuleHeader, body: (ctx: RuleContext, channel: Channel) => Promise<void>): Rule {
  const defaults = { endpoint: 'PATCH /streams/{stream_id}', writes: true, needs: ['owner', 'admin', 'member'] } as const;
  return fixtureRule(header, defaults, (ctx) => ownChannel(ctx, 'update', { creator: 'owner', members: ['member'] }), body);
}

/** Reads the channel back as the member (a subscriber) and compares the fields. */
export async function expectFields(ctx: RuleContext, channel: Channel, expected: ReadonlyArray<readonly [string, unknown]>, what: string): Promise<JsonObject> {
  const stream = await readChannel(ctx, ctx.as('member'), channel);
  for (const [field, value] of expected) expectEqual(stream[field], value, `${field} after ${what}`);
  return stream;
}

/** Characters of one code point each, several scripts and planes (an astral emoji counts once). */
const NAME_FILLERS = ['x', 'é', '日', '😀', 'ж', '𝔘', '-', '_'];

const rename = updateRule({
  id: 'streams-update/rename-limits-and-duplicates',
  title: 'new_name of exactly max_stream_name_length code points (stripped of surrounding spaces) renames the channel; one more, a blank name, the same name and another channel\'s name (in any case) are refused with 400 and leave the name; a change of case alone is accepted',
  section: 'api/update-stream',
}, async (ctx, channel) => {
  const owner = ctx.as('owner');
  const { maxStreamNameLength: max } = await realmLimits(owner);
  let current = channel.name;
  const filler = fc.array(fc.constantFrom(...NAME_FILLERS), { minLength: 1, maxLength: 4 });
  await ctx.property('fillers of the names x padding', [filler, fc.boolean()], async (chars, padded) => {
    const long = filledTo(`${ctx.name('rn')}-`, max + 1, chars);
    expectError(await patchChannel(owner, channel, { new_name: long }), INVALID);
    const exact = filledTo(`${ctx.name('rn')}-`, max, chars);
    expectSuccess(await patchChannel(owner, channel, { new_name: padded ? `  ${exact} ` : exact }));
    current = exact;
    await expectFields(ctx, channel, [['name', exact]], `a rename to ${codePoints(exact)} code points`);
  }, { maxRuns: 5 });
  expectError(await patchChannel(owner, channel, { new_name: current }), INVALID);
  expectError(await patchChannel(owner, channel, { new_name: '   ' }), INVALID);
  const other = await ownChannel(ctx, 'rename-taken', { creator: 'owner' });
  for (const taken of [other.name, other.name.toUpperCase()]) {
    expectRefused(await patchChannel(owner, channel, { new_name: taken }), ['CHANNEL_ALREADY_EXISTS', 'BAD_REQUEST'], `a rename to ${taken}`);
  }
  await expectFields(ctx, channel, [['name', current]], 'the refused renames');
  const upper = current.toUpperCase();
  expectSuccess(await patchChannel(owner, channel, { new_name: upper }));
  await expectFields(ctx, channel, [['name', upper]], 'a change of case');
});

const description = updateRule({
  id: 'streams-update/description-limit',
  title: 'a description of exactly max_stream_description_length code points is stored with its rendering; one more is refused with 400 BAD_REQUEST and leaves it; newlines are stored as spaces',
  section: 'api/update-stream',
}, async (ctx, channel) => {
  const owner = ctx.as('owner');
  const { maxStreamDescriptionLength: max } = await realmLimits(owner);
  const filler = fc.array(fc.constantFrom('d', '😀', 'ж', ' ', '*'), { minLength: 1, maxLength: 3 });
  await ctx.property('description fillers', [filler], async (chars) => {
    // Ends in a letter: whether a server strips trailing spaces is not what this rule checks.
    const exact = `${filledTo('d', max - 1, chars)}d`;
    expectError(await patchChannel(owner, channel, { description: filledTo('e', max + 1, chars) }), INVALID);
    expectSuccess(await patchChannel(owner, channel, { description: exact }));
    const stream = await expectFields(ctx, channel, [['description', exact]], `a description of ${codePoints(exact)} code points`);
    expectEqual(typeof stream.rendered_description === 'string' && stream.rendered_description !== '', true, 'rendered_description is set');
  }, { maxRuns: 3 });
  expectSuccess(await patchChannel(owner, channel, { description: 'first line\nsecond line' }));
  await expectFields(ctx, channel, [['description', 'first line second line']], 'a description with a newline');
});

const privacy = updateRule({
  id: 'streams-update/privacy-transitions',
  title: 'is_private and history_public_to_subscribers move a channel between public, private with protected history and private with shared history (history alone from level 136); a public channel with protected history and a private web-public one are refused with 400 BAD_REQUEST, leaving the channel as it was',
  section: 'api/update-stream; changelog 136',
}, async (ctx, channel) => {
  const owner = ctx.as('owner');
  const state = await realmState(owner);
  const mayPrivate = ctx.featureLevel < 264 || mayAct(await holdersByRole(ctx, state, 'realm_can_create_private_channel_group', ['owner']), 'owner');
  const mayPublic = ctx.featureLevel < 264 || mayAct(await holdersByRole(ctx, state, 'realm_can_create_public_channel_group', ['owner']), 'owner');
  if (!mayPrivate || !mayPublic) ctx.skip('the owner may not create both private and public channels on this realm');
  const fields = (inviteOnly: boolean, history: boolean) => [['invite_only', inviteOnly], ['history_public_to_subscribers', history]] as const;
  const steps: ReadonlyArray<{ params: Record<string, boolean>; expected: readonly (readonly [string, unknown])[]; min?: number }> = [
    { params: { is_private: true }, expected: fields(true, false) },
    { params: { is_private: false }, expected: fields(false, true) },
    { params: { is_private: true, history_public_to_subscribers: true }, expected: fields(true, true) },
    { params: { history_public_to_subscribers: false }, expected: fields(true, false), min: STREAM_LEVELS.HISTORY_ALONE },
  ];
  let last = fields(false, true) as readonly (readonly [string, unknown])[];
  for (const step of steps.filter((candidate) => ctx.featureLevel >= (candidate.min ?? 0))) {
    expectSuccess(await patchChannel(owner, channel, step.params));
    await expectFields(ctx, channel, step.expected, JSON.stringify(step.params));
    last = step.expected;
  }
  const refused: Array<Record<string, boolean>> = [{ is_private: false, history_public_to_subscribers: false }];
  if (ctx.featureLevel >= STREAM_LEVELS.WEB_PUBLIC) refused.push({ is_private: true, is_web_public: true });
  for (const params of refused) {
    expectError(await patchChannel(owner, channel, params), INVALID);
    await expectFields(ctx, channel, last, `the refused ${JSON.stringify(params)}`);
  }
});

const webPublic = updateRule({
  id: 'streams-update/web-public-by-permission',
  title: "is_web_public=true makes the channel web-public for the owner when the realm enables web-public channels and the owner holds can_create_web_public_channel_group, and is refused with 400 BAD_REQUEST otherwise; is_web_public=false makes it public again",
  section: 'api/update-stream; changelog 98, 110',
  // From 110 register publishes whether web-public channels are enabled (server_web_public_streams_enabled).
  levels: { min: 110 },
}, async (ctx, channel) => {
  const owner = ctx.as('owner');
  const state = await realmState(owner);
  const enabled = state.realm_enable_spectator_access === true && state.server_web_public_streams_enabled !== false;
  const holds = ctx.featureLevel < 280 || mayAct(await holdersByRole(ctx, state, 'realm_can_create_web_public_channel_group', ['owner']), 'owner');
  const reply = await patchChannel(owner, channel, { is_web_public: true });
  if (!enabled || !holds) {
    expectError(reply, INVALID);
    await expectFields(ctx, channel, [['is_web_public', false]], 'the refused is_web_public');
    return;
  }
  expectSuccess(reply);
  await expectFields(ctx, channel, [['is_web_public', true], ['invite_only', false]], 'is_web_public=true');
  expectSuccess(await patchChannel(owner, channel, { is_web_public: false }));
  await expectFields(ctx, channel, [['is_web_public', false], ['invite_only', false]], 'is_web_public=false');
});

export const rules: readonly Rule[] = [rename, description, privacy, webPublic];
