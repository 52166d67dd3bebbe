/**
 * Builds a World from a realm fixture, validating it on the way with errors that name the bad
 * field (`fixture: users[3]["email"] is not a string`).
 */
import { defaultChannelSettings, defaultGroupSettings, defaultRealmSettings, systemGroupSettings } from './defaults.js';
import { type GroupSetting, SYSTEM_GROUP_NAMES, type SystemGroupName } from './entities/group.js';
import { type ChannelPermissionSetting, newSubscription, SUBSCRIPTION_COLORS } from './entities/stream.js';
import { ROLE, type SettingValue, type User } from './entities/user.js';
import type { Fixture, FixtureUser } from './fixture-schema.js';
import { LayeredMap } from './layered-map.js';
import { seedMessages } from './fixture-messages.js';
import { joinRoleGroups } from './actions/role-groups.js';
import { fixtureBotProfile } from './fixture-bots.js';
import { SETTINGS_BY_NAME, stockDefaults } from './user-settings.js';
import { World, type WorldOptions } from './world.js';
import { personalRecords, realmRecords } from './fixture-records.js';
import { FixtureError, parseTime } from './fixture-parse.js';

export { FixtureError, parseFixture } from './fixture-parse.js';

const API_KEY = /^[A-Za-z0-9]{32}$/;

/** A place in one of the fixture's lists, for error messages: `fixture.users[3]`. */
const at = (list: string, index: number): string => `fixture.${list}[${index}]`;

/** What a fixture says of a user, a bot or a system bot (the user list's fields, and a bot's). */
type NewUserFields = Pick<FixtureUser, 'id' | 'email' | 'fullName' | 'role' | 'apiKey'> &
  Partial<Pick<FixtureUser, 'timezone' | 'password' | 'dateJoined' | 'isActive'>> &
  Partial<Pick<User, 'isSystemBot'>> & { readonly isBot?: boolean; readonly botType?: User['botType']; readonly owner?: string | null };

class Builder {
  readonly world: World;
  private defaultsSnapshot: ReadonlyMap<string, SettingValue> | undefined;
  /** The fixture's `dateJoined`, read once. */
  private fixtureDateJoined: number | undefined;
  private readonly times = new Map<string, number>();
  private readonly channelDefaultsByCreator = new Map<number | null, ReadonlyMap<ChannelPermissionSetting, GroupSetting>>();

  constructor(
    private readonly fixture: Fixture,
    options: WorldOptions,
  ) {
    this.world = new World(options);
  }

  user(email: string, where: string): User {
    const user = this.world.usersByEmail.get(email.toLowerCase());
    if (!user) throw new FixtureError(`${where}: no user with email ${email}`);
    return user;
  }

  /** `parseTime`, remembered per text: a large fixture repeats the same few dates. */
  time(value: string | undefined, fallback: number, where: string): number {
    if (value === undefined) return fallback;
    let ms = this.times.get(value);
    if (ms === undefined) this.times.set(value, (ms = parseTime(value, fallback, where)));
    return ms;
  }

  channelId(name: string, where: string): number {
    const stream = this.world.streamByName(name);
    if (!stream) throw new FixtureError(`${where}: no channel named ${name}`);
    return stream.id;
  }

  build(): World {
    this.realm();
    this.systemGroups();
    this.people();
    this.groups();
    this.channels();
    realmRecords(this, this.fixture);
    personalRecords(this, this.fixture);
    seedMessages(this.world, this.fixture.messages ?? [], { user: (e, w) => this.user(e, w), channelId: (n, w) => this.channelId(n, w), fail: (m) => new FixtureError(m) });
    return this.world;
  }

  private realm(): void {
    const r = this.fixture.realm;
    const w = this.world;
    w.realm = {
      id: r.id,
      name: r.name,
      description: r.description,
      fakeEmailDomain: r.fakeEmailDomain,
      url: r.url ?? null,
      dateCreated: parseTime(r.dateCreated, w.now(), 'fixture.realm.dateCreated'),
      moderationRequestChannelId: null,
      newStreamAnnouncementsStreamId: null,
      signupAnnouncementsStreamId: null,
      zulipUpdateAnnouncementsStreamId: null,
      editHistoryVisibilityPolicy: 'all',
      allowMessageEditing: true,
      messageContentEditLimitSeconds: 600,
      presenceDisabled: false,
      enableSpectatorAccess: r.enableSpectatorAccess ?? false,
      waitingPeriodThreshold: r.waitingPeriodThreshold ?? 0,
      topicsPolicy: 'allow_empty_topic',
      messageRetentionDays: -1,
      maxFileUploadSizeMib: 25,
      emailAuthEnabled: true,
      canCreateUsers: r.canCreateUsers ?? false,
      settings: new Map(),
    };
    for (const [name, value] of stockDefaults()) w.userSettingsDefaults.set(name, value);
    for (const [name, value] of this.fixture.userSettingsDefaults ?? []) {
      const definition = SETTINGS_BY_NAME.get(name);
      if (!definition) throw new FixtureError(`fixture.userSettingsDefaults: unknown setting ${name}`);
      if (typeof value !== (definition.kind === 'bool' ? 'boolean' : definition.kind === 'int' ? 'number' : 'string')) {
        throw new FixtureError(`fixture.userSettingsDefaults: ${name} must be a ${definition.kind}`);
      }
      w.userSettingsDefaults.set(name, value);
    }
  }

