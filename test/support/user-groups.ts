/** Helpers shared by the user-group tests. */
import type { SystemGroupName } from '../../lib/entities/group.js';
import type { TestServer } from './harness.js';

/** The ID of a system group of the test realm (`role:members`, ...). */
export const sys = (s: TestServer, name: SystemGroupName): number => s.world.systemGroupId(name);

/** A group created by hamlet (so hamlet manages it), with the given members; its ID. */
export async function hamletsGroup(s: TestServer, memberEmails: string[] = ['hamlet@zulip.com'], extra: Record<string, unknown> = {}): Promise<number> {
  const name = `team${s.world.groups.size}`;
  const reply = await s.as('hamlet@zulip.com').post('/user_groups/create', { name, description: '', members: memberEmails.map((e) => s.id(e)), ...extra });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  // Looked up by name: the response carries group_id only from level 317.
  const group = [...s.world.groups.values()].find((g) => g.name === name);
  if (!group) throw new Error('group not created');
  return group.id;
}

/** `POST /user_groups/{id}/members` as `email` (hamlet by default). */
export const membersUpdate = (s: TestServer, groupId: number, params: Record<string, unknown>, email = 'hamlet@zulip.com') =>
  s.as(email).post(`/user_groups/${groupId}/members`, params);
