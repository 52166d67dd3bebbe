/**
 * The channel group settings of subscribe (section 4.1, section 1 convention 7): every system
 * group once per run for every setting the level has. The real server's model says which system
 * groups each setting may take (none takes `role:internet`; `role:everyone` only where its
 * `allow_everyone_group` is true); `POST /register` publishes the same table in
 * `server_supported_permission_settings`, which must agree.
 */
import { expectEqual, expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { realmGroupSetting, realmState, SettingHolders } from '../support/realm-permissions.js';
import { type CreationCase, createAndReadBack, expectRefusedCreation } from './subscribe-settings.js';
import { SUBSCRIPTION_LEVELS } from './subscription-shape.js';
import type { Rule } from '../types.js';
import { systemGroups } from '../groups/user-groups-support.js';

/** A channel group setting: the level it appeared at and whether it may be `role:everyone`. */
export interface ChannelSetting {
  readonly name: string;
  readonly since: number;
  readonly allowEveryone: boolean;
}

const L = SUBSCRIPTION_LEVELS;

/** The real server's `Stream.stream_permission_group_settings` (all allow role:nobody, none role:internet). */
export const CHANNEL_SETTINGS: readonly ChannelSetting[] = [
  { name: 'can_add_subscribers_group', since: L.CAN_ADD_SUBSCRIBERS, allowEveryone: false },
  { name: 'can_administer_channel_group', since: L.CAN_ADMINISTER, allowEveryone: false },
  { name: 'can_delete_any_message_group', since: L.CAN_DELETE_MESSAGES, allowEveryone: true },
  { name: 'can_delete_own_message_group', since: L.CAN_DELETE_MESSAGES, allowEveryone: true },
  { name: 'can_move_messages_out_of_channel_group', since: L.CAN_MOVE_MESSAGES, allowEveryone: true },
  { name: 'can_move_messages_within_channel_group', since: L.CAN_MOVE_MESSAGES, allowEveryone: true },
  { name: 'can_remove_subscribers_group', since: L.ANY_GROUP_SETTING, allowEveryone: true },
  { name: 'can_resolve_topics_group', since: L.CAN_RESOLVE_TOPICS, allowEveryone: true },
  { name: 'can_send_message_group', since: L.CAN_SEND_MESSAGE, allowEveryone: true },
  { name: 'can_subscribe_group', since: L.CAN_SUBSCRIBE, allowEveryone: false },
];

/** Settings about deleting messages may be set only by holders of this realm setting (level 407). */
export const DELETE_POLICY_SETTING = 'realm_can_set_delete_message_policy_group';
export const DELETE_SETTINGS = ['can_delete_any_message_group', 'can_delete_own_message_group'];

const INTERNET = 'role:internet';
const EVERYONE = 'role:everyone';

const supportedShape = v.object({ stream: v.record(v.object({ allow_everyone_group: v.bool(), allow_internet_group: v.bool(), allow_nobody_group: v.bool() })) });

const systemGroupValues: Rule = {
  id: 'subscribe/group-settings-system-groups',
  title: 'each channel group setting takes every system group it allows (read back as that group\'s ID) and refuses role:internet, and role:everyone where the real server does, with 400 BAD_REQUEST; register publishes the same rules',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1; 1 convention 7',
  levels: { min: L.CAN_ADMINISTER },
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const system = await systemGroups(admin);
    const state = await realmState(admin);
    let settings = CHANNEL_SETTINGS.filter((setting) => ctx.featureLevel >= setting.since);
    if (ctx.featureLevel >= L.CAN_DELETE_MESSAGES && !(await new SettingHolders(admin).holds(realmGroupSetting(state, DELETE_POLICY_SETTING), ctx.identity('admin').userId))) {
      ctx.note(`the administrator does not hold ${DELETE_POLICY_SETTING}: the message-deletion settings are left out`);
      settings = settings.filter((setting) => !DELETE_SETTINGS.includes(setting.name));
    }
    const published = expectShape(state.server_supported_permission_settings, supportedShape, 'server_supported_permission_settings of POST /register').stream;
    for (const setting of settings) {
      const rules = published[setting.name];
      expectEqual(rules && [rules.allow_everyone_group, rules.allow_internet_group, rules.allow_nobody_group], [setting.allowEveryone, false, true], `register's allow_everyone/internet/nobody_group of ${setting.name}`);
    }
    const allows = (setting: ChannelSetting, group: string) => group !== INTERNET && (group !== EVERYONE || setting.allowEveryone);
    const cases: CreationCase[] = [];
    for (const [group, id] of system) {
      const taking = settings.filter((setting) => allows(setting, group));
      for (const setting of settings.filter((candidate) => !allows(candidate, group))) {
        await expectRefusedCreation(ctx, 'admin', 'gs-refused', [[setting.name, id]], { status: 400, code: 'BAD_REQUEST' });
      }
      if (taking.length > 0) cases.push({ label: `gs-${group.replace('role:', '')}`, params: taking.map((setting) => [setting.name, id]), expected: taking.map((setting) => [setting.name, id]) });
    }
    await createAndReadBack(ctx, 'admin', cases);
  },
};

export const rules: readonly Rule[] = [systemGroupValues];