  private systemGroups(): void {
    const ids = this.fixture.systemGroupIds;
    const w = this.world;
    for (const name of SYSTEM_GROUP_NAMES) {
      const id = ids.get(name);
      if (id === undefined) throw new FixtureError(`fixture.systemGroupIds: missing ${name}`);
      w.systemGroups.set(name, id);
      w.ids.reserve('group', id);
    }
    const nobody = w.systemGroupId('role:nobody');
    const descriptions = new Map<SystemGroupName, string>([
      ['role:nobody', 'Nobody'],
      ['role:owners', 'Owners of this organization'],
      ['role:administrators', 'Administrators of this organization, including owners'],
      ['role:moderators', 'Moderators of this organization, including administrators'],
      ['role:fullmembers', 'Members of this organization, not including new accounts and guests'],
      ['role:members', 'Members of this organization, not including guests'],
      ['role:everyone', 'Everyone in this organization, including guests'],
      ['role:internet', 'Everyone on the Internet'],
    ]);
    // Each role group is a direct subgroup of the next wider one.
    const chain: SystemGroupName[] = ['role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet'];
    for (const name of SYSTEM_GROUP_NAMES) {
      const index = chain.indexOf(name);
      const below = index > 0 ? [w.systemGroupId(chain[index - 1] as SystemGroupName)] : [];
      w.groups.set(w.systemGroupId(name), {
        id: w.systemGroupId(name),
        name,
        description: descriptions.get(name) ?? '',
        members: new Set(),
        subgroups: new Set(below),
        isSystemGroup: true,
        creatorId: null,
        dateCreated: w.realm.dateCreated,
        deactivated: false,
        settings: systemGroupSettings(nobody),
      });
    }
    for (const [setting, value] of defaultRealmSettings(w)) w.realm.settings.set(setting, value);
  }

  /**
   * A user as the fixture gives it. `list` and `index` locate it in error messages (built only
   * then: a large realm has 100,000 users). The object is created whole, in one shape for all.
   */
  private newUser(fields: NewUserFields, list: string, index: number): User {
    const w = this.world;
    if (w.users.has(fields.id)) throw new FixtureError(`${at(list, index)}: duplicate user ID ${fields.id}`);
    // Every user is indexed by lower-cased email as soon as it is made, so the index finds duplicates.
    if (w.usersByEmail.has(fields.email.toLowerCase())) throw new FixtureError(`${at(list, index)}: duplicate email ${fields.email}`);
    if (!API_KEY.test(fields.apiKey)) throw new FixtureError(`${at(list, index)}: apiKey must be 32 letters or digits`);
    // Fixture users share one copy of the defaults and keep only their own changes.
    this.defaultsSnapshot ??= new Map(w.userSettingsDefaults);
    const settings = LayeredMap.over<string, SettingValue>(this.defaultsSnapshot);
    if (fields.isBot) settings.set('email_address_visibility', 1);
    this.fixtureDateJoined ??= this.time(this.fixture.dateJoined, w.realm.dateCreated, 'fixture.dateJoined');
    w.ids.reserve('user', fields.id);
    const user: User = {
      id: fields.id,
      deliveryEmail: fields.email,
      fullName: fields.fullName,
      role: fields.role,
      isActive: fields.isActive ?? true,
      isBot: fields.isBot ?? false,
      botType: fields.botType ?? null,
      botOwnerId: fields.owner ? this.user(fields.owner, at(list, index)).id : null,
      apiKey: fields.apiKey,
      password: fields.password ?? null,
      timezone: fields.timezone ?? '',
      dateJoined: fields.dateJoined === undefined ? this.fixtureDateJoined : this.time(fields.dateJoined, this.fixtureDateJoined, `${at(list, index)}.dateJoined`),
      avatarSource: 'G',
      avatarVersion: 1,
      settings,
      // Most users have no profile data: an empty layer costs no table until the first value.
      profileData: new LayeredMap(),
      isSystemBot: fields.isSystemBot ?? false,
    };
    w.addUser(user);
    return user;
  }

