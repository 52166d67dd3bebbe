/**
 * `POST /users/me/presence` (sections 2.4, 3.3, 4.5): reporting one's status and fetching
 * everyone's. Presence depends on time and on other users of a shared server, so rules assert
 * only relations that hold anywhere: formats and shapes, `presence_last_update_id` >= the value
 * passed, the window of `history_limit_days`, and that a user who just reported `active`
 * appears with fresh timestamps (when presence is shown at all: realm and user settings).
 */
import fc from 'fast-check';
import { check, expectAnyError, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { caseVariant, notJsonBoolean, printableText } from '../support/arbitraries.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { checkFresh, HISTORY_LIMIT_DAYS, LAST_UPDATE_ID, LEGACY_WEBSITE_ONLY, modernEntry, ownPresence, presenceBody } from './presence-shapes.js';
import type { Rule } from '../types.js';
import { checkUnknownParamsReported } from '../conventions/unknown-parameters.js';

/** JSON numbers (`5`, ` 5`, `1e3`) may be read as integers: never offered as non-integers. */
const isJsonNumber = (text: string): boolean => {
  try {
    return typeof JSON.parse(text) === 'number';
  } catch {
    return false;
  }
};

const ENDPOINT = 'POST /users/me/presence';
const PATH = '/users/me/presence';
const PARAMS = ['status', 'last_update_id', 'history_limit_days', 'new_user_input', 'ping_only', 'slim_presence'];

const noCredentials = credentialsRequired({
  id: 'presence/requires-credentials',
  endpoint: ENDPOINT,
  section: '4.5',
  requests: [
    ['POST', PATH, { status: 'active' }],
    ['GET', '/realm/presence'],
    ['GET', '/users/1/presence'],
  ],
});

const statusValues: Rule = {
  id: 'presence/status-values',
  title: "status 'active' and 'idle' are accepted; any other value, or none, answers 400",
  endpoint: ENDPOINT,
  section: '4.5; 3.3',
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const status = fc.oneof(fc.constantFrom('active', 'idle'), caseVariant('active'), caseVariant('idle'), fc.constantFrom('offline', '', ' active', 'active '), printableText(10));
    await ctx.property('status values', [status], async (value) => {
      const reply = await client.post(PATH, { status: value, ping_only: true });
      if (value === 'active' || value === 'idle') expectSuccess(reply, { ignored: [] });
      else expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    });
    // The code of a missing argument is not established; the status is.
    expectAnyError(await client.post(PATH, { ping_only: true }), 400);
  },
};

const legacyFormat: Rule = {
  id: 'presence/legacy-format-by-default',
  title: 'without last_update_id or slim_presence, presences are legacy entries keyed by email, the reporter fresh and active',
  endpoint: ENDPOINT,
  section: '4.5; 2.4',
  levels: { min: LEGACY_WEBSITE_ONLY },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const { shown, email } = await ownPresence(client);
    await ctx.property('new_user_input and explicit slim_presence=false', [fc.option(fc.boolean(), { nil: undefined }), fc.boolean()], async (input, explicit) => {
      const reply = await client.post(PATH, { status: 'active', new_user_input: input, slim_presence: explicit ? false : undefined });
      const body = presenceBody(reply, 'legacy', ctx.featureLevel);
      if (!shown) return;
      const own = body.presences[email] as { website: { status: string; timestamp: number }; aggregated: { status: string } } | undefined;
      check(own !== undefined, `the reporter's entry (${email}) is missing`, reply);
      expectEqual(own.website.status, 'active', 'own website.status', reply);
      expectEqual(own.aggregated.status, 'active', 'own aggregated.status', reply);
      checkFresh(own.website.timestamp, body.server_timestamp, 'own website.timestamp');
    }, { maxRuns: 6 });
  },
};

const slimFormat: Rule = {
  id: 'presence/modern-format-with-slim-presence',
  title: 'slim_presence=true gives modern entries keyed by user ID; the reporter appears with fresh timestamps',
  endpoint: ENDPOINT,
  section: '4.5; 2.4',
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const { shown, id } = await ownPresence(client);
    await ctx.property('active and idle reports', [fc.constantFrom('active', 'idle')], async (status) => {
      // An active report first, so the active timestamp is fresh whatever the second report says.
      expectSuccess(await client.post(PATH, { status: 'active', ping_only: true }));
      const reply = await client.post(PATH, { status, slim_presence: true });
      const body = presenceBody(reply, 'modern', ctx.featureLevel);
      if (!shown) return;
      const own = body.presences[String(id)] as { active_timestamp: number; idle_timestamp: number } | undefined;
      check(own !== undefined, `the reporter's entry (${id}) is missing`, reply);
      checkFresh(own.active_timestamp, body.server_timestamp, 'own active_timestamp');
      checkFresh(own.idle_timestamp, body.server_timestamp, 'own idle_timestamp');
    }, { maxRuns: 4 });
  },
};

