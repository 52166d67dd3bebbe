/**
 * Who holds a realm's permission settings, as the target publishes them: the `realm_can_*`
 * group-setting values of `POST /register` and the recursive members of `GET
 * /user_groups/{id}/members`. Rules about roles derive what each identity may do from these, so
 * they hold on a realm whose administrators changed the defaults.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectError, fail } from '../../expect/assert.js';
import { fetchState } from './channel-fixtures.js';
import { fixtureRule, type RuleHeader } from './rule-factory.js';
import type { FeatureRange, Rule, RuleContext } from '../types.js';
import { groupList } from '../groups/user-groups-support.js';

/** A group-setting value (section 1 convention 7). */
export type GroupSettingValue = number | { readonly direct_members: readonly number[]; readonly direct_subgroups: readonly number[] };

/** The identities whose rights the role rules compare (the guest is refused by its own gates). */
export const NON_GUEST_ROLES: readonly IdentityName[] = ['owner', 'admin', 'moderator', 'member'];

/** The rows of a role-permission table: every role, the guest last. */
export const ROLES_AND_GUEST: readonly IdentityName[] = [...NON_GUEST_ROLES, 'guest'];

/** Whether `who` may act by `holders` (from `holdersByRole`): a guest never (the real server refuses guests before reading the setting). */
export const mayAct = (holders: ReadonlyMap<IdentityName, boolean>, who: IdentityName): boolean => who !== 'guest' && holders.get(who) === true;

/** Success when `allowed`, else 400 BAD_REQUEST (the real server's refusal of a missing right); says who did what in the failure. */
export function expectAllowed(reply: Reply, allowed: boolean, what: string): void {
  if (allowed) check(reply.status === 200, `${what} should be allowed; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  else expectError(reply, { status: 400, code: 'BAD_REQUEST' });
}

/** The realm state of `POST /register` as `client` sees it. */
export const realmState = (client: ApiClient): Promise<JsonObject> => fetchState(client, ['realm']);

/** The realm's group-setting value `name` (e.g. `realm_can_create_groups`); fails when absent. */
export function realmGroupSetting(state: JsonObject, name: string): GroupSettingValue {
  const value = state[name];
  if (typeof value === 'number') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as unknown as GroupSettingValue;
  fail(`POST /register did not give the group setting ${name}`);
}

/**
 * Whether `userId` holds the setting: a member, at any depth, of the named group, or of the
 * anonymous group's members and subgroups. Memberships are read once per group and cached.
 */
export class SettingHolders {
  private readonly members = new Map<number, Promise<number[]>>();

  constructor(private readonly client: ApiClient) {}

  async holds(value: GroupSettingValue, userId: number): Promise<boolean> {
    if (typeof value === 'number') return (await this.membersOf(value)).includes(userId);
    if (value.direct_members.includes(userId)) return true;
    for (const subgroup of value.direct_subgroups) if ((await this.membersOf(subgroup)).includes(userId)) return true;
    return false;
  }

  private membersOf(groupId: number): Promise<number[]> {
    let found = this.members.get(groupId);
    if (!found) {
      found = groupList(this.client, groupId, 'members', false);
      this.members.set(groupId, found);
    }
    return found;
  }
}

/** For each role, whether its identity holds the realm setting `name`. */
export async function holdersByRole(ctx: RuleContext, state: JsonObject, name: string, roles: readonly IdentityName[] = NON_GUEST_ROLES): Promise<Map<IdentityName, boolean>> {
  const holders = new SettingHolders(ctx.as('admin'));
  const value = realmGroupSetting(state, name);
  const result = new Map<IdentityName, boolean>();
  for (const role of roles) result.set(role, await holders.holds(value, ctx.identity(role).userId));
  return result;
}

/** A rule that tries one action as each role (and the guest) and compares the outcome with the rights the target publishes; the body gets the administrator's client. */
export function roleTableRule(header: RuleHeader & { readonly endpoint: string; readonly levels: FeatureRange }, body: (ctx: RuleContext, admin: ApiClient) => Promise<void>): Rule {
  const defaults = { endpoint: header.endpoint, writes: true, needs: ['owner', 'admin', 'moderator', 'member', 'guest'] } as const;
  return fixtureRule(header, defaults, async (ctx) => ctx.as('admin'), body);
}
