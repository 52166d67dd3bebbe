/**
 * Organization settings: `PATCH /realm/user_settings_defaults` (section 4.3, level 96) and a
 * minimal `PATCH /realm` (message editing, waiting period, moderation channel, group settings).
 */
import { type AnnouncementSetting, applyAnnouncementChannels, planAnnouncementChannels } from '../../../lib/actions/realm/announcement-channels.js';
import { applyRealmProperties, legacyRealmPropertyAnswers, planRealmProperties } from '../../../lib/actions/realm/realm-properties.js';
import { type GroupSettingChange, updateRealm } from '../../../lib/actions/realm/realm-settings.js';
import { updateUserSettingsDefaults } from '../../../lib/actions/realm/user-settings-defaults.js';
import { badRequest, mustBeAdministrator } from '../../../lib/errors.js';
import { REALM_PERMISSION_SETTINGS, type RealmPermissionSetting } from '../../../lib/entities/realm.js';
import { isAdministrator, type SettingValue } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { groupSettingValue } from '../../../lib/input/group-setting-input.js';
import { bool, int, object, optional, required, schema, str as strSchema, union } from '../../../lib/input/schema.js';
import { compareCodePoints } from '../../../lib/input/strings.js';
import type { World } from '../../../lib/state/world.js';
import { type AuthedContext, authed, RawReply, type RouteDef } from '../../app/endpoint.js';
import { sentNames } from '../../app/form.js';
import { json, literalStr, type Param, readDeclared } from '../../app/params.js';
import { success } from '../../app/respond.js';
import { REALM_PROPERTY_PARAMS, realmPropertyInput } from './realm-property-params.js';
import { settingParam, settingsAtLevel } from '../personal/user-settings-params.js';

const requireAdministrator = ({ user }: AuthedContext): void => {
  if (!isAdministrator(user)) throw mustBeAdministrator();
};

/** Every user setting at the emulated level, as this endpoint declares it. */
const defaultsParams = (world: World): Record<string, Param<SettingValue>> =>
  Object.fromEntries(settingsAtLevel(world).map((definition) => [definition.name, settingParam(world, definition)]));

/**
 * The settings are declared per emulated level (a setting that does not exist yet, or any more,
 * is reported as ignored). This endpoint reported ignored parameters from its first level (96),
 * before every endpoint did (167), so it builds its own envelope.
 */
const updateSettingsDefaults = authed({
  since: FEATURES.USER_SETTINGS_DEFAULTS_ENDPOINT,
  gate: requireAdministrator,
  params: {},
  paramsAt: defaultsParams,
  run({ world, params }) {
    const { values, consumed } = readDeclared(world, defaultsParams(world), params);
    const changes = new Map<string, SettingValue>();
    for (const [name, value] of Object.entries(values)) if (value !== undefined) changes.set(name, value as SettingValue);
    updateUserSettingsDefaults(world, changes);
    const ignored = [...sentNames(params)].filter((name) => name !== 'client' && !consumed.has(name)).sort(compareCodePoints);
    return new RawReply(success({}, ignored));
  },
});

/** `GroupSettingChangeRequest`: `{"new": value, "old": expected}` (old optional). */
const groupSettingChange = schema<GroupSettingChange>((value, path) => {
  if (!(value instanceof Map)) throw badRequest(`${path} does not have the expected format`);
  return object({ new: required(groupSettingValue), old: optional(groupSettingValue) }, { extra: 'ignore' }).parse(value, path);
});

const groupSettingParams = Object.fromEntries(
  [...REALM_PERMISSION_SETTINGS].sort().map((name) => [name, json(groupSettingChange)]),
) as Record<RealmPermissionSetting, Param<GroupSettingChange>>;

const updateRealmSettings = authed({
  gate: requireAdministrator,
  params: {
    allow_message_editing: json(bool),
    ...REALM_PROPERTY_PARAMS,
    ...groupSettingParams,
    message_content_edit_limit_seconds: json(union(int, strSchema)),
    message_edit_history_visibility_policy: literalStr('all', 'moves', 'none').availableFrom(FEATURES.EDIT_HISTORY_VISIBILITY_POLICY),
    moderation_request_channel_id: json(int),
    new_stream_announcements_stream_id: json(int).availableFrom(FEATURES.ANNOUNCEMENT_RENAMES),
    notifications_stream_id: json(int).availableBefore(FEATURES.ANNOUNCEMENT_RENAMES),
    signup_announcements_stream_id: json(int).availableFrom(FEATURES.ANNOUNCEMENT_RENAMES),
    signup_notifications_stream_id: json(int).availableBefore(FEATURES.ANNOUNCEMENT_RENAMES),
    zulip_update_announcements_stream_id: json(int).availableFrom(FEATURES.UPDATE_ANNOUNCEMENTS),
    waiting_period_threshold: json(int).check((value, name) => {
      if (value < 0) throw badRequest(`${name} is too small`);
    }),
  },
  run({ world, user }, args) {
    const groupSettings = new Map<RealmPermissionSetting, GroupSettingChange>();
    for (const name of REALM_PERMISSION_SETTINGS) {
      const change = args[name];
      if (change !== undefined) groupSettings.set(name, change);
    }
    // Every setting is validated before any is applied.
    const propertyInput = realmPropertyInput(args);
    const properties = planRealmProperties(world, user, propertyInput);
    const announcements = planAnnouncementChannels(world, user, announcementInput(args));
    const data = updateRealm(world, user, {
      groupSettings,
      ...(args.allow_message_editing === undefined ? {} : { allowMessageEditing: args.allow_message_editing }),
      ...(args.message_content_edit_limit_seconds === undefined ? {} : { messageContentEditLimitSeconds: args.message_content_edit_limit_seconds }),
      ...(args.message_edit_history_visibility_policy === undefined ? {} : { editHistoryVisibilityPolicy: args.message_edit_history_visibility_policy }),
      ...(args.moderation_request_channel_id === undefined ? {} : { moderationRequestChannelId: args.moderation_request_channel_id }),
      ...(args.waiting_period_threshold === undefined ? {} : { waitingPeriodThreshold: args.waiting_period_threshold }),
    });
    const channels = applyAnnouncementChannels(world, announcements);
    const answered = applyRealmProperties(world, properties);
    return { ...data, ...Object.fromEntries(channels), ...Object.fromEntries([...answered, ...legacyRealmPropertyAnswers(world, propertyInput)]) };
  },
});

/** The announcement channels sent, under either level's names. */
interface AnnouncementArgs {
  readonly new_stream_announcements_stream_id?: number | undefined;
  readonly notifications_stream_id?: number | undefined;
  readonly signup_announcements_stream_id?: number | undefined;
  readonly signup_notifications_stream_id?: number | undefined;
  readonly zulip_update_announcements_stream_id?: number | undefined;
}

function announcementInput(args: AnnouncementArgs): Map<AnnouncementSetting, number> {
  const sent: Array<[AnnouncementSetting, number | undefined]> = [
    ['new_stream_announcements_stream_id', args.new_stream_announcements_stream_id ?? args.notifications_stream_id],
    ['signup_announcements_stream_id', args.signup_announcements_stream_id ?? args.signup_notifications_stream_id],
    ['zulip_update_announcements_stream_id', args.zulip_update_announcements_stream_id],
  ];
  return new Map(sent.filter((entry): entry is [AnnouncementSetting, number] => entry[1] !== undefined));
}

export const routes: RouteDef[] = [
  { path: '/realm', methods: { PATCH: updateRealmSettings } },
  { path: '/realm/user_settings_defaults', methods: { PATCH: updateSettingsDefaults } },
];
