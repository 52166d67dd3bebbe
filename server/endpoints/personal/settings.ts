/**
 * `PATCH /settings`: the caller changes their own settings (the real server's
 * `json_change_settings`; not part of the description). Humans only, like the real server's
 * `human_users_only`.
 *
 * Parameters, read in the real server's (alphabetical) order: every personal setting of
 * lib/settings/user-settings.ts that exists at the emulated level, declared as `PATCH
 * /realm/user_settings_defaults` declares it, plus `default_language`, `enable_login_emails`,
 * `enable_marketing_emails`, `allow_private_data_export` (from 293), `timezone`, `full_name`,
 * `email`, `old_password` and `new_password`. Two strings differ from the defaults endpoint:
 * `web_home_view` and `web_animate_image_previews` are checked by a validator here
 * (`Invalid <name>: Value error, Not in the list of possible values`), not by a Literal type.
 */
import { changeOwnSettings, type OwnSettingsOutcome } from '../../../lib/actions/personal/user-settings.js';
import { invalidValue } from '../../../lib/input/schema.js';
import { notForBots } from '../../../lib/errors.js';
import type { SettingValue } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { defaultsAtLevel } from '../../../lib/queries/realm/user-settings-defaults.js';
import { isKnownTimeZone } from '../../../lib/queries/personal/user-settings.js';
import { compareCodePoints } from '../../../lib/input/strings.js';
import type { SettingDefinition } from '../../../lib/settings/user-settings.js';
import type { World } from '../../../lib/state/world.js';
import { authed, RawReply, type RouteDef } from '../../app/endpoint.js';
import { sentNames } from '../../app/form.js';
import { choiceStr, type Param, readDeclared, str } from '../../app/params.js';
import { success } from '../../app/respond.js';
import { settingParam } from './user-settings-params.js';


/** The real server's text when an email change starts (before level 78 only). */
const CHECK_YOUR_EMAIL = 'Check your email for a confirmation link. ';

/** Strings this view checks with `check_string_in_validator` (the defaults view uses Literal types). */
const VALIDATED_STRINGS = new Set(['web_home_view', 'default_view', 'web_animate_image_previews']);

function ownSettingParam(world: World, definition: SettingDefinition): Param<SettingValue> {
  if (VALIDATED_STRINGS.has(definition.name) && definition.allowed) {
    return choiceStr(...(definition.allowed as readonly string[]));
  }
  return settingParam(world, definition);
}

/** `timezone`: an IANA name `zoneinfo` can load (`""` is not one). */
const timezone = (): Param<string> =>
  str().check((value, name) => {
    if (!isKnownTimeZone(value)) throw invalidValue(name, 'Not a recognized time zone');
  });

const ACCOUNT_PARAMS = ['email', 'full_name', 'new_password', 'old_password'] as const;

/** Every parameter at the emulated level, in alphabetical order. */
function declaredParams(world: World): Record<string, Param<SettingValue>> {
  const specs: Array<[string, Param<SettingValue>]> = ACCOUNT_PARAMS.map((name) => [name, str()]);
  if (world.has(FEATURES.SETTINGS_MERGED)) {
    for (const definition of defaultsAtLevel(world)) specs.push([definition.name, ownSettingParam(world, definition)]);
    specs.push(['timezone', timezone()]);
  }
  specs.sort(([a], [b]) => compareCodePoints(a, b));
  return Object.fromEntries(specs);
}

/** Before level 78 the response named what changed instead of listing ignored parameters. */
function changedValues(outcome: OwnSettingsOutcome): Record<string, unknown> {
  return {
    ...(outcome.emailChangeStarted ? { account_email: CHECK_YOUR_EMAIL } : {}),
    ...(outcome.fullName === undefined ? {} : { full_name: outcome.fullName }),
  };
}

const updateSettings = authed({
  gate({ user }) {
    if (user.isBot) throw notForBots();
  },
  params: {},
  paramsAt: declaredParams,
  run({ app, world, user, params }) {
    const { values, consumed } = readDeclared(world, declaredParams(world), params);
    const settings = new Map<string, SettingValue>();
    const account = new Set<string>([...ACCOUNT_PARAMS, 'timezone']);
    for (const [name, value] of Object.entries(values)) {
      if (value !== undefined && !account.has(name)) settings.set(name, value);
    }
    const text = (name: string): string | undefined => {
      const value = values[name];
      return typeof value === 'string' ? value : undefined;
    };
    const outcome = changeOwnSettings(
      world,
      user,
      {
        settings,
        fullName: text('full_name'),
        email: text('email'),
        oldPassword: text('old_password'),
        newPassword: text('new_password'),
        timezone: text('timezone'),
      },
      app.authLimiter,
    );
    if (!world.has(FEATURES.SETTINGS_IGNORED_PARAMETERS)) return new RawReply(success(changedValues(outcome)));
    const ignored = [...sentNames(params)].filter((name) => name !== 'client' && !consumed.has(name)).sort(compareCodePoints);
    return new RawReply(success({}, ignored));
  },
});

export const routes: RouteDef[] = [{ path: '/settings', methods: { PATCH: updateSettings } }];
