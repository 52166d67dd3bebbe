/**
 * What the read-receipt rules share: whether the organization has read receipts on (as
 * `POST /register` publishes it), turning them off and on again (realm-wide), and changing one
 * identity's `send_read_receipts` setting with its restoration registered.
 */
import type { IdentityName } from '../../credentials/types.js';
import { check, expectSuccess } from '../../expect/assert.js';
import { realmState } from '../support/realm-permissions.js';
import { ownSettings } from '../support/state-fetch.js';
import type { RuleContext } from '../types.js';

/** `realm_enable_read_receipts` as the administrator reads it. */
export async function realmReadReceipts(ctx: RuleContext): Promise<boolean> {
  const value = (await realmState(ctx.as('admin'))).realm_enable_read_receipts;
  check(typeof value === 'boolean', 'POST /register gave no realm_enable_read_receipts');
  return value;
}

/** Skips the rule when the organization has read receipts off (nothing to list then). */
export async function readReceiptsOn(ctx: RuleContext): Promise<void> {
  if (!(await realmReadReceipts(ctx))) ctx.skip('the organization has read receipts turned off (realm_enable_read_receipts is false)');
}

/** Sets the organization's `enable_read_receipts` as the administrator, registering the restoration of `original`. */
export async function setRealmReadReceipts(ctx: RuleContext, value: boolean, original: boolean): Promise<void> {
  expectSuccess(await ctx.as('admin').patch('/realm', { enable_read_receipts: value }));
  ctx.cleanup(`restore enable_read_receipts to ${original}`, async (c) => {
    const admin = c.as('admin');
    const reply = await admin.patch('/realm', { enable_read_receipts: original });
    if (reply.status !== 200) throw new Error(`enable_read_receipts left ${value}: PATCH /realm answered HTTP ${reply.status}`);
    const back = (await realmState(admin)).realm_enable_read_receipts;
    if (back !== original) throw new Error(`enable_read_receipts reads ${String(back)} after restoring it to ${original}`);
  });
}

/** Sets `who`'s `send_read_receipts` (when it differs), registering the restoration of the value it had. */
export async function setReadReceiptsSetting(ctx: RuleContext, who: IdentityName, value: boolean): Promise<void> {
  const client = ctx.as(who);
  const before = (await ownSettings(client)).send_read_receipts;
  check(typeof before === 'boolean', `${who}'s settings have no send_read_receipts`);
  if (before === value) return;
  expectSuccess(await client.patch('/settings', { send_read_receipts: value }));
  ctx.cleanup(`restore ${who}'s send_read_receipts to ${before}`, async (c) => {
    const reply = await c.as(who).patch('/settings', { send_read_receipts: before });
    if (reply.status !== 200) throw new Error(`${who}'s send_read_receipts left ${value}: PATCH /settings answered HTTP ${reply.status}`);
  });
}
