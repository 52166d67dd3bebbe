/**
 * Organization data exports (`api/export-realm`, `api/get-realm-exports`,
 * `api/get-realm-export-consents`): administrators only. Listing exports and consents is
 * read-only and runs anywhere. Starting an export is checked against the embedded server only:
 * on a real deployment it writes an archive of the whole organization (every message, private
 * ones included) to the server's storage for administrators to download, costs one of the five
 * exports a week, and cannot be taken back before it finishes, so the suite never asks for one.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { type Infer, v } from '../../expect/shape.js';
import { humanIds } from '../groups/user-groups.js';
import { awaitEvent, draftSentinel, expectNoEventBefore, expectPrivilegeRefused } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import type { Rule } from '../types.js';

const CONSENTS_LEVEL = 295;
const EXPORT_TYPE_LEVEL = 304;
const CONSENT_EVENT_LEVEL = 312;

const exportShape = v.object({
  id: v.int({ min: 1 }),
  acting_user_id: v.int({ min: 1 }),
  export_time: v.number(),
  deleted_timestamp: v.nullable(v.number()),
  failed_timestamp: v.nullable(v.number()),
  pending: v.bool(),
  export_url: v.nullable(v.string()),
});
type ApiExport = Infer<typeof exportShape>;
const listShape = v.object({ exports: v.array(exportShape) });
const consentsShape = v.object({ export_consents: v.array(v.object({ user_id: v.int({ min: 1 }), consented: v.bool() })) });

async function listExports(client: ApiClient): Promise<ApiExport[]> {
  const reply = await client.get('/export/realm');
  return expectShape(expectSuccess(reply), listShape, 'body', reply).exports;
}

const reads: Rule = {
  id: 'exports/list-and-consents-administrators-only',
  title: 'administrators list the exports and (level 295) every user\'s export consent; moderators, members and guests are refused (400)',
  endpoint: 'GET /export/realm, GET /export/realm/consents',
  section: 'api/get-realm-exports; api/get-realm-export-consents',
  writes: false,
  needs: ['admin', 'moderator', 'member', 'guest'],
  async run(ctx) {
    const admin = ctx.as('admin');
    await listExports(admin);
    if (ctx.featureLevel >= CONSENTS_LEVEL) {
      const reply = await admin.get('/export/realm/consents');
      const consents = expectShape(expectSuccess(reply), consentsShape, 'body', reply).export_consents;
      const listed = new Set(consents.map((entry) => entry.user_id));
      expectEqual(humanIds(ctx).filter((id) => !listed.has(id)), [], 'the run\'s users missing from export_consents');
    }
    for (const who of ['moderator', 'member', 'guest'] as const) {
      expectPrivilegeRefused(await ctx.as(who).get('/export/realm'), `the ${who} listing exports`);
      if (ctx.featureLevel >= CONSENTS_LEVEL) expectPrivilegeRefused(await ctx.as(who).get('/export/realm/consents'), `the ${who} listing export consents`);
    }
  },
};

const isExportEventWith = (id: number) => (event: JsonObject): boolean => event.type === 'realm_export' && Array.isArray(event.exports) && (event.exports as JsonObject[]).some((entry) => entry.id === id);

const startEmbedded: Rule = {
  id: 'exports/start-and-delete-embedded-only',
  title: 'on the embedded server: an administrator\'s export is answered with its id, listed as theirs and announced by realm_export events; members are refused; an unknown export type (304) is refused; a finished export is deleted once',
  endpoint: 'POST /export/realm, DELETE /export/realm/{export_id}',
  section: 'api/export-realm; api/delete-realm-export',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    if (ctx.target.kind !== 'embedded') ctx.skip('an export archives the whole organization on the target: checked on the embedded server only');
    const admin = ctx.as('admin');
    const before = (await listExports(admin)).length;
    expectPrivilegeRefused(await ctx.as('member').post('/export/realm'), 'the member starting an export');
    if (ctx.featureLevel >= EXPORT_TYPE_LEVEL) expectError(await admin.post('/export/realm', { export_type: 3 }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual((await listExports(admin)).length, before, 'the number of exports after the refusals');
    const queue = await openStreamAs(ctx, 'admin', ['realm_export']);
    const reply = await admin.post('/export/realm');
    const id = expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }) }), 'body', reply).id;
    const listed = (await listExports(admin)).find((entry) => entry.id === id);
    check(listed !== undefined, `export ${id} is not listed`);
    expectEqual(listed.acting_user_id, ctx.identity('admin').userId, 'acting_user_id of the export');
    await awaitEvent(queue, isExportEventWith(id), `export ${id}`);
    if (listed.pending) return ctx.note(`export ${id} was still pending: its deletion was not checked`);
    expectSuccess(await admin.delete(`/export/realm/${id}`));
    const deleted = (await listExports(admin)).find((entry) => entry.id === id);
    check(deleted !== undefined && deleted.deleted_timestamp !== null, `export ${id} should stay listed with a deleted_timestamp`);
    expectError(await admin.delete(`/export/realm/${id}`), { status: 400, code: 'BAD_REQUEST' });
  },
};

async function consentOf(admin: ApiClient, userId: number): Promise<boolean> {
  const reply = await admin.get('/export/realm/consents');
  const entry = expectShape(expectSuccess(reply), consentsShape, 'body', reply).export_consents.find((c) => c.user_id === userId);
  check(entry !== undefined, `user ${userId} is missing from export_consents`, reply);
  return entry.consented;
}

const consentEvent: Rule = {
  id: 'exports/consent-event-to-administrators',
  title: 'from level 312 a member\'s allow_private_data_export change reaches administrators as realm_export_consent {user_id, consented}, agrees with the consents list, and does not reach a moderator',
  endpoint: 'PATCH /settings',
  section: 'api/get-events (realm_export_consent); api/get-realm-export-consents',
  writes: true,
  needs: ['admin', 'moderator', 'member'],
  async run(ctx) {
    if (ctx.featureLevel < CONSENT_EVENT_LEVEL) ctx.skip('realm_export_consent is new in feature level 312');
    const admin = ctx.as('admin');
    const member = ctx.identity('member').userId;
    const original = await consentOf(admin, member);
    const adminQueue = await openStreamAs(ctx, 'admin', ['realm_export_consent']);
    const moderatorQueue = await openStreamAs(ctx, 'moderator', ['realm_export_consent', 'drafts']);
    ctx.cleanup('restore the member\'s allow_private_data_export', async () => void (await ctx.as('member').patch('/settings', { allow_private_data_export: original })));
    const isConsent = (event: JsonObject): boolean => event.type === 'realm_export_consent';
    for (const consented of [!original, original]) {
      expectSuccess(await ctx.as('member').patch('/settings', { allow_private_data_export: consented }));
      const event = await awaitEvent(adminQueue, (e) => isConsent(e) && e.user_id === member, `the member's consent becoming ${consented}`);
      expectEqual({ ...event, id: 0 }, { id: 0, type: 'realm_export_consent', user_id: member, consented }, 'the realm_export_consent event');
      expectEqual(await consentOf(admin, member), consented, 'the member\'s consent listed after the change');
    }
    const sentinel = draftSentinel(ctx.as('moderator'), 'export consent');
    await expectNoEventBefore(moderatorQueue, isConsent, sentinel, 'two consent changes (a moderator is not an administrator)');
    await sentinel.remove();
  },
};

export const rules: readonly Rule[] = [reads, startEmbedded, consentEvent];