  private people(): void {
    const w = this.world;
    const systemBots = this.fixture.systemBots ?? [];
    for (let i = 0; i < systemBots.length; i++) {
      const bot = systemBots[i] as (typeof systemBots)[number];
      this.newUser({ id: bot.id, email: bot.email, fullName: bot.fullName, apiKey: bot.apiKey, role: ROLE.MEMBER, isBot: true, botType: 1, isSystemBot: true }, 'systemBots', i);
    }
    const now = w.now();
    const users = this.fixture.users;
    for (let i = 0; i < users.length; i++) joinRoleGroups(w, this.newUser(users[i] as FixtureUser, 'users', i), now);
    const bots = this.fixture.bots ?? [];
    for (let i = 0; i < bots.length; i++) {
      const entry = bots[i] as (typeof bots)[number];
      const user = this.newUser({ ...entry, role: ROLE.MEMBER, isBot: true }, 'bots', i);
      joinRoleGroups(w, user, now);
      w.bots.set(user.id, fixtureBotProfile(user));
    }
    if (this.fixture.reservedUserIdsThrough !== undefined) w.ids.reserve('user', this.fixture.reservedUserIdsThrough);
  }

  private groups(): void {
    const w = this.world;
    (this.fixture.groups ?? []).forEach((entry, i) => {
      const where = `fixture.groups[${i}]`;
      if (w.groups.has(entry.id)) throw new FixtureError(`${where}: duplicate group ID ${entry.id}`);
      w.ids.reserve('group', entry.id);
      w.groups.set(entry.id, {
        id: entry.id,
        name: entry.name,
        description: entry.description,
        members: new Set(entry.members.map((email) => this.user(email, where).id)),
        subgroups: new Set(),
        isSystemGroup: false,
        creatorId: null,
        dateCreated: w.realm.dateCreated,
        deactivated: false,
        settings: defaultGroupSettings(w, null),
      });
    });
  }

  /**
   * The default settings of a channel by this creator, made once per creator and shared by all
   * its channels (which keep only their own changes): a large realm has thousands of channels.
   */
  private channelDefaults(creatorId: number | null): ReadonlyMap<ChannelPermissionSetting, GroupSetting> {
    let defaults = this.channelDefaultsByCreator.get(creatorId);
    if (!defaults) this.channelDefaultsByCreator.set(creatorId, (defaults = defaultChannelSettings(this.world, creatorId)));
    return defaults;
  }

  private channels(): void {
    const w = this.world;
    this.fixture.channels.forEach((entry, i) => {
      const where = `fixture.channels[${i}]`;
      if (w.streams.has(entry.id)) throw new FixtureError(`${where}: duplicate channel ID ${entry.id}`);
      if (w.streamByName(entry.name)) throw new FixtureError(`${where}: duplicate channel name ${entry.name}`);
      w.ids.reserve('stream', entry.id);
      const creatorId = entry.creator ? this.user(entry.creator, where).id : null;
      const settings = LayeredMap.over(this.channelDefaults(creatorId));
      if (entry.canSendMessageGroup) {
        const groupId = w.systemGroups.get(entry.canSendMessageGroup as SystemGroupName);
        if (groupId === undefined) throw new FixtureError(`${where}.canSendMessageGroup: not a system group`);
        settings.set('can_send_message_group', { kind: 'group', groupId });
      }
      const inviteOnly = entry.inviteOnly ?? false;
      w.streams.set(entry.id, {
        id: entry.id,
        name: entry.name,
        description: entry.description,
        renderedDescription: null,
        inviteOnly,
        isWebPublic: entry.isWebPublic ?? false,
        historyPublicToSubscribers: entry.historyPublicToSubscribers ?? !inviteOnly,
        messageRetentionDays: null,
        creatorId,
        dateCreated: w.realm.dateCreated,
        isArchived: false,
        topicsPolicy: 'inherit',
        folderId: null,
        firstMessageId: null,
        settings,
      });
      const subs = w.subscribersOf(entry.id);
      entry.subscribers.forEach((email, n) => {
        const userId = this.user(email, where).id;
        subs.set(userId, newSubscription(userId, entry.id, SUBSCRIPTION_COLORS[(entry.id + n) % SUBSCRIPTION_COLORS.length] as string));
      });
    });
    for (const name of this.fixture.defaultChannels ?? []) w.defaultStreamIds.add(this.channelId(name, 'fixture.defaultChannels'));
    const r = this.fixture.realm;
    const channel = (name: string | null | undefined, where: string): number | null => (name ? this.channelId(name, where) : null);
    w.realm.newStreamAnnouncementsStreamId = channel(r.newStreamAnnouncementsChannel, 'fixture.realm.newStreamAnnouncementsChannel');
    w.realm.signupAnnouncementsStreamId = channel(r.signupAnnouncementsChannel, 'fixture.realm.signupAnnouncementsChannel');
    w.realm.zulipUpdateAnnouncementsStreamId = channel(r.zulipUpdateAnnouncementsChannel, 'fixture.realm.zulipUpdateAnnouncementsChannel');
    w.realm.moderationRequestChannelId = channel(r.moderationRequestChannel, 'fixture.realm.moderationRequestChannel');
  }

}

export function buildWorld(fixture: Fixture, options: WorldOptions): World {
  return new Builder(fixture, options).build();
}
