/**
 * What `GET /server_settings` fields mean (sections 4.6 and 9): the login methods it advertises
 * are the ones that work (password login with `email_auth_enabled`, the development login exactly
 * when `authentication_methods.dev` is on), and its version, feature level and realm name are the
 * ones `/register` reports to a logged-in client.
 */
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fetchState } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';

const methodsShape = v.object({ authentication_methods: v.record(v.bool()), email_auth_enabled: v.optional(v.bool()) });

const loginMethods: Rule = {
  id: 'server-settings/login-methods-mean-what-they-say',
  title: 'email_auth_enabled implies authentication_methods.password; the development login answers exactly when authentication_methods.dev is true',
  endpoint: 'GET /server_settings',
  section: '4.6; 9.2',
  writes: false,
  async run(ctx) {
    const reply = await ctx.anonymous.get('/server_settings');
    const settings = expectShape(expectSuccess(reply), methodsShape, 'body', reply);
    if (settings.email_auth_enabled === true) {
      expectEqual(settings.authentication_methods.password, true, 'authentication_methods.password (email_auth_enabled is true)', reply);
    }
    const domain = ctx.identities[0]?.email.split('@')[1] ?? 'example.com';
    const nobody = await ctx.anonymous.post('/dev_fetch_api_key', { username: `${ctx.name('nobody')}@${domain}` });
    if (settings.authentication_methods.dev === true) {
      const listed = await ctx.anonymous.get('/dev_list_users');
      expectEqual(listed.status, 200, 'dev_list_users status (authentication_methods.dev is true)', listed);
      expectEqual(nobody.status, 401, 'dev_fetch_api_key status for an unknown address (authentication_methods.dev is true)', nobody);
      return;
    }
    // Off: the development login must hand out nothing, not even "no such user".
    check(nobody.status !== 200 && nobody.status !== 401, `dev_fetch_api_key answered HTTP ${nobody.status} although authentication_methods.dev is false`, nobody);
    const known = ctx.identities[0];
    if (known) {
      const key = await ctx.anonymous.post('/dev_fetch_api_key', { username: known.email });
      check(key.status !== 200, `dev_fetch_api_key handed out a key for ${known.email} although authentication_methods.dev is false`, key);
    }
  },
};

const registerShape = v.object({ zulip_version: v.string(), zulip_feature_level: v.optional(v.int()), realm_name: v.optional(v.string()) });

const agreesWithRegister: Rule = {
  id: 'server-settings/agrees-with-register',
  title: "server_settings' zulip_version, zulip_feature_level and realm_name are the ones /register reports",
  endpoint: 'GET /server_settings',
  section: '9.2',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const reply = await ctx.anonymous.get('/server_settings');
    const settings = expectShape(expectSuccess(reply), registerShape, 'body', reply);
    const state = expectShape(await fetchState(ctx.as('user'), ['realm']), registerShape, 'register', reply);
    expectEqual(settings.zulip_version, state.zulip_version, 'zulip_version (as in /register)', reply);
    expectEqual(settings.zulip_feature_level, state.zulip_feature_level, 'zulip_feature_level (as in /register)', reply);
    if (settings.realm_name !== undefined) expectEqual(settings.realm_name, state.realm_name, 'realm_name (as in /register)', reply);
  },
};

export const rules: readonly Rule[] = [loginMethods, agreesWithRegister];
