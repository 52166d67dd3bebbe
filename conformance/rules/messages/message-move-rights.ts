/**
 * Who may move, resolve and delete messages in one of the run's channels, derived from what the
 * target publishes: the realm's group settings in `POST /register` (their holders through
 * `GET /user_groups/{id}/members`), the channel's own group settings in `GET /streams/{id}`, and
 * `server_supported_permission_settings` for whether a setting can include guests. The checks
 * follow the real server's `can_edit_topic`, `can_move_messages_out_of_channel`,
 * `can_resolve_topics` and `validate_can_delete_message`. A right that cannot be derived (a
 * setting the target does not publish, such as the role policies these group settings replaced)
 * is `undefined`, and the rules leave that row out.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { expectSuccess } from '../../expect/assert.js';
import { type GroupSettingValue, SettingHolders } from '../support/realm-permissions.js';
import { fetchState, type RunChannel } from '../support/message-fixtures.js';
import type { RuleContext } from '../types.js';
import { EDIT_LEVELS } from './message-edit-support.js';

/** Allowed, refused, or not derivable from what the target publishes. */
export type Right = boolean | undefined;

/** Level 132: `GET /streams/{stream_id}`. */
const STREAM_BY_ID = 132;
const ADMINS: readonly IdentityName[] = ['owner', 'admin'];

const isGroupValue = (value: unknown): value is GroupSettingValue => typeof value === 'number' || (value !== null && typeof value === 'object' && !Array.isArray(value));

/** The rights of the run's identities in one channel. */
export class MoveRights {
  private constructor(
    private readonly ctx: RuleContext,
    private readonly state: JsonObject,
    private readonly stream: JsonObject,
    private readonly holders: SettingHolders,
  ) {}

  /** Reads the realm state and the channel (as the administrator) once. */
  static async load(ctx: RuleContext, channel: RunChannel): Promise<MoveRights> {
    const admin = ctx.as('admin');
    const state = await fetchState(admin, ['realm']);
    const stream = ctx.featureLevel >= STREAM_BY_ID ? await channelObject(admin, channel.id) : {};
    return new MoveRights(ctx, state, stream, new SettingHolders(admin));
  }

  /** The realm state this derivation read. */
  get realm(): JsonObject {
    return this.state;
  }

  /** Whether a guest may hold the setting (`allow_everyone_group`), undefined when the target does not say. */
  private guestMayHold(scope: 'realm' | 'stream', name: string): boolean | undefined {
    const all = this.state.server_supported_permission_settings as Record<string, Record<string, { allow_everyone_group?: unknown }>> | undefined;
    const flag = all?.[scope]?.[name]?.allow_everyone_group;
    return typeof flag === 'boolean' ? flag : undefined;
  }

  private async holds(scope: 'realm' | 'stream', name: string, value: unknown, who: IdentityName): Promise<Right> {
    if (!isGroupValue(value)) return undefined;
    const member = await this.holders.holds(value, this.ctx.identity(who).userId);
    if (!member || who !== 'guest') return member;
    return this.guestMayHold(scope, name);
  }

  /** The realm setting `name` (undefined when not published). */
  private realmGroup(name: string, who: IdentityName): Promise<Right> {
    return this.holds('realm', name, this.state[`realm_${name}`], who);
  }

  /** The channel setting `name`: no right when the channel has no such setting at this level. */
  private async channelGroup(name: string, who: IdentityName): Promise<boolean> {
    if (!(name in this.stream)) return false;
    return (await this.holds('stream', name, this.stream[name], who)) === true;
  }

  /** Administrators, and the channel's administrators, move messages in any channel (from level 396). */
  private async channelAdministrator(who: IdentityName): Promise<boolean> {
    if (this.ctx.featureLevel < EDIT_LEVELS.CHANNEL_MOVE_GROUPS) return false;
    return ADMINS.includes(who) || (await this.channelGroup('can_administer_channel_group', who));
  }

  /** Renaming a topic (moving messages between topics of the channel). */
  async moveTopics(who: IdentityName): Promise<Right> {
    const realm = await this.realmGroup('can_move_messages_between_topics_group', who);
    if (realm === true || (await this.channelAdministrator(who)) || (await this.channelGroup('can_move_messages_within_channel_group', who))) return true;
    return realm;
  }

  /** Moving messages out of the channel. */
  async moveOutOfChannel(who: IdentityName): Promise<Right> {
    const realm = await this.realmGroup('can_move_messages_between_channels_group', who);
    if (realm === true || (await this.channelAdministrator(who)) || (await this.channelGroup('can_move_messages_out_of_channel_group', who))) return true;
    return realm;
  }

  /** Resolving and unresolving topics: its own setting from level 367, a topic move before. */
  async resolve(who: IdentityName): Promise<Right> {
    if (this.ctx.featureLevel < EDIT_LEVELS.RESOLVE_GROUP) return this.moveTopics(who);
    const realm = await this.realmGroup('can_resolve_topics_group', who);
    if (realm === true || (await this.channelGroup('can_resolve_topics_group', who))) return true;
    return realm;
  }

  /** Deleting anyone's message. */
  async deleteAny(who: IdentityName): Promise<Right> {
    if (this.ctx.featureLevel < EDIT_LEVELS.DELETE_ANY_GROUP) return ADMINS.includes(who);
    const realm = await this.realmGroup('can_delete_any_message_group', who);
    if (realm === true || (await this.channelGroup('can_delete_any_message_group', who))) return true;
    return realm;
  }

  /** Deleting one's own message sent a moment ago (undefined when the realm's delete limit is too short to tell). */
  async deleteOwnJustSent(who: IdentityName): Promise<Right> {
    if ((await this.deleteAny(who)) === true) return true;
    const limit = this.state.realm_message_content_delete_limit_seconds;
    if (typeof limit === 'number' && limit > 0 && limit < 60) return undefined;
    const realm = await this.realmGroup('can_delete_own_message_group', who);
    if (realm === true || (await this.channelGroup('can_delete_own_message_group', who))) return true;
    return realm;
  }
}

/** The channel object of `GET /streams/{id}`. */
async function channelObject(client: ApiClient, id: number): Promise<JsonObject> {
  const reply = await client.get(`/streams/${id}`);
  const stream = expectSuccess(reply).stream;
  return stream !== null && typeof stream === 'object' && !Array.isArray(stream) ? (stream as JsonObject) : {};
}

/** The rows of a role table: the roles whose right could be derived, with it. */
export async function derivedRows(roles: readonly IdentityName[], right: (who: IdentityName) => Promise<Right>): Promise<Array<[IdentityName, boolean]>> {
  const rows: Array<[IdentityName, boolean]> = [];
  for (const who of roles) {
    const allowed = await right(who);
    if (allowed !== undefined) rows.push([who, allowed]);
  }
  return rows;
}