const lastUpdateId: Rule = {
  id: 'presence/last-update-id',
  title: 'with last_update_id the data is modern and presence_last_update_id is at least the value passed (equal when nothing is newer)',
  endpoint: ENDPOINT,
  section: '4.5',
  levels: { min: LAST_UPDATE_ID },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const { shown, id } = await ownPresence(client);
    const first = presenceBody(await client.post(PATH, { status: 'active', last_update_id: -1 }), 'modern', ctx.featureLevel);
    if (shown) check(first.presences[String(id)] !== undefined, "with last_update_id=-1 the reporter's own entry must be returned");
    const current = first.presence_last_update_id ?? -1;
    const passed = fc.oneof(fc.constantFrom(-1, 0, current, 2 ** 31 - 1), fc.integer({ min: -1, max: Math.max(0, current) }), fc.integer({ min: current + 1_000_000, max: 2 ** 31 - 1 }));
    await ctx.property('last_update_id values', [passed, fc.boolean()], async (value, slimFalse) => {
      const reply = await client.post(PATH, { status: 'active', last_update_id: value, slim_presence: slimFalse ? false : undefined });
      const body = presenceBody(reply, 'modern', ctx.featureLevel);
      const returned = body.presence_last_update_id as number;
      check(returned >= value, `presence_last_update_id ${returned} is smaller than the last_update_id passed (${value})`, reply);
      // Nothing can be newer than an ID far beyond any the server handed out.
      if (value >= current + 1_000_000) {
        expectEqual(body.presences, {}, 'presences newer than an unreached last_update_id', reply);
        expectEqual(returned, value, 'presence_last_update_id when nothing is newer', reply);
      }
    });
  },
};

const lastUpdateIdBefore: Rule = {
  id: 'presence/last-update-id-unknown-before-263',
  title: 'before level 263 last_update_id is not a parameter: legacy format, no presence_last_update_id',
  endpoint: ENDPOINT,
  section: '4.5; 9.2',
  levels: { max: LAST_UPDATE_ID - 1 },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const reply = await client.post(PATH, { status: 'active', last_update_id: -1 });
    presenceBody(reply, 'legacy', ctx.featureLevel);
    if (ctx.featureLevel >= 167) expectSuccess(reply, { ignored: ['last_update_id'] });
  },
};

const historyLimit: Rule = {
  id: 'presence/history-limit-days-window',
  title: 'history_limit_days=N returns no entry whose last report is older than N days',
  endpoint: ENDPOINT,
  section: '4.5; 8',
  levels: { min: HISTORY_LIMIT_DAYS },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const { shown, id } = await ownPresence(client);
    await ctx.property('windows of 1 to 400 days', [fc.integer({ min: 1, max: 400 })], async (days) => {
      const reply = await client.post(PATH, { status: 'active', slim_presence: true, history_limit_days: days });
      const body = presenceBody(reply, 'modern', ctx.featureLevel);
      const oldest = Math.floor(body.server_timestamp) - days * 86_400 - 1;
      for (const [user, entry] of Object.entries(body.presences)) {
        const { idle_timestamp: idle } = expectShape(entry, modernEntry, `presences[${user}]`, reply);
        check(idle >= oldest, `presences[${user}].idle_timestamp ${idle} is older than ${days} days before the server time`, reply);
      }
      if (shown) check(body.presences[String(id)] !== undefined, "the reporter's own entry is inside any window", reply);
    }, { maxRuns: 10 });
  },
};

const historyZero: Rule = {
  id: 'presence/history-limit-zero-returns-nothing',
  title: 'history_limit_days=0 without last_update_id returns no entries and presence_last_update_id -1',
  endpoint: ENDPOINT,
  section: '4.5',
  levels: { min: HISTORY_LIMIT_DAYS },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const reply = await ctx.as('member').post(PATH, { status: 'active', history_limit_days: 0, slim_presence: true });
    const body = presenceBody(reply, 'modern', ctx.featureLevel);
    expectEqual(body.presences, {}, 'presences', reply);
    expectEqual(body.presence_last_update_id, -1, 'presence_last_update_id with no data and no last_update_id', reply);
  },
};

