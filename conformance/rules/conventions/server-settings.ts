/**
 * `GET /server_settings`: what a client reads before logging in (sections 4.6 and 9; behaviour
 * reference section 2). No authentication, never `ignored_parameters_unsupported`.
 */
import fc from 'fast-check';
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { Rule } from '../types.js';
import { ignoredNames, unknownParams } from './unknown-parameters.js';

/** Level 88: `zulip_merge_base` in server_settings, register and restart events. */
const MERGE_BASE_LEVEL = 88;

const settingsShape = v.object({
  authentication_methods: v.record(v.bool()),
  zulip_version: v.string({ nonEmpty: true }),
  zulip_feature_level: v.optional(v.int({ min: 1 })),
  zulip_merge_base: v.optional(v.string()),
  push_notifications_enabled: v.bool(),
  is_incompatible: v.bool(),
  // Realm-specific fields: present only when the host maps to a realm.
  email_auth_enabled: v.optional(v.bool()),
  require_email_format_usernames: v.optional(v.bool()),
  realm_uri: v.optional(v.string()),
  realm_url: v.optional(v.string()),
  realm_name: v.optional(v.string()),
  realm_icon: v.optional(v.string()),
  realm_description: v.optional(v.string()),
  realm_web_public_access_enabled: v.optional(v.bool()),
  external_authentication_methods: v.optional(
    v.array(v.object({ name: v.string(), display_name: v.string(), display_icon: v.nullable(v.string()), login_url: v.string(), signup_url: v.string() })),
  ),
});

const shape: Rule = {
  id: 'server-settings/shape',
  title: 'server_settings answers without credentials with the version, feature level (and the merge base from level 88) and login methods',
  endpoint: 'GET /server_settings',
  section: '9.2; 4.6',
  writes: false,
  async run(ctx) {
    const reply = await ctx.anonymous.get('/server_settings');
    const body = expectShape(expectSuccess(reply, { ignored: [] }), settingsShape, 'body', reply);
    if (ctx.target.discoveredFeatureLevel > 0) expectEqual(body.zulip_feature_level, ctx.target.discoveredFeatureLevel, 'zulip_feature_level', reply);
    // zulip_merge_base came at level 88 (changelog 88).
    const level = ctx.target.discoveredFeatureLevel;
    if (level > 0) expectEqual(typeof body.zulip_merge_base, level >= MERGE_BASE_LEVEL ? 'string' : 'undefined', `zulip_merge_base at level ${level}`, reply);
    // realm_url replaced realm_uri at level 257; both carry the same URL.
    if (body.realm_uri !== undefined && ctx.target.discoveredFeatureLevel >= 257) {
      expectEqual(body.realm_url, body.realm_uri, 'realm_url (same as realm_uri since level 257)', reply);
    }
  },
};

const ignoresAuthorization: Rule = {
  id: 'server-settings/ignores-authorization',
  title: 'server_settings ignores any Authorization header, valid or not',
  endpoint: 'GET /server_settings',
  section: '9.2',
  writes: false,
  async run(ctx) {
    const header = fc.oneof(
      fc.stringMatching(/^[A-Za-z]{1,10} [A-Za-z0-9+/=]{1,30}$/),
      fc
        .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 })
        .map((text) => text.trim())
        .filter((text) => text !== ''),
    );
    await ctx.property('Authorization headers', [header], async (authorization) => {
      expectSuccess(await ctx.anonymous.withAuthorization(authorization).get('/server_settings'));
    });
  },
};

const neverIgnored: Rule = {
  id: 'server-settings/ignored-parameters',
  title: 'server_settings reports unknown parameters exactly, or (as the real server does) not at all',
  endpoint: 'GET /server_settings',
  section: '1 convention 4; 9.3',
  writes: false,
  deviation: 'ignored-parameters-not-reported',
  async run(ctx) {
    const names = unknownParams([], { minLength: 1, maxLength: 4 });
    await ctx.property('unknown parameters', [names], async (pairs) => {
      const reply = await ctx.anonymous.get('/server_settings', pairs);
      const ignored = expectSuccess(reply).ignored_parameters_unsupported;
      if (ignored === undefined) {
        ctx.deviation('ignored-parameters-not-reported', 'GET /server_settings did not report unknown parameters');
      } else {
        expectEqual(ignored, ignoredNames(pairs), 'ignored_parameters_unsupported', reply);
      }
    });
  },
};

const incompatibleClient: Rule = {
  id: 'server-settings/incompatible-client-flag',
  title: 'is_incompatible is true only for the ZulipInvalid client name in User-Agent',
  endpoint: 'GET /server_settings',
  section: '9.2',
  writes: false,
  async run(ctx) {
    const invalid = await ctx.anonymous.get('/server_settings', undefined, { headers: { 'user-agent': 'ZulipInvalid/1.0' } });
    check(expectSuccess(invalid).is_incompatible === true, 'is_incompatible must be true for User-Agent ZulipInvalid/1.0', invalid);
    const normal = await ctx.anonymous.get('/server_settings');
    check(expectSuccess(normal).is_incompatible === false, 'is_incompatible must be false for an ordinary client', normal);
  },
};

export const rules: readonly Rule[] = [shape, ignoresAuthorization, neverIgnored, incompatibleClient];
