/** `GET /server_settings`: no authentication; what a client needs before logging in. */
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { render } from '../../../lib/rendering/render.js';
import { open, type RouteDef } from '../../app/endpoint.js';

const getServerSettings = open({
  params: {},
  reportsIgnored: false,
  run({ app, world, request }) {
    const realmUrl = app.realmUrl(request);
    const userAgent = request.headers.get('user-agent') ?? '';
    return {
      authentication_methods: {
        password: world.realm.emailAuthEnabled,
        dev: app.devEndpoints,
        email: world.realm.emailAuthEnabled,
        ldap: false,
        remoteuser: false,
        github: false,
        azuread: false,
        gitlab: false,
        apple: false,
        google: false,
        saml: false,
        'openid connect': false,
      },
      zulip_version: app.zulipVersion,
      ...(world.has(FEATURES.MERGE_BASE) ? { zulip_merge_base: app.zulipVersion } : {}),
      zulip_feature_level: world.featureLevel,
      push_notifications_enabled: world.pushConfigured,
      is_incompatible: userAgent.startsWith('ZulipInvalid'),
      email_auth_enabled: world.realm.emailAuthEnabled,
      require_email_format_usernames: true,
      realm_uri: realmUrl,
      ...(world.has(FEATURES.REALM_URL) ? { realm_url: realmUrl } : {}),
      realm_name: world.realm.name,
      realm_icon: 'https://secure.gravatar.com/avatar/62429d594b6ffc712f54aee976a18b44?d=identicon',
      realm_description: render(world, world.realm.description),
      realm_web_public_access_enabled: world.realm.enableSpectatorAccess,
      external_authentication_methods: [],
    };
  },
});

export const routes: RouteDef[] = [{ path: '/server_settings', methods: { GET: getServerSettings }, emptyMethodNotAllowed: true }];