const historyBefore: Rule = {
  id: 'presence/history-limit-days-unknown-before-288',
  title: 'before level 288 history_limit_days is not a parameter: a 0-day window still returns data',
  endpoint: ENDPOINT,
  section: '4.5; 9.2',
  levels: { max: HISTORY_LIMIT_DAYS - 1 },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const { shown, id } = await ownPresence(client);
    const reply = await client.post(PATH, { status: 'active', slim_presence: true, history_limit_days: 0 });
    const body = presenceBody(reply, 'modern', ctx.featureLevel);
    if (shown) check(body.presences[String(id)] !== undefined, "the reporter's own entry is missing: history_limit_days must have no effect", reply);
    if (ctx.featureLevel >= 167) expectSuccess(reply, { ignored: ['history_limit_days'] });
  },
};

const pingOnly: Rule = {
  id: 'presence/ping-only-returns-no-data',
  title: 'ping_only=true answers without presences or server_timestamp, and the report still counts',
  endpoint: ENDPOINT,
  section: '4.5',
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const { shown, id } = await ownPresence(client);
    const reply = await client.post(PATH, { status: 'active', ping_only: true, slim_presence: true });
    expectShape(expectSuccess(reply, { ignored: [] }), v.object({}, { forbidden: ['presences', 'server_timestamp'] }), 'body', reply);
    if (!shown) return;
    const check2 = presenceBody(await client.post(PATH, { status: 'idle', slim_presence: true }), 'modern', ctx.featureLevel);
    const own = check2.presences[String(id)] as { active_timestamp: number } | undefined;
    check(own !== undefined, "the reporter's entry is missing after a ping");
    checkFresh(own.active_timestamp, check2.server_timestamp, 'active_timestamp after an active ping');
  },
};

const booleans: Rule = {
  id: 'presence/json-boolean-parameters',
  title: 'new_user_input, ping_only and slim_presence accept JSON true/false and answer 400 BAD_REQUEST to anything else',
  endpoint: ENDPOINT,
  section: '4.5; 1 convention 2',
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const name = fc.constantFrom('new_user_input', 'ping_only', 'slim_presence');
    await ctx.property('boolean parameters', [name, fc.oneof(fc.constantFrom('true', 'false'), notJsonBoolean())], async (param, wire) => {
      const reply = await client.post(PATH, [['status', 'idle'], [param, wire]]);
      if (wire === 'true' || wire === 'false') expectSuccess(reply, { ignored: [] });
      else expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const integers: Rule = {
  id: 'presence/integer-parameters-refuse-non-integers',
  title: 'last_update_id and history_limit_days answer 400 BAD_REQUEST to values that are not JSON integers',
  endpoint: ENDPOINT,
  section: '4.5; 1 convention 2',
  levels: { min: LAST_UPDATE_ID },
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const names = ctx.featureLevel >= HISTORY_LIMIT_DAYS ? ['last_update_id', 'history_limit_days'] : ['last_update_id'];
    const notInteger = fc.oneof(fc.constantFrom('1.5', '"3"', 'true', 'null', '[]', '', 'seven', '0x10'), printableText(8).filter((text) => !isJsonNumber(text)));
    await ctx.property('non-integers', [fc.constantFrom(...names), notInteger], async (param, wire) => {
      expectError(await client.post(PATH, [['status', 'idle'], [param, wire]]), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const unknownIgnored: Rule = {
  id: 'presence/unknown-parameters-ignored',
  title: 'unknown parameters are reported, sorted, in ignored_parameters_unsupported',
  endpoint: ENDPOINT,
  section: '1 convention 4; 9.3',
  levels: { min: 167 },
  writes: true,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    await checkUnknownParamsReported(ctx, { declared: PARAMS, send: (pairs) => client.post(PATH, [['status', 'idle'], ['ping_only', 'true'], ...pairs]), maxRuns: 10 });
  },
};

export const rules: readonly Rule[] = [noCredentials, statusValues, legacyFormat, slimFormat, lastUpdateId, lastUpdateIdBefore, historyLimit, historyZero, historyBefore, pingOnly, booleans, integers, unknownIgnored];
