/**
 * The channel-name and channel-description limits of `POST /users/me/subscriptions` (sections
 * 2.1 and 8): `max_stream_name_length` and `max_stream_description_length` from `POST /register`,
 * checked on every run at exactly the limit (accepted) and one over (refused, creating nothing),
 * in code points (astral characters count once) and, for names, after surrounding whitespace is
 * stripped (reference 1.5).
 */
import { check, expectEqual, expectSuccess } from '../../expect/assert.js';
import { type Channel, channelExists, createChannels, ownSubscriptions, realmLimits } from '../support/channel-fixtures.js';
import { channelCreationRule, codePoints, expectCreationRefused, filledTo } from './subscribe-support.js';
import type { Rule, RuleContext } from '../types.js';

/** Fillers of one code point each: ASCII, an astral emoji (two UTF-16 units, four UTF-8 bytes), a mix. */
const FILLERS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['ASCII', ['x']],
  ['astral', ['😀']],
  ['mixed scripts', ['é', '日', '😀', 'ж', '𝔘', 'a']],
];

/** Creates a channel with a name as sent, registers its removal, and fails unless it was accepted. */
async function expectCreated(ctx: RuleContext, sent: string, stored: string, what: string): Promise<void> {
  const admin = ctx.as('admin');
  const reply = await admin.post('/users/me/subscriptions', { subscriptions: [{ name: sent }] });
  ctx.cleanup(`remove ${stored}`, async (c) => {
    const id = (await c.as('admin').get('/get_stream_id', { stream: stored })).body?.stream_id;
    if (typeof id === 'number') await c.as('admin').delete(`/streams/${id}`);
  });
  expectSuccess(reply);
  check(await channelExists(admin, stored), `${what}: ${JSON.stringify(stored)} (${codePoints(stored)} code points) was not created`, reply);
}

const nameLength = channelCreationRule({
  id: 'subscribe/channel-name-length-limit',
  title: 'a channel name of exactly max_stream_name_length code points (ASCII, astral or mixed, or padded with spaces that are stripped) is accepted; one more is refused with 400 BAD_REQUEST and the request creates nothing',
  section: '2.1; 8',
}, async (ctx, admin) => {
  const { maxStreamNameLength: max } = await realmLimits(admin);
  for (const [what, filler] of FILLERS) {
    const valid = ctx.name('len-ok');
    const long = filledTo(`${ctx.name('long')}-`, max + 1, filler);
    await expectCreationRefused(admin, [{ name: valid }, { name: long }], valid, `a ${what} name of ${max + 1} code points`);
    const exact = filledTo(`${ctx.name('max')}-`, max, filler);
    await expectCreated(ctx, exact, exact, `a ${what} name of exactly ${max} code points`);
  }
  const padded = filledTo(`${ctx.name('pad')}-`, max, ['p']);
  await expectCreated(ctx, `  ${padded} `, padded, `a name of ${max} code points between spaces`);
});

const descriptionLength = channelCreationRule({
  id: 'subscribe/channel-description-length-limit',
  title: 'a description of exactly max_stream_description_length code points (ASCII or astral) is stored as sent; one more is refused with 400 BAD_REQUEST and creates nothing',
  section: '2.1; 8',
}, async (ctx, admin) => {
  const { maxStreamDescriptionLength: max } = await realmLimits(admin);
  for (const [what, filler] of FILLERS.slice(0, 2)) {
    const name = ctx.name('desc-long');
    const description = filledTo('', max + 1, filler);
    await expectCreationRefused(admin, [{ name, description }], name, `a ${what} description of ${max + 1} code points`);
  }
  const description = filledTo('d', max, FILLERS[2]![1]);
  const [channel] = (await createChannels(ctx, 'admin', ['desc-max'], { description })) as [Channel];
  const { entries, reply } = await ownSubscriptions(admin);
  expectEqual(entries.find((entry) => entry.stream_id === channel.streamId)?.description, description, `description of exactly ${max} code points`, reply);
});

export const rules: readonly Rule[] = [nameLength, descriptionLength];
